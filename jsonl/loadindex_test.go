package jsonl

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// compareReadWithSkim scans data and, for every line a Reader reads whole
// as one object with white space around it (as validate's model does before
// it calls LoadIndexer.LineRead), checks that the facts taken from that read
// are the facts of the line skimmed alone, on every path of the string map.
// It returns how many lines it compared.
func compareReadWithSkim(t *testing.T, data []byte) int {
	t.Helper()
	compared := 0
	eachPath(func(path string) {
		var b LoadIndexer
		var r Reader
		sc := NewScanner(bytes.NewReader(data), "s.jsonl")
		for sc.Scan() {
			l := sc.Line()
			at := SkipSpace(l.Bytes, 0)
			if at == len(l.Bytes) || l.Bytes[at] != '{' {
				continue
			}
			if res := r.Read(l.Bytes, at, nil); !res.OK() || SkipSpace(l.Bytes, res.End) != len(l.Bytes) {
				continue
			}
			got, want := readFacts(l, &r, at), b.skimmed(l)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: line %d %q: read gives %+v, the skim %+v", path, l.Num, l.Bytes, got, want)
			}
			compared++
			if n := got.node; n.typ == TypeMessage && n.plain && (n.role == AssistantRole || n.role == ToolResultRole) {
				compareSkeletons(t, path, l, n, &r)
			}
		}
	})
	return compared
}

// compareSkeletons checks that the request skeleton LoadIndexer.LineRead
// keeps of a plain assistant message or tool result, from the Reader's
// fields, is the one the request check reads from the message object
// (Index.withMessage's bytes) when it has none.
func compareSkeletons(t *testing.T, path string, l Line, n node, r *Reader) {
	t.Helper()
	want, err := readSkeleton(l.Bytes[n.msgOff:len(l.Bytes)-1], n.role)
	if err != nil {
		t.Fatalf("%s: line %d %q: the message of a line that parsed does not read: %v", path, l.Num, l.Bytes, err)
	}
	if got := skeletonOfFields(n.role, &r.s.Msg, nil); !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: line %d %q: the read's fields give %+v, the message %+v", path, l.Num, l.Bytes, got, want)
	}
}

// FuzzLineReadMatchesLine: the facts LoadIndexer.LineRead takes from a
// Reader's read of a line are those LoadIndexer.Line (IndexReaderAt's
// skim) finds in it, so validate's one scan builds the index a second scan
// built (issue 28).
func FuzzLineReadMatchesLine(f *testing.F) {
	for _, s := range []string{
		"{\"type\":\"session\",\"version\":3,\"id\":\"s\"}\n  {\"type\":\"message\",\"id\":\"a\",\"parentId\":null,\"message\":{\"role\":\"user\",\"content\":\"hi\"}}  \n",
		"\xef\xbb\xbf{\"type\":\"label\",\"id\":\"\\u0041\",\"targetId\":\"a\",\"label\":\"x\"}\r\n{\"message\":{\"role\":\"assistant\",\"content\":null}}",
		"{\"type\":\"message\",\"id\":\"b\",\"message\":{\"role\":\"assistant\",\"stopReason\":\"error\",\"content\":[{\"type\":\"toolCall\",\"id\":\"c\\u0031\"},{\"type\":\"text\",\"id\":\"x\"},{\"t\\u0079pe\":\"toolCall\"}],\"stopReason\":\"aborted\"}}\n" +
			"{\"type\":\"message\",\"message\":{\"role\":\"toolResult\",\"toolCallId\":\"c1\",\"content\":[]},\"message\":{\"role\":\"toolResult\",\"content\":\"x\"}}\n",
		"\t{\"type\":\"message\",\"id\":1.5e2,\"parentId\":\"\",\"message\":{\"role\":\"toolResult\",\"content\":[]},\"x\":1}\n{\"id\":\"\xff\"}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		compareReadWithSkim(t, data)
	})
}

// TestLineReadMatchesLineOnTestdata holds LineRead to Line on every line
// of the package's and the project's test sessions.
func TestLineReadMatchesLineOnTestdata(t *testing.T) {
	var files []string
	for _, dir := range []string{"testdata", filepath.Join("..", "testdata", "corpus")} {
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && filepath.Ext(p) == ".jsonl" {
				files = append(files, p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	compared := 0
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		compared += compareReadWithSkim(t, data)
	}
	if compared < 1000 {
		t.Fatalf("compared %d lines of %d files, expected the test sessions to hold more", compared, len(files))
	}
	t.Logf("%d lines of %d files", compared, len(files))
}
