package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Helpers of attack_test.go (issue 25): a root pitool working on a folder
// an attacker owns, the attacker racing it, a victim's files beside it.
//
// The attacker's file operations are done by the test process (root) on
// files and folders the attacker owns: what matters is the filesystem state
// they leave and when. Every such step is one the attacker's uid could do
// itself (rename, symlink, mkfifo, write into a file it owns or an open
// descriptor of one) in a folder the attacker owns or in a sticky
// world-writable one, on a link the attacker owns.
//
// The race is driven with fanotify permission events: every open of a file
// (or of the folder itself) in a watched folder by another process (pitool,
// or any child it starts) waits until the test answered it. The test acts at
// the Nth such open, or at the first one after a condition holds (e.g. the
// session was renamed over): the same moments every time, whatever the load.
// (PITOOL_TEST_PAUSE_BEFORE_COMMIT pauses before Commit's rechecks, not at
// these windows, and no hook is needed in the code under test.) fanotify
// needs CAP_SYS_ADMIN; without it the racing tests skip.
//
// Long suite: PITOOL_LONG=1 go test -v -run TestAttack ./cmd/pitool/ repeats
// each attack (a sweep counts as one) 200 times and prints "attack NAME:
// trials N, victim intact M".

const (
	attackerUID = 4242
	victimUID   = 4343
)

// attackLine is the whole line the attacker appends.
const attackLine = `{"type":"custom","customType":"attacker","data":{"x":"ATTACKER-BYTES-4242"},"id":"a7a7a7a7","parentId":null,"timestamp":"2026-12-01T00:00:00.000Z"}` + "\n"

// victimMarker is in every victim file: the attacker must never see it.
const victimMarker = "VICTIM-PRIVATE-4343"

func atkNeedRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("attack tests need root: pitool runs as root on a folder another uid owns")
	}
}

// attackRounds is how many times each attack is repeated: 1, or 200 in the
// long suite (PITOOL_LONG=1; PITOOL_STRESS_TRIALS=N sets N).
func attackRounds() int {
	if n, err := strconv.Atoi(os.Getenv("PITOOL_STRESS_TRIALS")); err == nil && n > 0 {
		return n
	}
	if longSuite() {
		return 200
	}
	return 1
}

// atkArena is one attack's temporary world: the attacker's folder A (uid
// 4242), the victim's folder V (uid 4343) with its file, and room beside.
type atkArena struct {
	base, A, V, victim string
	victimMode         os.FileMode
	before             map[string]string
}

// atkNewArena makes the arena; victimFrom is the corpus file the victim's
// session is made of (its header gets victimMarker), victimMode its mode.
func atkNewArena(t *testing.T, victimFrom string, victimMode os.FileMode) *atkArena {
	t.Helper()
	base := t.TempDir()
	// pitool fixed to run as the folder's owner must be able to reach it.
	os.Chmod(filepath.Dir(base), 0o755)
	os.Chmod(base, 0o755)
	ar := &atkArena{base: base, A: filepath.Join(base, "attacker"), V: filepath.Join(base, "victim"), victimMode: victimMode}
	atkMkdirOwned(t, ar.A, 0o755, attackerUID)
	atkMkdirOwned(t, ar.V, 0o755, victimUID)
	ar.victim = filepath.Join(ar.V, "victim.jsonl")
	atkWriteOwned(t, ar.victim, atkMarkVictim(t, victimFrom), victimMode, victimUID)
	ar.before = atkDirState(t, ar.V)
	return ar
}

// atkMarkVictim returns the corpus file with victimMarker in its header's cwd.
func atkMarkVictim(t *testing.T, from string) []byte {
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Replace(b, []byte(`"cwd":"/home/dev/project"`), []byte(`"cwd":"/home/`+victimMarker+`"`), 1)
}

