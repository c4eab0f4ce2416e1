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
// read through its handle into buf (kept for the next folder) rather than
// an allocation per entry.
func (f *folder) list(buf *[]byte) ([]entry, error) {
	if *buf == nil {
		*buf = make([]byte, direntBuf)
	}
	var out []entry
	for {
		n, err := unix.Getdents(f.fd, *buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "readdirent", Path: f.path, Err: err}
		}
		if n <= 0 {
			break
		}
		if out, err = f.parse((*buf)[:n], out); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(out, func(a, b entry) int { return strings.Compare(a.name, b.name) })
	return out, nil
}

// parse appends the entries of the dirent records in b to out.
func (f *folder) parse(b []byte, out []entry) ([]entry, error) {
	// each entry's path is made in buf, then copied once into its string
	buf := append(make([]byte, 0, 512), f.path...)
	if !strings.HasSuffix(f.path, string(filepath.Separator)) {
		buf = append(buf, filepath.Separator)
	}
	dir := len(buf)
	for len(b) > int(direntName) {
		reclen := int(binary.NativeEndian.Uint16(b[direntReclen:]))
		if reclen <= int(direntName) || reclen > len(b) {
			return nil, &fs.PathError{Op: "readdirent", Path: f.path, Err: unix.EINVAL}
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
		buf = append(buf[:dir], name...)
		path := string(buf) // the name is its end, as in newEntry
		e := entry{path: path, name: path[dir:]}
		var err error
		if e.mode, err = f.typeOf(rec[direntType], e.name); errors.Is(err, fs.ErrNotExist) {
			continue // gone since the listing: os.ReadDir passes over it too
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
