package jsonl

import (
	"io"
	"os"
	"syscall"
	"time"
)

// listedFile is a file opened for listing with one open and one fstat
// (on Linux; other systems open it with os.Open).
// os.Open would also register the descriptor with the runtime's poller
// (four fcntl calls and a failing epoll_ctl for a regular file), which
// with a second fstat was a tenth of the CPU of listing 10,000 tiny
// sessions; a listed file is read in a few plain reads, so the poller has
// nothing to do.
type listedFile struct {
	fd      int
	path    string
	size    int64
	modTime time.Time
	isDir   bool
}

// openListed opens path for reading, without waiting (see openFile), and
// stats it; a FIFO, device or socket is refused as not a session.
func openListed(path string) (*listedFile, error) {
	fd, err := retryEINTR(func() (int, error) {
		return syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	})
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		syscall.Close(fd)
		return nil, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	if mode := fileMode(st.Mode); mode&(os.ModeNamedPipe|os.ModeSocket|os.ModeDevice) != 0 {
		syscall.Close(fd)
		return nil, notRegular(path, mode)
	}
	return &listedFile{
		fd: fd, path: path, size: st.Size,
		modTime: time.Unix(int64(st.Mtim.Sec), int64(st.Mtim.Nsec)),
		isDir:   st.Mode&syscall.S_IFMT == syscall.S_IFDIR,
	}, nil
}

// Read reads from the file as os.File.Read does: io.EOF at its end.
func (f *listedFile) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	n, err := retryEINTR(func() (int, error) { return syscall.Read(f.fd, b) })
	switch {
	case err != nil:
		return 0, &os.PathError{Op: "read", Path: f.path, Err: err}
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// Close closes the file.
func (f *listedFile) Close() error {
	return syscall.Close(f.fd)
}

// retryEINTR calls a system call until a signal does not interrupt it.
func retryEINTR(call func() (int, error)) (int, error) {
	for {
		n, err := call()
		if err != syscall.EINTR {
			return n, err
		}
	}
}

// fileMode is the type bits of a stat mode as an os.FileMode.
func fileMode(m uint32) os.FileMode {
	switch m & syscall.S_IFMT {
	case syscall.S_IFIFO:
		return os.ModeNamedPipe
	case syscall.S_IFSOCK:
		return os.ModeSocket
	case syscall.S_IFCHR:
		return os.ModeDevice | os.ModeCharDevice
	case syscall.S_IFBLK:
		return os.ModeDevice
	case syscall.S_IFDIR:
		return os.ModeDir
	}
	return 0
}
