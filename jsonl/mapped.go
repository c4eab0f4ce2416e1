package jsonl

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
)

// mapMinBytes is the smallest file the sequential index pass maps into
// memory instead of reading: below it the mapping is not worth its cost.
const mapMinBytes = 1 << 20

// releaseBytes is how much of a mapped file is read before the pages behind
// the cursor are dropped again, which bounds what the mapping adds to the
// resident set (a variable so that tests can drop pages often).
var releaseBytes = 16 << 20

// mapping is a file mapped read-only for one sequential pass, or a buffer
// already in memory, read in place the same way. Mapped pages cost no copy
// (a read copies every byte out of the page cache, about a sixth of the
// one-core index pass), and those already read are dropped as the pass
// moves on.
type mapping struct {
	data     []byte
	file     bool // data maps a file: pages behind the cursor may be dropped
	released int  // pages before this offset have been dropped
}

// mapForScan maps ra for a sequential pass when it is a file of at least
// mapMinBytes that can be mapped; ok is false otherwise, and the caller reads.
func mapForScan(ra io.ReaderAt) (m *mapping, ok bool) {
	f, isFile := ra.(*os.File)
	if !isFile {
		return nil, false
	}
	info, err := f.Stat()
	if err != nil || info.Size() < mapMinBytes || int64(int(info.Size())) != info.Size() {
		return nil, false
	}
	data, err := mapFile(f, int(info.Size()))
	if err != nil {
		return nil, false
	}
	return &mapping{data: data, file: true}, true
}

// release drops the pages before offset from the resident set, once at least
// releaseBytes have been read since the last time.
func (m *mapping) release(offset int) {
	if !m.file {
		return
	}
	end := offset &^ (os.Getpagesize() - 1)
	if end-m.released >= releaseBytes {
		dropPages(m.data[m.released:end])
		m.released = end
	}
}

// close unmaps the file.
func (m *mapping) close() { unmapFile(m.data) }

// faultToError, deferred by a function that reads a mapped file with
// debug.SetPanicOnFault on, turns the fault of a file truncated under the
// mapping into an error naming file; any other panic goes on.
func faultToError(file string, err *error) {
	r := recover()
	if r == nil {
		return
	}
	if _, fault := r.(interface{ Addr() uintptr }); !fault {
		panic(r)
	}
	*err = &PosError{File: file, Err: fmt.Errorf("the file changed while it was read: %v", r)}
}

// scanMapped indexes a mapped file. A file truncated while it is mapped
// makes the next access fault; the fault becomes an error instead of a crash.
func (ix *Index) scanMapped(m *mapping) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer faultToError(ix.Name, &err)
	return ix.scan(&Scanner{name: ix.Name, mapped: m, max: MaxLineBytes})
}
