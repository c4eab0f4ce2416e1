package main

import (
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/pitool/pitool/internal/testref"
)

// TestContextInvalidUTF8: pitool context of a session whose messages hold
// bytes that are not UTF-8 equals pi-ref context. Pi reads the file with
// Node's decoder, one U+FFFD per maximal subpart ("\xE2\x82" is one, a
// surrogate in UTF-8 is three), and so does pitool.
func TestContextInvalidUTF8(t *testing.T) {
	path := filepath.Join(testref.RepoRoot(), "testdata", "handmade", "invalid-utf8.jsonl")
	want := testref.Golden(t, golden("handmade-invalid-utf8.context.json"), "context", path)
	got := pitoolOut(t, "context", path)
	if !utf8.Valid(got) {
		t.Fatalf("context is not UTF-8: %q", got)
	}
	testref.AssertJSONEqual(t, "context", got, want)
}
