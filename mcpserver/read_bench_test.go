package mcpserver

import (
	"context"
	"testing"

	"github.com/pitool/pitool/internal/testref"
	"github.com/pitool/pitool/jsonl"
	"github.com/pitool/pitool/redact"
)

// BenchmarkRender renders the secrets session's transcript whole, redacted
// entry by entry: what a read_session page costs at the end of a session.
func BenchmarkRender(b *testing.B) {
	r, err := redact.New(redact.Options{})
	if err != nil {
		b.Fatal(err)
	}
	s := &server{opts: Options{Render: RenderPlain}, redactr: r}
	ix, closeIx, err := jsonl.IndexFile(testref.Corpus("secrets/session.jsonl"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer closeIx()
	b.ReportAllocs()
	for b.Loop() {
		w, err := s.render(context.Background(), ix, "", &window{}, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(w.pos)
	}
}
