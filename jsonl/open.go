package jsonl

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/klauspost/compress/zstd"
)

// Compression names how a session file is compressed.
type Compression int

// The compressions pitool reads and writes.
const (
	Plain Compression = iota
	Gzip
	Zstd
)

// String names the compression.
func (c Compression) String() string {
	return [...]string{"plain", "gzip", "zstd"}[c]
}

var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// StdinName is the file name that stands for standard input or output.
const StdinName = "-"

// Source is an opened session file: its decompressed byte stream, plus random
// access when the file is plain (or has been spooled to a temporary file).
type Source struct {
	Name        string      // as given by the user
	Compression Compression // detected from the magic bytes
	Size        int64       // size on disk, -1 for standard input
	// Info is what the opened file was (fstat of its descriptor), nil for
	// standard input and sections: a writer that must change the very file
	// that was read compares it with what it finds at the name.
	Info os.FileInfo

	at     io.ReaderAt // a plain file's bytes, read in place
	spool  *os.File    // temporary decompressed copy, removed on Close
	reader io.Reader
	closer io.Closer
	torn   bool // the compressed stream ended early
}

// Truncated reports whether the compressed stream ended early, as a crash
// while it was written leaves it: the stream read so far gave every byte
// the decompressor could recover (what gzip -dc prints) and then ended as
// if the file ended there. It is known once Reader or ReaderAt has been
// called, since both inflate the whole stream to the spool first.
func (s *Source) Truncated() bool { return s.torn }

// Open opens a session file by name, "-" meaning stdin. Compression is detected
// by magic bytes, never by the file name.
func Open(name string, stdin io.Reader) (*Source, error) {
	if name == StdinName {
		return newSource(name, io.NopCloser(stdin), -1)
	}
	f, info, err := openFile(name)
	if err != nil {
		return nil, err
	}
	s, err := newSource(name, f, info.Size())
	if err != nil {
		f.Close()
		return nil, err
	}
	s.Info = info
	if s.Compression == Plain {
		s.at = f
	}
	return s, nil
}

// openFile opens name for reading without waiting (a FIFO swapped in for a
// file since a folder was searched would block an open for ever) and checks
// what it opened: a folder is an error; a FIFO, device or socket is not a
// session (*NotSessionError), unless name is a descriptor path the user
// passed (process substitution), which is then read as it comes (the
// runtime's poller waits for its writer).
func openFile(name string) (*os.File, os.FileInfo, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	switch {
	case err != nil:
	case info.IsDir():
		err = &PosError{File: name, Err: fmt.Errorf("is a directory")}
	case !info.Mode().IsRegular() && !IsDescriptorPath(name):
		err = notRegular(name, info.Mode())
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, info, nil
}

// OpenSection opens the bytes of r as the session file name: an in-place
// edit reads the bytes it stamped this way, not what has been appended to
// the file since. Closing the Source leaves r's file open.
func OpenSection(name string, r *io.SectionReader) (*Source, error) {
	s, err := newSource(name, io.NopCloser(io.NewSectionReader(r, 0, r.Size())), r.Size())
	if err != nil {
		return nil, err
	}
	if s.Compression == Plain {
		s.at = r
	}
	return s, nil
}

func newSource(name string, rc io.ReadCloser, size int64) (*Source, error) {
	counted := &countingReader{r: rc}
	br := bufio.NewReaderSize(counted, sourceBuffer(size))
	magic, _ := br.Peek(4)
	s := &Source{Name: name, Size: size, closer: rc, reader: br}
	switch {
	case bytes.HasPrefix(magic, gzipMagic):
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, &PosError{File: name, Err: fmt.Errorf("%w: gzip header at byte %d: %w", ErrDecompress, counted.n-int64(br.Buffered()), err)}
		}
		s.Compression, s.reader = Gzip, zr
	case bytes.HasPrefix(magic, zstdMagic):
		zr, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(maxZstdWindow))
		if err != nil {
			return nil, &PosError{File: name, Err: fmt.Errorf("%w: zstd header at byte %d: %w", ErrDecompress, counted.n-int64(br.Buffered()), err)}
		}
		s.Compression, s.reader = Zstd, zr.IOReadCloser()
	}
	if s.Compression != Plain {
		s.reader = &inflated{src: s, r: s.reader, limit: decompressLimit(size), compressed: counted}
	}
	return s, nil
}

// sourceBufferBytes is the read buffer of a source; a file of known size
// smaller than that gets one of its size (a 64 KB buffer for each opening of
// a 400-byte session was a good part of nightly's work over 10,000 of them,
// issue 28).
const sourceBufferBytes = 64 << 10

func sourceBuffer(size int64) int {
	if size >= 0 && size < sourceBufferBytes {
		return int(size) + 1 // bufio takes at least 16
	}
	return sourceBufferBytes
}

// Reader returns the decompressed byte stream from its start. It may be called
// once, before any call to ReaderAt. A compressed stream is first inflated
// to its spool (see ReaderAt), so that a decompression bomb is refused
// before anything is read from it, and Truncated is known from the start.
func (s *Source) Reader() io.Reader {
	if s.Compression != Plain && s.spool == nil {
		if _, err := s.ReaderAt(); err != nil {
			return errReader{err}
		}
	}
	return s.reader
}

// errReader is a stream that fails with err.
type errReader struct{ err error }

// Read fails with the stream's error.
func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// ReaderAt gives random access to the decompressed bytes. A plain file is used
// directly; anything else is first spooled to a temporary file, which Close
// removes. It must be called before Reader has been consumed.
func (s *Source) ReaderAt() (io.ReaderAt, error) {
	if s.at != nil {
		return s.at, nil
	}
	if s.spool != nil {
		return s.spool, nil
	}
	tmp, err := os.CreateTemp("", "pitool-spool-*.jsonl")
	if err != nil {
		return nil, fmt.Errorf("spool %s: %w", s.Name, err)
	}
	os.Remove(tmp.Name()) // the open handle keeps the data until Close
	if _, err := io.Copy(tmp, s.reader); err != nil {
		tmp.Close()
		return nil, spoolError(s.Name, err)
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		tmp.Close()
		return nil, err
	}
	s.spool = tmp
	s.reader = bufio.NewReaderSize(tmp, 64<<10)
	return tmp, nil
}

// spoolError names what went wrong while a compressed stream was copied
// to its temporary file.
func spoolError(name string, err error) error {
	var pe *PosError
	if errors.As(err, &pe) {
		return err
	}
	return &PosError{File: name, Err: fmt.Errorf("%w: %w", ErrDecompress, err)}
}

// ErrDecompress marks a compressed stream that cannot be decompressed (a
// corrupt .gz or .zst): the file cannot be read, which is not the same as
// not being a session.
var ErrDecompress = errors.New("decompress")

// Close releases the file and any spool.
func (s *Source) Close() error {
	if s.spool != nil {
		s.spool.Close()
	}
	return s.closer.Close()
}
