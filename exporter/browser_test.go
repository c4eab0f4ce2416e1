package exporter

import (
	"bytes"
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pitool/pitool/jsonl"
)

// The browser tests drive Debian's chromium in headless mode through its
// command line (--dump-dom, --screenshot, console messages on stderr) rather
// than the DevTools protocol: no extra dependency, and the same flags a
// person can run by hand to check a page.

var updateScreenshot = flag.Bool("update-screenshot", false, "rewrite docs/export-screenshot.png")

const chromiumBin = "/usr/bin/chromium"

// chromium returns the browser, skipping when it is absent outside CI and
// failing in CI, where .ci/run installs it.
func chromium(t testing.TB) string {
	t.Helper()
	if _, err := os.Stat(chromiumBin); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is missing in CI: .ci/run must install chromium", chromiumBin)
		}
		t.Skipf("%s is not installed", chromiumBin)
	}
	return chromiumBin
}

// browse loads file in headless chromium with extra flags and returns what
// it printed and the page's console messages.
func browse(t *testing.T, file string, flags ...string) (stdout []byte, console []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir=" + profileDir(t),
		"--enable-logging=stderr", "--v=0", "--virtual-time-budget=5000"}, flags...)
	abs, err := filepath.Abs(file)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, chromium(t), append(args, "file://"+abs)...)
	inOwnProcessGroup(cmd)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	killProcessGroup(cmd)
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.Bytes())
	}
	for _, l := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(l, ":CONSOLE") {
			console = append(console, l)
		}
	}
	return out, console
}

// profileDir returns a fresh chromium profile folder. Chromium's helper
// processes may still write into it for a moment after the browser exits,
// which made t.TempDir's cleanup fail in CI ("directory not empty"), so the
// folder is removed with retries instead.
func profileDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "pitool-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for try := 0; try < 50; try++ {
			if os.RemoveAll(dir) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Logf("left chromium profile %s behind", dir)
	})
	return dir
}

// inOwnProcessGroup starts cmd as the leader of a new process group, so
// that killProcessGroup reaches chromium's helper processes too.
func inOwnProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcessGroup kills whatever is left of cmd's process group.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// exportTo writes the HTML export of session into dir and returns its path.
func exportTo(t *testing.T, dir, session string, opts HTMLOptions) string {
	t.Helper()
	ix := indexFile(t, session)
	var buf bytes.Buffer
	if err := ExportHTML(context.Background(), &buf, ix, opts); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, strings.TrimSuffix(filepath.Base(session), ".jsonl")+".html")
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBrowserConsoleDetector makes sure a page error does reach the check
// the other browser tests rely on.
func TestBrowserConsoleDetector(t *testing.T) {
	page := filepath.Join(t.TempDir(), "bad.html")
	os.WriteFile(page, []byte(`<!DOCTYPE html><title>x</title><script>null.boom</script>`), 0o644)
	if _, console := browse(t, page, "--dump-dom"); len(console) == 0 {
		t.Fatal("an uncaught error was not reported on the console")
	}
}

// TestBrowserLoadsWithoutErrors loads exports of branched.jsonl (every
// branch) and of real sessions, and checks that the script ran (the sidebar
// has rows) without any console message: errors, CSP violations, warnings.
func TestBrowserLoadsWithoutErrors(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		file string
		opts HTMLOptions
	}{
		{"v3/branched.jsonl", HTMLOptions{AllBranches: true}},
		{"v3/branched.jsonl", HTMLOptions{}},
		{"v3/agent-run.jsonl", HTMLOptions{}},
		{"real/large-session.jsonl", HTMLOptions{}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			page := exportTo(t, dir, filepath.Join(corpus, c.file), c.opts)
			dom, console := browse(t, page, "--dump-dom")
			if len(console) > 0 {
				t.Errorf("console messages:\n%s", strings.Join(console, "\n"))
			}
			if !bytes.Contains(dom, []byte(`<html lang="en" class="js">`)) || !bytes.Contains(dom, []byte(`class="row`)) {
				t.Errorf("the page script did not run: no sidebar rows in the DOM")
			}
		})
	}
}

var pwned = regexp.MustCompile(`data-pwned|PWNED</title>|<title>PWNED`)

