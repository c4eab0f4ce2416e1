package safefile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// maxRechecks bounds how many times Commit carries appended lines over
// before it gives up on a file that keeps growing.
const maxRechecks = 20

// LineWait is how long Commit waits for a line being appended to be completed.
var LineWait = 2 * time.Second

// afterInstall runs right after the rename; tests use it to append to the
// old file at that moment.
var afterInstall = func() {}

// syncRounds bounds how many times carryAndSync syncs again what was
// appended during the previous sync: a file that never stops growing is
// not refused for it, its last lines are carried after the rename.
const syncRounds = 3

// afterSync runs right after each sync of the temporary file; tests use it
// to append to the old file while the new one is synced.
var afterSync = func() {}

// afterStamp runs right after Begin stamps the file; tests use it to
// append to the file before the stamp is checked.
var afterStamp = func() {}

// beforeOpen runs right before Begin opens the file it resolved; tests use
// it to swap something in for the file at that moment.
var beforeOpen = func(path string) {}

// Edit is an in-place rewrite of one file, from Begin to Close. Its folder
// is opened once, at Begin, and the file once, through it: everything after
// goes through those two descriptors.
type Edit struct {
	Path string // the file rewritten: the named path with symlinks resolved
	dir  *dir   // its folder
	name string // its name in dir
	old  *os.File
	// stamp is the file as Begin saw it, own its owner, group and mode.
	stamp Stamp
	own   owner
	// changed is when the file last changed other than by pitool (see
	// LastChange), recorded in the mark of pitool's write
	changed time.Time
}

// CommitOptions controls Edit.Commit.
type CommitOptions struct {
	Backup     bool        // keep the old file as FILE.bak (a hard link; never overwrites one)
	BackupMode os.FileMode // when not 0, the backup's mode (0600 for plaintext secrets)
	// Carry writes bytes Pi appended meanwhile (whole lines) after the new
	// content; nil copies them verbatim.
	Carry func(w io.Writer, appended []byte) error
}

// Result is what Commit did.
type Result struct {
	Backup  string // where the old file is kept, "" for none
	Carried int64  // bytes appended meanwhile and carried into the new file
}

// Content writes the new content of the file and returns its basis: how many
// bytes of the old file it accounts for, or -1 when bytes appended later
// cannot follow it (compressed output), so that any growth aborts.
type Content func(w io.Writer) (basis int64, err error)

// Begin starts an in-place rewrite of path: it resolves a symlink (see
// WriteFile), removes the stale temporary files of its folder (a killed
// run's, even when this run finds nothing to write), opens the folder and
// then the file in it, takes the file's lock and stamps it. The caller
// reads the file, then calls Commit (or nothing), and always Close.
func Begin(path string) (*Edit, error) {
	target, err := resolve(path)
	if err != nil {
		return nil, err
	}
	return beginAt(path, target)
}

// BeginNoFollow is Begin for a path that must itself be the file: a
// symlink at it is refused with ErrNotRegular, never followed (nightly's
// archive, which would otherwise remove what the link points to).
func BeginNoFollow(path string) (*Edit, error) { return beginAt(path, path) }

// beginAt begins the edit of target (path resolved), whose last component
// is never followed, in a folder confined as path is (ConfineTree).
func beginAt(path, target string) (*Edit, error) {
	CleanFolder(filepath.Dir(target))
	d, err := openDirFor(path, filepath.Dir(target))
	if err != nil {
		return nil, err
	}
	for range 3 {
		e, err := begin(d, filepath.Base(target))
		if e != nil {
			return e, nil
		}
		if err != nil {
			d.Close()
			return nil, err
		}
	}
	d.Close()
	return nil, fmt.Errorf("%s: %w", target, ErrChanged)
}

// begin opens name in d (no symlink, no blocking on a FIFO), locks it and
// stamps it; nil, nil means it was replaced meanwhile. Lines Pi appends
// while the stamp is taken are no reason to try again: they come after the
// stamped bytes, which is what Commit carries.
func begin(d *dir, name string) (*Edit, error) {
	beforeOpen(d.join(name))
	f, err := d.openRegular(name, unix.O_RDONLY)
	if err != nil {
		return nil, err
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, err
	}
	e := &Edit{Path: d.join(name), dir: d, name: name, old: f}
	if err = e.takeStamp(); err == nil {
		afterStamp()
		_, err = e.recheck()
	}
	if err == nil {
		return e, nil
	}
	f.Close()
	if errors.Is(err, ErrChanged) {
		return nil, nil
	}
	return nil, err
}

// takeStamp stamps the open file once its last line is whole (see
// settledInfo) and hashes the ends of the stamped bytes.
func (e *Edit) takeStamp() error {
	info, err := e.settledInfo()
	if err != nil {
		return err
	}
	e.stamp, e.own, e.changed = stampOf(info), ownerOf(info), lastChangeOf(e.old, info)
	e.stamp.ends, err = hashEnds(e.old, e.stamp.Size)
	return err
}

