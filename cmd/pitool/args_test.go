package main

import (
	"strings"
	"testing"
)

func TestFlagsFirst(t *testing.T) {
	app := newApp(&env{})
	cases := map[string]string{
		"pitool context FILE --view llm":               "pitool context --view llm FILE",
		"pitool context --leaf X FILE":                 "pitool context --leaf X FILE",
		"pitool tree FILE --json":                      "pitool tree --json FILE",
		"pitool context - --view=provider":             "pitool context --view=provider -",
		"pitool context FILE -- --view":                "pitool context FILE -- --view",
		"pitool info A --json B":                       "pitool info --json A B",
		"pitool nosuch FILE --x":                       "pitool nosuch FILE --x",
		"pitool export html FILE -o OUT --no-thinking": "pitool export html -o OUT --no-thinking FILE",
	}
	for in, want := range cases {
		if got := strings.Join(flagsFirst(app, strings.Fields(in)), " "); got != want {
			t.Errorf("flagsFirst(%q) = %q, want %q", in, got, want)
		}
	}
}
