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
