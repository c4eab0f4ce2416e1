package main

import "testing"

func TestSearchCopiesNote(t *testing.T) {
	for _, c := range []struct {
		copies []string
		want   string
	}{
		{nil, ""},
		{[]string{"a.jsonl"}, "  (also in 1 copy: a.jsonl)"},
		{[]string{"a", "b", "c"}, "  (also in 3 copies: a, b, c)"},
		{[]string{"a", "b", "c", "d", "e", "f", "g"}, "  (also in 7 copies: a, b, c, d, e and 2 more)"},
		{[]string{"x\ny"}, "  (also in 1 copy: x⏎y)"},
	} {
		if got := copiesNote(c.copies); got != c.want {
			t.Errorf("copiesNote(%q) = %q, want %q", c.copies, got, c.want)
		}
	}
}
