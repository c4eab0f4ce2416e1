//go:build unix

package sessionfiles

import (
	"io/fs"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// folder is a folder the walk holds open: its files are stat'ed through
// its handle, so that the kernel looks up one name per file rather than
// every folder of its path again (issue 28: a tenth of nightly's second run
// over 10,000 files went to those lookups).
type folder struct {
	fd   int
	path string
}

// openFolder opens the folder at path, following a symlink. O_DIRECTORY
// refuses anything else before it is opened, so a FIFO never blocks it.
func openFolder(path string) (*folder, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return &folder{fd: fd, path: path}, nil
}

// openChild opens the folder f lists as d, through f's handle and
// without following a symlink: errIsLink when name is one now.
func (f *folder) openChild(d entry) (*folder, error) {
	path, name := d.path, d.name
	fd, err := unix.Openat(f.fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC|unix.O_NONBLOCK|unix.O_NOFOLLOW, 0)
	if (err == unix.ELOOP || err == unix.ENOTDIR) && f.isLink(name) {
		return nil, errIsLink
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return &folder{fd: fd, path: path}, nil
}

// isLink reports whether f's entry name is a symlink.
func (f *folder) isLink(name string) bool {
	var st unix.Stat_t
	return unix.Fstatat(f.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK
}

func (f *folder) close() { unix.Close(f.fd) }

// key is the folder's device and inode.
func (f *folder) key() (fileKey, bool, error) {
	var st unix.Stat_t
	if err := unix.Fstat(f.fd, &st); err != nil {
		return fileKey{}, false, &fs.PathError{Op: "stat", Path: f.path, Err: err}
	}
	return keyOfStat(&st), true, nil
}

// stat stats the folder's entry name, following a symlink as reading it does.
func (f *folder) stat(name string) (fs.FileInfo, error) {
	info := &statInfo{name: name}
	if err := unix.Fstatat(f.fd, name, &info.st, 0); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: filepath.Join(f.path, name), Err: err}
	}
	return info, nil
}

// statPath stats path, following a symlink.
func statPath(path string) (fs.FileInfo, error) {
	info := &statInfo{name: filepath.Base(path)}
	if err := unix.Stat(path, &info.st); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	return info, nil
}

// statInfo is a stat the walk took; Sys returns its *unix.Stat_t.
type statInfo struct {
	name string
	st   unix.Stat_t
}

func (s *statInfo) Name() string       { return s.name }
func (s *statInfo) Size() int64        { return s.st.Size }
func (s *statInfo) ModTime() time.Time { return time.Unix(s.st.Mtim.Unix()) }
func (s *statInfo) IsDir() bool        { return s.Mode().IsDir() }
func (s *statInfo) Sys() any           { return &s.st }

// Mode is the stat's type and permissions as os.Stat gives them.
func (s *statInfo) Mode() fs.FileMode {
	m := fs.FileMode(s.st.Mode & 0o777)
	switch s.st.Mode & unix.S_IFMT {
	case unix.S_IFBLK:
		m |= fs.ModeDevice
	case unix.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFDIR:
		m |= fs.ModeDir
	case unix.S_IFIFO:
		m |= fs.ModeNamedPipe
	case unix.S_IFLNK:
		m |= fs.ModeSymlink
	case unix.S_IFSOCK:
		m |= fs.ModeSocket
	}
	if s.st.Mode&unix.S_ISGID != 0 {
		m |= fs.ModeSetgid
	}
	if s.st.Mode&unix.S_ISUID != 0 {
		m |= fs.ModeSetuid
	}
	if s.st.Mode&unix.S_ISVTX != 0 {
		m |= fs.ModeSticky
	}
	return m
}

// statEach stats, through the folder's handle, each regular file of
// entries whose name matches, into one allocation for the folder: it
// returns the entries with those gone since the listing dropped, and per
// entry its stat or nil. The first other failure ends it: at is that
// entry's index (else -1), err the failure.
func (f *folder) statEach(entries []entry, match func(string) bool) (kept []entry, infos []fs.FileInfo, at int, err error) {
	n := 0
	for _, d := range entries {
		if d.mode.IsRegular() && match(d.name) {
			n++
		}
	}
	if n == 0 {
		return entries, nil, -1, nil
	}
	stats := make([]statInfo, n)
	infos = make([]fs.FileInfo, len(entries))
	kept = entries[:0]
	for j, d := range entries {
		if !d.mode.IsRegular() || !match(d.name) {
			kept = append(kept, d)
			continue
		}
		info := &stats[0]
		stats = stats[1:]
		info.name = d.name
		switch err := unix.Fstatat(f.fd, d.name, &info.st, 0); {
		case err == unix.ENOENT:
			continue // gone since the listing, as a file gone before it
		case err != nil:
			at = len(kept)
			return append(kept, entries[j:]...), infos, at, &fs.PathError{Op: "stat", Path: d.path, Err: err}
		}
		infos[len(kept)] = info
		kept = append(kept, d)
	}
	return kept, infos[:len(kept)], -1, nil
}
