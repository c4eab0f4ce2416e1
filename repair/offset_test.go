package repair_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/pitool/pitool/repair"
)

// TestFindingOffsetsAreInTheFile: a finding on a line with invalid UTF-8 or
// NUL bytes points at the bytes of the file, not at the line as repair
// normalises it (U+FFFD is 3 bytes, a NUL is dropped). Found by FuzzValidate.
func TestFindingOffsetsAreInTheFile(t *testing.T) {
	head := "{\"type\":\"session\",\"version\":3,\"id\":\"s\",\"timestamp\":\"2026-01-01T00:00:00.000Z\",\"cwd\":\"/\"}\n"
	for _, c := range []struct {
		name, line, at string
	}{
		{"invalid UTF-8 before the garbage", "{\"\xec\":0}0", "0"},
		{"a truncated sequence before it", "{\"a\xe2\x82\":0}zz", "zz"},
		{"NULs before it", "{\"a\":0}\x00\x00\x00junk", "junk"},
		{"both", "{\"\xff\x00\":0}\x00junk", "junk"},
	} {
		in := head + c.line + "\n"
		rep, err := repair.Validate(context.Background(), bytes.NewReader([]byte(in)), "f.jsonl", repair.ValidateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := int64(len(head) + bytes.LastIndex([]byte(c.line), []byte(c.at)))
		found := false
		for _, f := range rep.Findings {
			if f.Code == "line.garbage" {
				found = true
				if f.Offset != want {
					t.Errorf("%s: garbage at offset %d, want %d (%q)", c.name, f.Offset, want, in[f.Offset:])
				}
			}
		}
		if !found {
			t.Errorf("%s: no line.garbage finding in %+v", c.name, rep.Findings)
		}
	}
}
