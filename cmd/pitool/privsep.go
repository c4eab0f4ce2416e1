package main

// Privilege separation (issue 25). pitool's headline deployment runs it as
// root over folders that other users can write (each user's
// ~/.pi/agent/sessions), and an administrator runs repair -i or redact -i on
// a user's session. A user who can rename, delete or symlink names in such a
// folder could race root's opens and make root write, create, delete or read
// files anywhere. So when pitool runs as root on files that another user
// controls, the work on them runs in a child process with that user's uid, gid
// and supplementary groups, set before the child touches anything (as
// logrotate's "su" directive and OpenSSH's privilege separation do), and a
// path that runs through a folder others may write without the sticky bit is
// refused (systemd-tmpfiles' "unsafe path transition"). A user never gains
// through pitool more than they already have.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/pitool/pitool/internal/progress"
	"github.com/pitool/pitool/internal/sessionfiles"
	"github.com/urfave/cli/v2"
	"golang.org/x/sys/unix"
)

// privsepChildEnv marks a child that root started as a path's controller
// (its value is the uid). The child removes it from its environment at once,
// so that the commands it runs (a --summarizer command) do not inherit it.
const privsepChildEnv = "PITOOL_PRIVSEP_CHILD"

// nightlyWorkerEnv puts nightly in worker mode: it reads the files to work on
// from stdin (JSON) and writes one JSON line per file on stdout, instead of
// walking folders and writing a report (see runNightlyWorker).
const nightlyWorkerEnv = "PITOOL_NIGHTLY_WORKER"

// privsepChild is the uid root started this process as ("" when not a
// child), read once at start-up and removed from the environment. A child
// reads the rest of its environment from privsepEnvFD (readChildEnv) before
// nightlyWorker is read from it.
var (
	privsepChild  = takeEnv(privsepChildEnv)
	childEnvRead  = readChildEnv(privsepChild)
	nightlyWorker = takeEnvAfter(childEnvRead, nightlyWorkerEnv) != ""
)

func takeEnv(name string) string {
	v, ok := os.LookupEnv(name)
	if ok {
		os.Unsetenv(name)
	}
	return v
}

// takeEnvAfter is takeEnv, ordered after the initialisation of its first
// argument.
func takeEnvAfter(_ bool, name string) string { return takeEnv(name) }

// privsepEnvFD is the descriptor on which root's pitool sends a child its
// environment: a socket, which other processes of the user cannot open
// through /proc/PID/fd.
const privsepEnvFD = 3

// runtimeEnv are the variables a child gets in its environment proper, read
// by the Go runtime before any of pitool's code runs; none is a secret.
var runtimeEnv = []string{"GOGC", "GOMEMLIMIT", "GODEBUG", "GOMAXPROCS", "GOTRACEBACK"}

// readChildEnv, in a child, first makes the process non-dumpable, so that
// the user it runs as can neither ptrace it nor read its memory or /proc
// files, then reads the environment root's pitool sends on privsepEnvFD
// (NUL-separated) and sets it. Root's environment may hold a summarizer's
// API key: it never appears in the child's /proc/PID/environ, which the user
// could read in the instant between the exec and the prctl.
func readChildEnv(uid string) bool {
	if uid == "" {
		return false
	}
	unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
	var st unix.Stat_t
	if unix.Fstat(privsepEnvFD, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFSOCK {
		return false // not started by root's pitool
	}
	f := os.NewFile(privsepEnvFD, "environment")
	data, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		fmt.Fprintf(os.Stderr, "pitool: error: reading the environment from root's pitool: %v\n", err)
		os.Exit(exitUsage)
	}
	for _, kv := range strings.Split(string(data), "\x00") {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			os.Setenv(k, v)
		}
	}
	return true
}

// maxLinkHops bounds the symlinks followed while finding a path's controller
// (the kernel's own limit is 40).
const maxLinkHops = 40

// controller is who can change what a path names: the owner of the first
// component of the path, walked from /, that another user than root may
// rename, replace or remove entries in.
type controller struct {
	uid, gid uint32 // gid: the controlling component's group
	at       string // that component ("" for root)
}

func (c controller) isRoot() bool { return c.uid == 0 }

func (c controller) String() string {
	if c.isRoot() {
		return "root"
	}
	return fmt.Sprintf("%s at %s", whoIs(c.uid), c.at)
}

// whoIs names uid for a message: "alice (uid 1001)", or "uid 4242".
func whoIs(uid uint32) string {
	if name := userName(uid); !strings.HasPrefix(name, "uid ") {
		return fmt.Sprintf("%s (uid %d)", name, uid)
	}
	return fmt.Sprintf("uid %d", uid)
}