// lineSettle is how long takeStamp waits for the last line of a file
// modified within the last second to be completed. Linux lets a reader see
// an append that crosses a page boundary half done, so a file Pi is
// writing can end in the first half of a line for a moment; the stamp must
// not end there, since what follows it is carried as whole lines. A last
// line that stays incomplete (a crash's) is stamped as it is.
const lineSettle = 50 * time.Millisecond

// settledInfo returns the open file's info once it ends with a newline, is
// empty, was last modified over a second ago, or lineSettle has passed.
func (e *Edit) settledInfo() (os.FileInfo, error) {
	deadline := time.Now().Add(lineSettle)
	for {
		info, err := e.old.Stat()
		if err != nil || info.Size() == 0 || time.Since(info.ModTime()) > time.Second || time.Now().After(deadline) {
			return info, err
		}
		var last [1]byte
		if _, err := e.old.ReadAt(last[:], info.Size()-1); err != nil || last[0] == '\n' {
			return info, err
		}
		time.Sleep(time.Millisecond)
	}
}

// Snapshot returns the bytes of the file Begin stamped, read through the
// descriptor it keeps: what the new content is made from. Bytes appended
// after them are Commit's to carry. Each call returns a new reader.
func (e *Edit) Snapshot() *io.SectionReader { return io.NewSectionReader(e.old, 0, e.stamp.Size) }

// Stamp returns the file's stamp at Begin.
func (e *Edit) Stamp() Stamp { return e.stamp }

// Close releases the lock (closing the old file, which holds it) and the
// folder.
func (e *Edit) Close() error {
	err := e.old.Close()
	e.dir.Close()
	return err
}

// Commit writes the new content to a temporary file, carries over the whole
// lines appended since Begin, and renames it over the file (see the package
// doc). On any error the file is left as it was.
func (e *Edit) Commit(opts CommitOptions, content Content) (res Result, err error) {
	t, err := newTemp(e.dir, e.name)
	if err != nil {
		return res, err
	}
	defer func() {
		if err != nil {
			t.discard()
		}
	}()
	basis, err := e.writeContent(t, content)
	if err != nil {
		return res, err
	}
	pauseForTest()
	end, err := e.carryAndSync(t, basis, opts.Carry)
	if err != nil {
		return res, err
	}
	res.Carried = end - max(basis, 0)
	markOwnWrite(t.f, e.changed)
	bak := ""
	if opts.Backup {
		if bak, err = e.linkBackup(); err != nil {
			return res, err
		}
		res.Backup = e.dir.join(bak)
	}
	if err = e.install(t, bak); err != nil {
		return res, err
	}
	afterInstall()
	if bak != "" && opts.BackupMode != 0 {
		if err = e.old.Chmod(opts.BackupMode); err != nil {
			return res, fmt.Errorf("keep backup %s mode %v: %w", res.Backup, opts.BackupMode, err)
		}
	}
	n, err := e.carryLate(end, t.f, opts)
	res.Carried += n
	if err != nil {
		return res, err
	}
	return res, t.close()
}

// carryAndSync carries the lines appended since the content was written
// and syncs the temporary file, then looks again: lines appended during the
// sync, which takes a while for a large file, are carried and synced too.
// Only the moment between the last look and the rename is left to
// carryLate, which can only put such lines after those Pi has meanwhile
// written to the new file: if Pi then stops, its last line would not be
// the last entry, and resuming would take the older one's branch.
func (e *Edit) carryAndSync(t *temp, basis int64, carry func(io.Writer, []byte) error) (int64, error) {
	end, err := e.carryUntilStable(t.w, basis, carry)
	for round := 0; err == nil; round++ {
		if err = t.sync(); err != nil {
			break
		}
		afterSync()
		if round == syncRounds {
			return end, nil // what comes during this last sync is carryLate's
		}
		var again int64
		if again, err = e.carryUntilStable(t.w, end, carry); err == nil && again == end {
			return end, nil
		}
		end = again
	}
	return 0, err
}

func (e *Edit) writeContent(t *temp, content Content) (int64, error) {
	var basis int64
	err := writeBuffered(t, func(w io.Writer) error {
		var err error
		basis, err = content(w)
		return err
	})
	if err == nil {
		err = e.own.apply(t.f)
	}
	if err == nil && basis >= 0 && basis < e.stamp.Size {
		err = fmt.Errorf("%s: new content covers %d of %d bytes: %w", e.Path, basis, e.stamp.Size, ErrChanged)
	}
	return basis, err
}

// install renames the finished temporary file over the file, within the
// folder's descriptor; when that fails, the backup just linked is removed
// again.
func (e *Edit) install(t *temp, bak string) error {
	if err := e.dir.rename(t.name, e.name); err != nil {
		if bak != "" {
			e.dir.unlink(bak)
		}
		return &os.PathError{Op: "replace", Path: e.Path, Err: errors.Unwrap(err)} // the error names the file, not its temporary one
	}
	return e.dir.sync()
}
