package main

import "testing"

func TestMarshalOutputWritesLikeJSONStringify(t *testing.T) {
	got, err := marshalOutput(map[string]any{"a": "<b> & é", "n": 1.5})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"a":"<b> & é","n":1.5}`; string(got) != want {
		t.Errorf("marshalOutput = %s, want %s", got, want)
	}
}
