package jsonout

import (
	"bytes"
	"testing"
)

func TestMarshalWritesLikeJSONStringify(t *testing.T) {
	got, err := Marshal(map[string]any{"a": "<b> & é", "n": 1.5})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"a":"<b> & é","n":1.5}`; string(got) != want {
		t.Errorf("Marshal = %s, want %s", got, want)
	}
}

func TestWriteEndsTheLine(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, []string{"<x>"}); err != nil {
		t.Fatal(err)
	}
	if want := "[\"<x>\"]\n"; b.String() != want {
		t.Errorf("Write = %q, want %q", b.String(), want)
	}
}

func TestMarshalRefusesWhatJSONCannotHold(t *testing.T) {
	if _, err := Marshal(make(chan int)); err == nil {
		t.Error("Marshal(chan) succeeded")
	}
}

// TestMarshalArrayIsMarshal: the two halves join into the bytes of the
// array encoded whole, for every length up to a few.
func TestMarshalArrayIsMarshal(t *testing.T) {
	var rows []any
	for n := range 6 {
		whole, err := Marshal(rows)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := MarshalArray(rows); err != nil || !bytes.Equal(got, whole) {
			t.Errorf("%d rows: %s, %v; want %s", n, got, err, whole)
		}
		rows = append(rows, map[string]any{"i": n, "s": "<&>"})
	}
}