// unsafePathError is a path through a folder that users other than root
// may write and that is not sticky: anyone in that group (or anyone at all)
// can swap the names below it.
type unsafePathError struct {
	path, folder string
	mode         fs.FileMode
}

func (e *unsafePathError) Error() string {
	return fmt.Sprintf("%s: unsafe path: %s is root's but writable by others (mode %s) without the sticky bit; "+
		"pitool will not work there as root", e.path, e.folder, e.mode)
}

// pathController returns the controller of path (made absolute), following
// the rule of systemd-tmpfiles and logrotate: walk the components from /,
// Lstat each; the first one owned by a user other than root decides when that
// user can swap the names below it or it itself: a folder, a symlink, or any
// entry of a sticky folder others may write (/tmp), where its owner may
// rename or remove it. A regular file owned by a user in a folder only root
// may write is root's: its owner controls its bytes, not its name. A symlink
// owned by root is followed by walking its target the same way. A root-owned
// folder that its group (other than root's) or everyone may write, without
// the sticky bit, makes the path unsafe. A path that does not exist yet (an
// output) has the controller of its nearest existing ancestor.
func pathController(path string) (controller, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return controller{}, err
	}
	hops := 0
	return walkController(path, abs, &hops)
}

func walkController(orig, abs string, hops *int) (controller, error) {
	cur := "/"
	info, err := os.Lstat(cur)
	if err != nil {
		return controller{}, err
	}
	if err := checkFolder(orig, cur, info); err != nil {
		return controller{}, err
	}
	openToOthers := false // cur may be written by others, with the sticky bit
	names := strings.Split(strings.TrimPrefix(filepath.Clean(abs), "/"), "/")
	for i, name := range names {
		if name == "" {
			continue
		}
		next := filepath.Join(cur, name)
		info, err := os.Lstat(next)
		switch {
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
			return controller{}, nil // everything above was root's
		case err != nil:
			return controller{}, err
		}
		st := info.Sys().(*syscall.Stat_t)
		mode := info.Mode()
		if st.Uid != 0 && (mode.IsDir() || mode&fs.ModeSymlink != 0 || openToOthers || i < len(names)-1) {
			return controller{uid: st.Uid, gid: st.Gid, at: next}, nil
		}
		if mode&fs.ModeSymlink != 0 {
			if *hops++; *hops > maxLinkHops {
				return controller{}, fmt.Errorf("%s: %w", orig, syscall.ELOOP)
			}
			target, err := os.Readlink(next)
			if err != nil {
				return controller{}, err
			}
			if !filepath.IsAbs(target) {
				target = filepath.Join(cur, target)
			}
			return walkController(orig, filepath.Join(append([]string{target}, names[i+1:]...)...), hops)
		}
		if mode.IsDir() {
			if err := checkFolder(orig, next, info); err != nil {
				return controller{}, err
			}
		}
		openToOthers = mode.IsDir() && writableByOthers(info)
		cur = next
	}
	return controller{}, nil
}

// writableByOthers: everyone, or a group other than root's, may write it.
func writableByOthers(info fs.FileInfo) bool {
	st := info.Sys().(*syscall.Stat_t)
	return info.Mode()&0o002 != 0 || info.Mode()&0o020 != 0 && st.Gid != 0
}

// checkFolder refuses a root-owned folder that others may write without the
// sticky bit.
func checkFolder(orig, path string, info fs.FileInfo) error {
	if writableByOthers(info) && info.Mode()&fs.ModeSticky == 0 {
		return &unsafePathError{path: orig, folder: path, mode: info.Mode()}
	}
	return nil
}

// userName is the login of uid, or "uid N" when it has none.
func userName(uid uint32) string {
	if u, err := user.LookupId(strconv.FormatUint(uint64(uid), 10)); err == nil {
		return u.Username
	}
	return "uid " + strconv.FormatUint(uint64(uid), 10)
}

// nogroup is the group of a child whose uid the user database does not
// know and whose controlling component belongs to root's group.
const nogroup = 65534

// credential is what a child for c runs with: c's uid, the uid's primary
// group and its supplementary groups from the user database; a uid the
// database does not know gets the controlling component's group (never
// root's: a folder made in a set-group-ID folder of root's group has it
// without its owner being a member) and no supplementary group.
func credential(c controller) *syscall.Credential {
	cred := &syscall.Credential{Uid: c.uid, Gid: c.gid, Groups: []uint32{}}
	u, err := user.LookupId(strconv.FormatUint(uint64(c.uid), 10))
	if err != nil {
		if cred.Gid == 0 {
			cred.Gid = nogroup
		}
		return cred
	}
	if gid, err := strconv.ParseUint(u.Gid, 10, 32); err == nil {
		cred.Gid = uint32(gid)
	}
	if ids, err := u.GroupIds(); err == nil {
		for _, id := range ids {
			if g, err := strconv.ParseUint(id, 10, 32); err == nil { // as initgroups: the primary group too
				cred.Groups = append(cred.Groups, uint32(g))
			}
		}
	}
	return cred
}

