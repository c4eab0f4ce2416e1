package jsonl

import (
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
)

func TestZZProfile(t *testing.T) {
	name := os.Getenv("PROF_FILE")
	if name == "" {
		t.Skip()
	}
	ix, closeFn, err := IndexFile(name, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	sel, err := ix.Select(ix.ActiveLeaf())
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.WriteView(io.Discard, ix.ActiveLeaf(), ViewContext); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	f, _ := os.Create(os.Getenv("PROF_OUT"))
	pprof.Lookup("heap").WriteTo(f, 0)
	f.Close()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("entries %d heap %d (%.1f B/entry) %s", ix.Len(), ms.HeapAlloc, float64(ms.HeapAlloc)/float64(ix.Len()), ix.memoryParts())
	runtime.KeepAlive(sel)
	runtime.KeepAlive(ix)
}