// TestBrowserRunsNoInjectedScript loads a session full of script-injection
// payloads (user text, markdown, tool output, file names, labels, custom
// types, ids). Each payload would set the title to PWNED or mark the body
// with data-pwned; neither may happen, and nothing may reach the console.
func TestBrowserRunsNoInjectedScript(t *testing.T) {
	dir := t.TempDir()
	for _, opts := range []HTMLOptions{{}, {AllBranches: true}} {
		page := exportTo(t, dir, "testdata/inject.jsonl", opts)
		dom, console := browse(t, page, "--dump-dom")
		if m := pwned.Find(dom); m != nil {
			t.Errorf("an injected script ran: %q found in the DOM", m)
		}
		if !bytes.Contains(dom, []byte(`<title>Injection test&lt;/title&gt;&lt;script&gt;`)) {
			t.Errorf("the title changed or is missing")
		}
		if len(console) > 0 {
			t.Errorf("console messages:\n%s", strings.Join(console, "\n"))
		}
		openAll := filepath.Join(dir, "open.html")
		openEverything(t, page, openAll)
		if dom, _ := browse(t, openAll, "--dump-dom"); pwned.Match(dom) {
			t.Errorf("an injected script ran once the collapsed outputs were opened")
		}
	}
}

// openEverything copies page with a script that opens (and so loads) every
// collapsed output and turns on hidden messages and tool outputs, to run the
// lazy-loading path over the payloads.
func openEverything(t *testing.T, page, out string) {
	t.Helper()
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	opener := `<script>for (const d of document.querySelectorAll("details")) d.open = true;` +
		`document.querySelector('[data-action="hidden"]').click();document.querySelector('[data-action="tools"]').click();</script>`
	b = bytes.Replace(b, []byte(`<meta http-equiv="Content-Security-Policy"`), []byte(`<meta name="x-csp-removed-for-test"`), 1)
	b = bytes.Replace(b, []byte("</body>"), []byte(opener+"</body>"), 1)
	if err := os.WriteFile(out, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBrowserWithoutJavaScript checks that with scripts disabled every entry
// of the branch is in the DOM, and the script did not run.
func TestBrowserWithoutJavaScript(t *testing.T) {
	dir := t.TempDir()
	for _, file := range []string{"v3/branched.jsonl", "v3/agent-run.jsonl", "real/before-compaction.jsonl"} {
		t.Run(file, func(t *testing.T) {
			session := filepath.Join(corpus, file)
			page := exportTo(t, dir, session, HTMLOptions{})
			dom := []byte(domWithoutScripts(t, page))
			if bytes.Contains(dom, []byte(`class="js"`)) {
				t.Fatal("scripts ran although they were disabled")
			}
			ix := indexFile(t, session)
			path, err := ix.Path(ix.ActiveLeaf())
			if err != nil {
				t.Fatal(err)
			}
			for _, i := range path {
				if !bytes.Contains(dom, []byte(`id="entry-`+ix.ID(i)+`"`)) {
					t.Errorf("entry %s (line %d, %s) is not in the DOM", ix.ID(i), ix.LineNum(i), ix.Type(i))
				}
			}
			assertMessagesShown(t, ix, path, dom)
		})
	}
}

// assertMessagesShown checks that the text of every user message of the
// branch is in the DOM, escaped as HTML text.
func assertMessagesShown(t *testing.T, ix *jsonl.Index, path []int, dom []byte) {
	t.Helper()
	for _, i := range path {
		e, err := ix.Decode(i)
		if err != nil || e.Type != jsonl.TypeMessage {
			continue
		}
		msg, _, _, err := messageOf(e)
		if err != nil || msg.Role != jsonl.RoleUser {
			continue
		}
		text, _ := contentOf(msg.Content)
		words := strings.Fields(text)
		if len(words) == 0 {
			continue
		}
		if w := words[0]; !bytes.Contains(dom, []byte(escapeText(w))) {
			t.Errorf("user message %s: %q not in the DOM", e.ID, w)
		}
	}
}

func escapeText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// TestBrowserScreenshot takes a screenshot of the agent-run export; with
// -update-screenshot it is kept as docs/export-screenshot.png.
func TestBrowserScreenshot(t *testing.T) {
	dir := t.TempDir()
	page := exportTo(t, dir, filepath.Join(corpus, "v3/agent-run.jsonl"), HTMLOptions{})
	shot := filepath.Join(dir, "shot.png")
	browse(t, page, "--window-size=1400,1000", "--screenshot="+shot)
	b, err := os.ReadFile(shot)
	if err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) || len(b) < 20000 {
		t.Fatalf("no usable screenshot (%d bytes, %v)", len(b), err)
	}
	if *updateScreenshot {
		if err := os.WriteFile("../docs/export-screenshot.png", b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
