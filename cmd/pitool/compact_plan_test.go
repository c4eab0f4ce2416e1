package main

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pitool/pitool/jsonl"
)

// TestPlanJSONMatchesPiRefGoldens runs `pitool compact --plan --json` on the
// v3 corpus and the generated sessions and compares each object, without the
// keys pitool adds (file, status, due, reason, request, requestProblems), with the pi-ref prepare
// goldens committed in compactor/testdata/prepare.
func TestPlanJSONMatchesPiRefGoldens(t *testing.T) {
	goldens := filepath.Join("..", "..", "compactor", "testdata")
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "corpus", "v3", "*.jsonl"))
	gen, _ := filepath.Glob(filepath.Join(goldens, "gen", "*.jsonl"))
	for _, keep := range []string{"500", "2000", "20000"} {
		code, out, errOut := runPitool(context.Background(), append([]string{"compact", "--plan", "--json", "--keep-recent-tokens", keep}, append(files, gen...)...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		sc := bufio.NewScanner(strings.NewReader(out))
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			obj, err := jsonl.ParseObject(sc.Bytes())
			if err != nil || obj.Has("totals") {
				continue
			}
			name := strings.TrimSuffix(filepath.Base(obj.String("file")), ".jsonl")
			want, err := os.ReadFile(filepath.Join(goldens, "prepare", name+".k"+keep+".json"))
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{"file", "status", "due", "reason", "request", "requestProblems"} {
				obj.Delete(k)
			}
			got := obj.AppendJSON(nil)
			if !obj.Has("firstKeptEntryId") { // no preparation: pi-ref prints null
				got = []byte("null")
			}
			if !bytes.Equal(got, bytes.TrimSpace(want)) {
				t.Errorf("%s k=%s: pitool compact --plan --json differs from pi-ref prepare", name, keep)
			}
		}
	}
}
