package exporter

import (
	"context"
	"io"

	"github.com/pitool/pitool/jsonl"
)

// ExportMarkdown writes readable Markdown of one branch.
func ExportMarkdown(ctx context.Context, w io.Writer, ix *jsonl.Index, opts HTMLOptions) error {
	return nil
}