// childCommand is this same pitool (/proc/self/exe, which resolves without
// searching the folders of the binary's path, so a user may run a binary
// under a folder only root can enter) with args, as cred, in a session of
// its own. It keeps the working directory and the environment, plus marker:
// the environment goes through a socket (readChildEnv), sent once the caller
// calls started with cmd.Start's error. The child gets SIGTERM when ctx is
// cancelled (SIGINT and SIGTERM to the parent) or the parent dies.
func childCommand(ctx context.Context, cred *syscall.Credential, args []string, marker ...string) (*exec.Cmd, func(startErr error), error) {
	closeInheritedOnExec()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("socketpair: %w", err)
	}
	ours, theirs := os.NewFile(uintptr(fds[0]), "environment"), os.NewFile(uintptr(fds[1]), "environment")
	cmd := exec.CommandContext(ctx, "/proc/self/exe", args[1:]...)
	cmd.Args[0] = args[0] // testscript.Main runs the test binary as pitool by this name
	cmd.Env = []string{privsepChildEnv + "=" + strconv.FormatUint(uint64(cred.Uid), 10)}
	for _, k := range runtimeEnv {
		if v, ok := os.LookupEnv(k); ok {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	cmd.ExtraFiles = []*os.File{theirs} // privsepEnvFD
	// Setsid: a child with root's terminal as its controlling terminal could
	// open /dev/tty and type into root's shell (TIOCSTI); in a session of its
	// own it has none, and signals reach it only through cmd.Cancel.
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Setsid: true, Pdeathsig: syscall.SIGTERM}
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	started := func(startErr error) {
		theirs.Close()
		if startErr != nil {
			ours.Close()
			return
		}
		env := strings.Join(append(os.Environ(), marker...), "\x00")
		go func() {
			ours.WriteString(env) // a child that exits before reading it needs none of it
			ours.Close()
		}()
	}
	return cmd, started, nil
}

// closeInheritedOnExec marks every file descriptor above stderr close-on-exec.
// Go opens its own so, but one this process inherited open (from cron, a
// shell, a service manager) would otherwise pass on to a child run as a user.
func closeInheritedOnExec() {
	if unix.CloseRange(3, math.MaxUint32, unix.CLOSE_RANGE_CLOEXEC) == nil {
		return
	}
	entries, err := os.ReadDir("/proc/self/fd") // kernels before 5.11
	if err != nil {
		return
	}
	for _, e := range entries {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			syscall.CloseOnExec(fd)
		}
	}
}

// childStdin is what a child reads as stdin: never a terminal, whose ioctls
// (TIOCSTI) would let the user type into root's shell.
func childStdin(r io.Reader) io.Reader {
	if f, ok := r.(*os.File); ok && progress.IsTerminal(f) {
		return nil
	}
	return r
}

// childOutput is where a child writes what goes to w: a pipe copied by this
// process when w is a terminal (a terminal's fd would let the user type into
// root's shell), else w itself.
func childOutput(w io.Writer) io.Writer {
	if f, ok := w.(*os.File); ok && progress.IsTerminal(f) {
		return struct{ io.Writer }{w}
	}
	return w
}

// cleanWriter passes a child's stderr through with control characters other
// than newline and tab shown as \xNN: a user's process must not send escape
// sequences to root's terminal or log.
type cleanWriter struct{ w io.Writer }

func (c cleanWriter) Write(p []byte) (int, error) {
	var b []byte
	for _, ch := range p {
		if ch < 0x20 && ch != '\n' && ch != '\t' || ch == 0x7f {
			b = fmt.Appendf(b, `\x%02x`, ch)
			continue
		}
		b = append(b, ch)
	}
	if _, err := c.w.Write(b); err != nil {
		return 0, err
	}
	return len(p), nil
}

// exitStatus is a finished child's exit code: its own, or 128+N when killed
// by signal N.
func exitStatus(err error) int {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return exitUsage
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ee.ExitCode()
}

