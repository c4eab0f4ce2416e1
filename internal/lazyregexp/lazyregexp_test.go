package lazyregexp

import (
	"reflect"
	"regexp"
	"testing"
)

// TestCompiledOnFirstUse: a Regexp made outside a test binary compiles on
// its first use, once, and answers as regexp does.
func TestCompiledOnFirstUse(t *testing.T) {
	const expr = `a(b+)c`
	r := &Regexp{str: expr} // what New makes outside tests
	if r.rx != nil {
		t.Fatal("compiled before use")
	}
	if !r.MatchString("xabbc") {
		t.Error("MatchString: no match")
	}
	first := r.rx
	if first == nil {
		t.Fatal("not compiled by its first use")
	}
	want := regexp.MustCompile(expr)
	if got := r.FindString("xabbcabc"); got != want.FindString("xabbcabc") {
		t.Errorf("FindString: %q", got)
	}
	if got := r.FindStringIndex("xabc"); !reflect.DeepEqual(got, want.FindStringIndex("xabc")) {
		t.Errorf("FindStringIndex: %v", got)
	}
	if got := r.FindSubmatchIndex([]byte("xabbc")); !reflect.DeepEqual(got, want.FindSubmatchIndex([]byte("xabbc"))) {
		t.Errorf("FindSubmatchIndex: %v", got)
	}
	if got := r.FindStringSubmatch("xabbc"); !reflect.DeepEqual(got, []string{"abbc", "bb"}) {
		t.Errorf("FindStringSubmatch: %q", got)
	}
	if got := r.Split("1abc2abbc3", -1); !reflect.DeepEqual(got, []string{"1", "2", "3"}) {
		t.Errorf("Split: %q", got)
	}
	if !r.Match([]byte("abc")) || r.Match([]byte("ac")) {
		t.Error("Match")
	}
	if got := string(r.ReplaceAll([]byte("abbc!"), []byte("<$1>"))); got != "<bb>!" {
		t.Errorf("ReplaceAll: %q", got)
	}
	if r.Regexp() != first || r.String() != expr {
		t.Error("compiled twice, or the source text lost")
	}
}

// TestNewCompilesInTests: in a test binary New compiles at once, so that a
// bad pattern fails the copies' tests as it failed upstream's start.
func TestNewCompilesInTests(t *testing.T) {
	if r := New(`x+`); r.rx == nil {
		t.Error("New did not compile in a test binary")
	}
	defer func() {
		if recover() == nil {
			t.Error("a bad pattern did not panic in New")
		}
	}()
	New(`(`)
}
