package sessionfiles

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// direntBuf is the size of the buffer a folder's entries are read into:
// a folder of a few hundred sessions in one getdents call.
const direntBuf = 32 << 10

// The fields of a struct linux_dirent64 the walk reads.
var (
	direntIno    = unsafe.Offsetof(unix.Dirent{}.Ino)
	direntReclen = unsafe.Offsetof(unix.Dirent{}.Reclen)
	direntType   = unsafe.Offsetof(unix.Dirent{}.Type)
	direntName   = unsafe.Offsetof(unix.Dirent{}.Name)
)

// list returns the folder's entries sorted by name, as os.ReadDir does,
// read through its handle into l's buffers (kept for the next folder), with
// the paths of all of them in one string rather than an allocation per
// entry.
func (f *folder) list(l *dirents) ([]entry, error) {
	l.reset(f.path)
	for {
		n, err := unix.Getdents(f.fd, l.buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "readdirent", Path: f.path, Err: err}
		}
		if n <= 0 {
			break
		}
		if err := l.parse(l.buf[:n], f.path); err != nil {
			return nil, err
		}
	}
	out, err := f.entries(l)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b entry) int { return strings.Compare(a.name, b.name) })
	return out, nil
}

// dirents are the buffers a folder is read into, kept from folder to
// folder: its dirent records (buf), and of each entry, the path (prefix and
// its name, one after another in paths), its end in ends and its dirent
// type in types.
type dirents struct {
	buf    []byte
	prefix []byte // the folder's path and a separator
	paths  []byte
	ends   []int
	types  []uint8
}

// reset empties l for folder path.
func (l *dirents) reset(path string) {
	if l.buf == nil {
		l.buf = make([]byte, direntBuf)
	}
	l.prefix = append(l.prefix[:0], path...)
	if !strings.HasSuffix(path, string(filepath.Separator)) {
		l.prefix = append(l.prefix, filepath.Separator)
	}
	l.paths, l.ends, l.types = l.paths[:0], l.ends[:0], l.types[:0]
}

// parse adds the dirent records in b, read from folder path.
func (l *dirents) parse(b []byte, path string) error {
	for len(b) > int(direntName) {
		reclen := int(binary.NativeEndian.Uint16(b[direntReclen:]))
		if reclen <= int(direntName) || reclen > len(b) {
			return &fs.PathError{Op: "readdirent", Path: path, Err: unix.EINVAL}
		}
		rec := b[:reclen]
		b = b[reclen:]
		name := rec[direntName:]
		if i := bytes.IndexByte(name, 0); i >= 0 {
			name = name[:i]
		}
		if binary.NativeEndian.Uint64(rec[direntIno:]) == 0 || string(name) == "." || string(name) == ".." {
			continue
		}
		l.paths = append(append(l.paths, l.prefix...), name...)
		l.ends = append(l.ends, len(l.paths))
		l.types = append(l.types, rec[direntType])
	}
	return nil
}

// entries makes the entries of the records l, their paths slices of one
// string; an entry gone since the listing (asked for its type) is passed
// over, as os.ReadDir does.
func (f *folder) entries(l *dirents) ([]entry, error) {
	paths := string(l.paths)
	out := make([]entry, 0, len(l.ends))
	start := 0
	for i, end := range l.ends {
		path := paths[start:end]
		start = end
		e := entry{path: path, name: path[len(l.prefix):]}
		var err error
		if e.mode, err = f.typeOf(l.types[i], e.name); errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// typeOf is the type of an entry from its dirent type; a filesystem that
// does not say is asked with an lstat, as os.ReadDir does.
func (f *folder) typeOf(t uint8, name string) (fs.FileMode, error) {
	switch t {
	case unix.DT_REG:
		return 0, nil
	case unix.DT_DIR:
		return fs.ModeDir, nil
	case unix.DT_LNK:
		return fs.ModeSymlink, nil
	case unix.DT_FIFO:
		return fs.ModeNamedPipe, nil
	case unix.DT_SOCK:
		return fs.ModeSocket, nil
	case unix.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice, nil
	case unix.DT_BLK:
		return fs.ModeDevice, nil
	}
	info := &statInfo{name: name}
	if err := unix.Fstatat(f.fd, name, &info.st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return 0, &fs.PathError{Op: "lstat", Path: f.path + "/" + name, Err: err}
	}
	return info.Mode().Type(), nil
}