// privsepRun is the hook of run for commands other than nightly: run as root,
// it finds the paths the command line writes (parsed by the app's own
// parser) and their controllers. It returns handled false when the command
// should run in this process: not root, a read-only command line, or every
// written path root's. When one other user controls them all, it runs the
// same command line in a child as that user and returns its exit code; for
// several controllers, or an unsafe path, it refuses (exit 2).
func privsepRun(ctx context.Context, e *env, args []string) (code int, handled bool) {
	if os.Geteuid() != 0 || privsepChild != "" || nightlyWorker {
		return 0, false
	}
	written := writtenPaths(args)
	if len(written) == 0 {
		return 0, false
	}
	type owned struct {
		path string
		c    controller
	}
	var all []owned
	var unsafe []error
	uids := map[uint32]controller{}
	for _, p := range written {
		c, err := pathController(p)
		if err != nil {
			unsafe = append(unsafe, err)
			continue
		}
		all = append(all, owned{p, c})
		if _, ok := uids[c.uid]; !ok {
			uids[c.uid] = c
		}
	}
	if len(unsafe) > 0 {
		for _, err := range unsafe {
			e.errorf("%v", err)
		}
		return exitUsage, true
	}
	if len(uids) == 1 {
		for _, c := range uids {
			if c.isRoot() {
				return 0, false
			}
			return runChild(ctx, e, c, args), true
		}
	}
	e.errorf("refusing to run as root on paths that different users control (a user could make one write into another's files):")
	for _, o := range all {
		fmt.Fprintf(e.stderr, "  %s: %s\n", o.path, o.c)
	}
	e.hintf("run one user's files at a time, as that user: sudo -u USER pitool %s …", args[1])
	return exitUsage, true
}

// runChild runs args in a child as c and returns its exit code. Its stdout
// and stdin are this process's (never a terminal's fd), its stderr passes
// through cleaned.
func runChild(ctx context.Context, e *env, c controller, args []string) int {
	cmd, started, err := childCommand(ctx, credential(c), args)
	if err == nil {
		cmd.Stdin, cmd.Stdout, cmd.Stderr = childStdin(e.stdin), childOutput(e.stdout), cleanWriter{e.stderr}
		err = cmd.Start()
		started(err)
	}
	if err != nil {
		e.errorf("cannot start pitool as %s: %v", c, err)
		return exitUsage
	}
	if err = cmd.Wait(); err == nil {
		return exitOK
	}
	return exitStatus(err)
}

// writtenPaths parses args with the app's own parser, each command's Action
// replaced by one that names the paths that command line writes: in-place
// inputs, -o outputs, --dir and the default sessions folder of a new
// session, and the files found in folder inputs. Read-only command lines,
// nightly (which separates its own work), help and command lines that do not
// parse name none: they run in this process, which reports usage errors.
func writtenPaths(args []string) []string {
	var written []string
	app := newApp(&env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard})
	var probe func(cmds []*cli.Command)
	probe = func(cmds []*cli.Command) {
		for _, c := range cmds {
			c.Before, c.After = nil, nil
			if c.Action != nil {
				c.Action = func(c *cli.Context) error {
					written = writesOf(c)
					return nil
				}
			}
			probe(c.Subcommands)
		}
	}
	probe(app.Commands)
	if app.RunContext(context.Background(), flagsFirst(app, args)) != nil {
		return nil
	}
	return written
}

// writesOf names what the command line of c writes (see writtenPaths).
func writesOf(c *cli.Context) []string {
	name := c.Command.Name
	if c.Command.HasName("html") || c.Command.HasName("md") {
		name = "export"
	}
	output := func() []string {
		if o := c.String("output"); o != "" && o != "-" {
			return []string{o}
		}
		return nil
	}
	inputs := func() []string { return sessionfiles.Reach(c.Context, c.Args().Slice()) }
	switch name {
	case "repair":
		if c.Bool("dry-run") {
			return nil
		}
		w := output()
		if c.Bool("in-place") {
			w = inputs()
		}
		if q := c.String("quarantine"); q != "" && q != "-" {
			w = append(w, q)
		}
		return w
	case "redact":
		if c.Bool("check") {
			return nil
		}
		if c.Bool("in-place") {
			return inputs()
		}
		return output()
	case "compact":
		if c.Bool("plan") {
			return nil
		}
		return inputs()
	case "unarchive":
		return inputs()
	case "export":
		return output()
	case "clone", "fork":
		if o := c.String("output"); o != "" {
			return output()
		}
		if d := c.String("dir"); d != "" {
			return []string{d}
		}
		if d, err := sessionfiles.DefaultSessionsDir(); err == nil {
			return []string{d}
		}
	}
	return nil
}

// readLines calls line for each line of r, each at most max bytes (a longer
// one is an error: a child's output is not trusted to be small).
func readLines(r io.Reader, max int, line func([]byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), max)
	for sc.Scan() {
		if err := line(sc.Bytes()); err != nil {
			return err
		}
	}
	return sc.Err()
}
