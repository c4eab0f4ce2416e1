package jsonl

import (
	"fmt"
	"math/rand"
	"testing"
)

// TestIDTableMatchesMap adds ids (some repeated) to an idTable, looking some
// up as it goes, and checks every answer against a map where the later entry
// wins: across batches, growth, and lookups of ids still waiting to be placed.
// A third of the ids pack (8 hex digits), the others are text.
func TestIDTableMatchesMap(t *testing.T) {
	idOf := func(v int) string {
		if v%3 == 0 {
			return fmt.Sprintf("%08x", v)
		}
		return fmt.Sprintf("%x", v)
	}
	r := rand.New(rand.NewSource(5))
	for _, distinct := range []int{3, 300, 30000, 0} { // 0: every id new
		table, want := newIDTable(), map[string]int32{}
		dup := false
		for e := int32(0); e < 50000; e++ {
			id := fmt.Sprintf("u%d", e)
			if e%2 == 0 {
				id = fmt.Sprintf("%08x", e)
			}
			if distinct > 0 {
				id = idOf(r.Intn(distinct))
			}
			if _, seen := want[id]; seen {
				dup = true
			}
			table.add([]byte(id), false)
			want[id] = e
			if r.Intn(50) == 0 {
				probe := idOf(r.Intn(2*distinct + 1))
				got, ok := table.lookup([]byte(probe))
				if w, wok := want[probe]; ok != wok || got != w {
					t.Fatalf("%d ids: lookup(%q) after entry %d = %d %v, want %d %v", distinct, probe, e, got, ok, w, wok)
				}
			}
			if table.id(e) != id {
				t.Fatalf("id(%d) = %q, want %q", e, table.id(e), id)
			}
		}
		for id, w := range want {
			if got, ok := table.lookup([]byte(id)); !ok || got != w {
				t.Fatalf("%d ids: lookup(%q) = %d %v, want %d", distinct, id, got, ok, w)
			}
		}
		if len(table.duplicates()) > 0 != dup {
			t.Fatalf("%d ids: duplicates() = %v, want %v", distinct, !dup, dup)
		}
	}
}

// TestIDTablePackedIDs checks the ids at the edge of packing (8 lowercase hex
// digits are kept as their value, every other id as text): each reads back
// as written, resolves to its own last entry and to no look-alike, and a
// repeated id is a duplicate whether it packs or not.
func TestIDTablePackedIDs(t *testing.T) {
	ids := []struct {
		id    string
		packs bool
	}{
		{"abcdef01", true}, {"00000000", true}, {"ffffffff", true}, {"0123abcd", true},
		{"ABCDEF01", false}, {"Abcdef01", false}, {"abcdef0", false}, {"abcdef012", false},
		{"abcdefg1", false}, {"abcdef0 ", false}, {"0x123456", false}, {"-1234567", false},
		{"", false}, {"abcdef01-2345-6789-abcd-ef0123456789", false},
	}
	table := newIDTable()
	for e, c := range ids {
		if _, packs := packID([]byte(c.id)); packs != c.packs {
			t.Errorf("packID(%q) packs = %v, want %v", c.id, packs, c.packs)
		}
		table.add([]byte(c.id), false)
		if got := table.id(int32(e)); got != c.id {
			t.Errorf("id(%d) = %q, want %q", e, got, c.id)
		}
	}
	// Each id again: the later entry wins and both are reported.
	for k, c := range ids {
		table.add([]byte(c.id), false)
		e := int32(len(ids) + k)
		if got, ok := table.lookup([]byte(c.id)); !ok || got != e {
			t.Errorf("lookup(%q) = %d %v, want %d", c.id, got, ok, e)
		}
		if got, ok := table.latest(int32(k)); !ok || got != e {
			t.Errorf("latest(%d) = %d %v, want %d", k, got, ok, e)
		}
		var buf [packedIDLen]byte
		if got := string(table.view(e, &buf)); got != c.id {
			t.Errorf("view(%d) = %q, want %q", e, got, c.id)
		}
		for j, other := range ids {
			if is := table.is(e, []byte(other.id)); is != (j == k) {
				t.Errorf("is(%q, %q) = %v", c.id, other.id, is)
			}
		}
	}
	if got := len(table.duplicates()); got != len(ids) {
		t.Errorf("%d duplicates, want %d", got, len(ids))
	}
	for _, absent := range []string{"abcdef02", "ABCDEF02", "abcdef01 ", "aBcdef01", "12345678"} {
		if got, ok := table.lookup([]byte(absent)); ok {
			t.Errorf("lookup(%q) = %d, want none", absent, got)
		}
	}
}

// TestIDTablePackedHidden checks that a hidden entry's packed id reads back
// and names nothing, and that the entry before it keeps its id.
func TestIDTablePackedHidden(t *testing.T) {
	table := newIDTable()
	table.add([]byte("1234abcd"), false)
	table.add([]byte("1234abcd"), true)
	if got := table.id(1); got != "1234abcd" || !table.hidden(1) {
		t.Fatalf("id(1) = %q hidden %v, want 1234abcd hidden", got, table.hidden(1))
	}
	if got, ok := table.lookup([]byte("1234abcd")); !ok || got != 0 {
		t.Fatalf("lookup = %d %v, want 0", got, ok)
	}
}
