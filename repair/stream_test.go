package repair_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/pitool/pitool/repair"
)

// TestStreamMatchesReadBack: validating a stream that cannot be read again
// (objects compared by hash, tool texts kept from the scan) finds what
// validating a file does (objects and tool texts read back), the request
// check aside, which needs the file. Every code sample and corpus file.
func TestStreamMatchesReadBack(t *testing.T) {
	inputs := map[string][]byte{}
	for code, sample := range codeSamples {
		inputs["sample "+code] = []byte(sample)
	}
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "corpus", "*", "*.jsonl"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		inputs[name] = b
	}
	names := make([]string, 0, len(inputs))
	for name := range inputs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		in := inputs[name]
		opts := repair.ValidateOptions{MaxPerCode: -1}
		file, err := repair.Validate(context.Background(), bytes.NewReader(in), "s.jsonl", opts)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		stream, err := repair.Validate(context.Background(), struct{ io.Reader }{bytes.NewReader(in)}, "s.jsonl", opts)
		if err != nil {
			t.Fatalf("%s: stream: %v", name, err)
		}
		if got, want := withoutRequests(stream.Findings), withoutRequests(file.Findings); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the stream finds\n%+v\nthe file\n%+v", name, got, want)
		}
	}
}

func withoutRequests(fs []repair.Finding) []repair.Finding {
	var out []repair.Finding
	for _, f := range fs {
		if !strings.HasPrefix(f.Code, "request.") {
			out = append(out, f)
		}
	}
	return out
}