func atkMkdirOwned(t *testing.T, dir string, mode os.FileMode, uid int) {
	t.Helper()
	if err := os.MkdirAll(dir, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Lchown(dir, uid, uid); err != nil {
		t.Fatal(err)
	}
}

func atkWriteOwned(t *testing.T, path string, b []byte, mode os.FileMode, uid int) {
	t.Helper()
	if err := os.WriteFile(path, b, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Lchown(path, uid, uid); err != nil {
		t.Fatal(err)
	}
}

// session puts a copy of a corpus file in the attacker's tree, owned by the
// attacker, idle for two days.
func (ar *atkArena) session(t *testing.T, rel, from string) string {
	t.Helper()
	p := filepath.Join(ar.A, rel)
	for d := filepath.Dir(p); d != ar.A && len(d) > len(ar.A); d = filepath.Dir(d) {
		atkMkdirOwned(t, d, 0o755, attackerUID)
	}
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	atkWriteOwned(t, p, b, 0o644, attackerUID)
	old := time.Now().Add(-48 * time.Hour)
	os.Chtimes(p, old, old)
	return p
}

// attackerLink makes an attacker-owned symlink to dest at path, put there
// by a rename (atomically replacing what was there).
func attackerLink(dest, path string) error {
	tmp := filepath.Join(filepath.Dir(path), fmt.Sprintf(".atk-%d", time.Now().UnixNano()))
	if err := os.Symlink(dest, tmp); err != nil {
		return err
	}
	os.Lchown(tmp, attackerUID, attackerUID)
	return os.Rename(tmp, path)
}

// attackerFIFO replaces path by a FIFO the attacker owns.
func attackerFIFO(path string) error {
	tmp := filepath.Join(filepath.Dir(path), fmt.Sprintf(".atk-%d", time.Now().UnixNano()))
	if err := unix.Mkfifo(tmp, 0o644); err != nil {
		return err
	}
	os.Lchown(tmp, attackerUID, attackerUID)
	return os.Rename(tmp, path)
}

// atkDirState lists every path under dir with its type, owner, mode and (for a
// regular file) the hash of its bytes.
func atkDirState(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			m[p] = "error " + err.Error()
			return nil
		}
		info, err := os.Lstat(p)
		if err != nil {
			m[p] = "error " + err.Error()
			return nil
		}
		st := info.Sys().(*syscall.Stat_t)
		s := fmt.Sprintf("%v %d:%d", info.Mode(), st.Uid, st.Gid)
		if info.Mode().IsRegular() {
			b, _ := os.ReadFile(p)
			s += fmt.Sprintf(" %x", sha256.Sum256(b))
		}
		m[p] = s
		return nil
	})
	return m
}

// victimHarm describes how the victim's folder differs from before ("" if
// not at all): a file changed, created or removed.
func (ar *atkArena) victimHarm(t *testing.T) string {
	now := atkDirState(t, ar.V)
	var diffs []string
	for p, s := range ar.before {
		if n, ok := now[p]; !ok {
			diffs = append(diffs, "removed "+p)
		} else if n != s {
			diffs = append(diffs, fmt.Sprintf("changed %s: %s -> %s", p, s, n))
		}
	}
	for p := range now {
		if _, ok := ar.before[p]; !ok {
			diffs = append(diffs, "created "+p)
		}
	}
	sort.Strings(diffs)
	return strings.Join(diffs, "; ")
}

// run is one pitool process started by the test.
type atkPitoolRun struct {
	cmd            *exec.Cmd
	stdout, stderr bytes.Buffer
	done           chan struct{}
	err            error
}

// atkStartPitool starts pitool as root (the test's uid) with extra env.
func atkStartPitool(t *testing.T, exe string, env []string, args ...string) *atkPitoolRun {
	t.Helper()
	r := &atkPitoolRun{cmd: exec.Command(exe, args...), done: make(chan struct{})}
	// A -race binary sleeps a second at exit (atexit_sleep_ms): per run,
	// that would make the sweeps slow under -race, for nothing.
	gorace := strings.TrimSpace(os.Getenv("GORACE") + " atexit_sleep_ms=0")
	r.cmd.Env = append(append(os.Environ(), "GORACE="+gorace), env...)
	r.cmd.Stdout, r.cmd.Stderr = &r.stdout, &r.stderr
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { r.err = r.cmd.Wait(); close(r.done) }()
	t.Cleanup(func() { r.kill() })
	return r
}

