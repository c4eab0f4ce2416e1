package jsonl

import "testing"

// TestWholeNumber reads whole numbers written as numbers or numeric strings,
// and nothing else.
func TestWholeNumber(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want int64
		ok   bool
	}{
		{`42`, 42, true}, {`-7`, -7, true}, {`"120"`, 120, true}, {`" 5 "`, 5, true}, {`"\u0031"`, 1, true},
		{``, 0, false}, {`null`, 0, false}, {`1.5`, 0, false}, {`1e3`, 0, false}, {`"x"`, 0, false}, {`true`, 0, false},
	} {
		got, ok := WholeNumber(RawMessage(c.raw))
		if got != c.want || ok != c.ok {
			t.Errorf("WholeNumber(%s) = %d, %v; want %d, %v", c.raw, got, ok, c.want, c.ok)
		}
	}
}
