// Package bench holds the benchmarks that cross packages and the synthetic
// session files they run on; bench/gen writes the sessions.
package bench

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/pitool/pitool/bench/gen"
	"github.com/pitool/pitool/internal/safefile"
)

// CacheDir is where generated benchmark sessions are kept between runs:
// $PITOOL_BENCH_DIR, or pitool-bench in the temporary folder.
func CacheDir() string {
	if d := os.Getenv("PITOOL_BENCH_DIR"); d != "" {
		return d
	}
	return filepath.Join(os.TempDir(), "pitool-bench")
}

// Session returns the path of a generated session, writing it on first use.
// Benchmarks that need one skip under -short.
func Session(tb testing.TB, name string, opts gen.Options) string {
	tb.Helper()
	if testing.Short() {
		tb.Skip("generated benchmark sessions are skipped with -short")
	}
	return cached(tb, name, func(w *bufio.Writer) error {
		_, err := gen.Write(w, opts)
		return err
	})
}

// Chain returns the path of a session that is one chain of n small entries,
// for measuring path walks.
func Chain(tb testing.TB, n int) string {
	tb.Helper()
	return cached(tb, fmt.Sprintf("chain-%d", n), func(w *bufio.Writer) error {
		fmt.Fprintln(w, `{"type":"session","version":3,"id":"chain","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}`)
		for i := 0; i < n; i++ {
			parent := "null"
			if i > 0 {
				parent = fmt.Sprintf(`"%08x"`, i-1)
			}
			fmt.Fprintf(w, `{"type":"custom","customType":"x","id":"%08x","parentId":%s,"timestamp":"2026-01-01T00:00:01.000Z"}`+"\n", i, parent)
		}
		return nil
	})
}

func cached(tb testing.TB, name string, write func(*bufio.Writer) error) string {
	path := filepath.Join(CacheDir(), name+".jsonl")
	if _, err := os.Stat(path); err == nil {
		return path
	}
	if err := os.MkdirAll(CacheDir(), 0o755); err != nil {
		tb.Fatal(err)
	}
	err := safefile.WriteFile(path, safefile.Options{}, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<20)
		if err := write(bw); err != nil {
			return err
		}
		return bw.Flush()
	})
	if err != nil {
		tb.Fatal(err)
	}
	return path
}