// wait waits up to d for the process to end; false if it did not.
func (r *atkPitoolRun) wait(d time.Duration) bool {
	select {
	case <-r.done:
		return true
	case <-time.After(d):
		return false
	}
}

func (r *atkPitoolRun) ended() bool {
	select {
	case <-r.done:
		return true
	default:
		return false
	}
}

func (r *atkPitoolRun) kill() {
	if !r.ended() {
		r.cmd.Process.Kill()
		<-r.done
	}
}

func (r *atkPitoolRun) code() int {
	if r.err == nil {
		return 0
	}
	if ee, ok := r.err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return -1
}

func (r *atkPitoolRun) output() string { return r.stdout.String() + r.stderr.String() }

// atkRunLimit bounds every pitool run of the attack tests: one that has not
// ended by then hung, and is killed.
const atkRunLimit = 15 * time.Second

// finish waits for the run within atkRunLimit; a run that hangs is killed
// and reported as a failure.
func (r *atkPitoolRun) finish(t *testing.T, what string) {
	t.Helper()
	if !r.wait(atkRunLimit) {
		r.kill()
		t.Errorf("%s: pitool did not end within %v (killed)", what, atkRunLimit)
	}
}

// atkOpenGate holds every open of a file in its folders (and of the folders
// themselves) by another process until on has run.
type atkOpenGate struct {
	fd   int
	stop chan struct{}
	on   func(atkGateEvent)
	wg   sync.WaitGroup
}

// atkGateEvent is one open waiting for the test: pid opens path.
type atkGateEvent struct {
	pid  int32
	path string
}

// atkNewGate starts holding opens in dirs; on runs for each one, in order,
// while the opener waits. on must not open files in those folders.
func atkNewGate(t *testing.T, on func(atkGateEvent), dirs ...string) *atkOpenGate {
	t.Helper()
	fd, err := unix.FanotifyInit(unix.FAN_CLASS_CONTENT|unix.FAN_CLOEXEC|unix.FAN_NONBLOCK, unix.O_RDONLY|unix.O_LARGEFILE)
	if err != nil {
		t.Skip("fanotify (needed to drive the race) is not available:", err)
	}
	for _, d := range dirs {
		if err := unix.FanotifyMark(fd, unix.FAN_MARK_ADD, unix.FAN_OPEN_PERM|unix.FAN_EVENT_ON_CHILD|unix.FAN_ONDIR, unix.AT_FDCWD, d); err != nil {
			unix.Close(fd)
			t.Skip("fanotify mark:", err)
		}
	}
	g := &atkOpenGate{fd: fd, stop: make(chan struct{}), on: on}
	pending := make(chan atkPendingEvent, 1024)
	g.wg.Add(2)
	go g.read(pending)
	go g.answer(pending)
	t.Cleanup(g.close)
	return g
}

type atkPendingEvent struct {
	ev atkGateEvent
	fd int32
}

// read answers the test's own opens at once and queues the others.
func (g *atkOpenGate) read(pending chan<- atkPendingEvent) {
	defer g.wg.Done()
	defer close(pending)
	self := int32(os.Getpid())
	buf := make([]byte, 64<<10)
	for {
		select {
		case <-g.stop:
			return
		default:
		}
		pfd := []unix.PollFd{{Fd: int32(g.fd), Events: unix.POLLIN}}
		if n, _ := unix.Poll(pfd, 20); n <= 0 {
			continue
		}
		n, err := unix.Read(g.fd, buf)
		if err != nil || n <= 0 {
			continue
		}
		for off := 0; off+int(unsafe.Sizeof(unix.FanotifyEventMetadata{})) <= n; {
			var m unix.FanotifyEventMetadata
			binary.Read(bytes.NewReader(buf[off:off+int(unsafe.Sizeof(m))]), binary.NativeEndian, &m)
			if m.Event_len == 0 {
				break
			}
			off += int(m.Event_len)
			if m.Fd < 0 {
				continue
			}
			if m.Pid == self {
				g.allow(m.Fd)
				continue
			}
			path, _ := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(m.Fd)))
			pending <- atkPendingEvent{atkGateEvent{pid: m.Pid, path: path}, m.Fd}
		}
	}
}

