package jsonl

import (
	"fmt"
	"math/rand"
	"testing"
)

// TestIDTableMatchesMap adds ids (some repeated) to an idTable, looking some
// up as it goes, and checks every answer against a map where the later entry
// wins: across batches, growth, and lookups of ids still waiting to be placed.
func TestIDTableMatchesMap(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	for _, distinct := range []int{3, 300, 30000, 0} { // 0: every id new
		table, want := newIDTable(), map[string]int32{}
		dup := false
		for e := int32(0); e < 50000; e++ {
			id := fmt.Sprintf("u%d", e)
			if distinct > 0 {
				id = fmt.Sprintf("%x", r.Intn(distinct))
			}
			if _, seen := want[id]; seen {
				dup = true
			}
			table.add([]byte(id), false)
			want[id] = e
			if r.Intn(50) == 0 {
				probe := fmt.Sprintf("%x", r.Intn(2*distinct+1))
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