// answer runs on for each queued open, then lets it go on.
func (g *atkOpenGate) answer(pending <-chan atkPendingEvent) {
	defer g.wg.Done()
	for p := range pending {
		if g.on != nil {
			g.on(p.ev)
		}
		g.allow(p.fd)
	}
}

func (g *atkOpenGate) allow(fd int32) {
	var resp [8]byte
	binary.NativeEndian.PutUint32(resp[0:], uint32(fd))
	binary.NativeEndian.PutUint32(resp[4:], unix.FAN_ALLOW)
	unix.Write(g.fd, resp[:])
	unix.Close(int(fd))
}

// close stops the gate; opens still waiting are let go by the kernel.
func (g *atkOpenGate) close() {
	select {
	case <-g.stop:
		return
	default:
	}
	close(g.stop)
	g.wg.Wait()
	unix.Close(g.fd)
}

// atkSweep runs one attack once per moment: trial k acts at the kth open
// pitool makes in the watched folders, for k = 1, 2, ... until a trial's
// pitool made fewer than k opens. trial returns the number of opens seen
// and the harm done ("" for none). It returns the trials run and the harms.
func atkSweep(t *testing.T, trial func(t *testing.T, k int) (opens int, harm string)) (trials int, harms []string) {
	t.Helper()
	for k := 1; k <= 60; k++ {
		opens, harm := trial(t, k)
		if opens < k {
			break
		}
		trials++
		if harm != "" {
			harms = append(harms, fmt.Sprintf("acting at open %d: %s", k, harm))
			if !longSuite() {
				break // one is proof enough; the long suite counts them all
			}
		}
	}
	if trials == 0 {
		t.Errorf("pitool never opened a file in the attacker's folder: the attack was never tried")
	}
	return trials, harms
}

// atkAtOpen returns a gate callback that runs act once, at the kth open, and
// counts the opens in *n.
func atkAtOpen(k int, n *int, act func(atkGateEvent)) func(atkGateEvent) {
	return func(ev atkGateEvent) {
		*n++
		if *n == k {
			act(ev)
		}
	}
}

// atkWhenReady returns a function that runs act once, the first time ready()
// holds when it is called: from every gate event and from a poller.
func atkWhenReady(ready func() bool, act func()) (check func() bool) {
	var once sync.Once
	var mu sync.Mutex
	fired := false
	return func() bool {
		mu.Lock()
		defer mu.Unlock()
		if !fired && ready() {
			once.Do(act)
			fired = true
		}
		return fired
	}
}

// atkStartPoll calls check every 200µs, in a goroutine, until it reports true
// or the returned stop is called (stop waits for the goroutine).
func atkStartPoll(check func() bool) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil && !check() {
			time.Sleep(200 * time.Microsecond)
		}
	}()
	return func() { cancel(); <-done }
}

// atkInode returns path's inode number (0 when it cannot be stat'ed).
func atkInode(path string) uint64 {
	info, err := os.Lstat(path)
	if err != nil {
		return 0
	}
	return info.Sys().(*syscall.Stat_t).Ino
}

// report logs an attack's figures and fails on any harm.
func atkReportAttack(t *testing.T, name string, trials, intact int, harms []string) {
	t.Helper()
	t.Logf("%s: %d trials, victim intact in %d", name, trials, intact)
	if longSuite() {
		fmt.Printf("attack %s: trials %d, victim intact %d\n", name, trials, intact)
	}
	if len(harms) > 0 {
		max := min(len(harms), 3)
		t.Errorf("%s: harm in %d of %d trials, e.g.:\n  %s", name, len(harms), trials, strings.Join(harms[:max], "\n  "))
	}
}

// atkSweepRounds runs the sweep of trial attackRounds() times and reports
// its figures under name.
func atkSweepRounds(t *testing.T, name string, trial func(t *testing.T, k int) (int, string)) {
	t.Helper()
	var trials, intact int
	var harms []string
	for range attackRounds() {
		n, h := atkSweep(t, trial)
		trials += n
		intact += n - len(h)
		harms = append(harms, h...)
	}
	atkReportAttack(t, name, trials, intact, harms)
}
