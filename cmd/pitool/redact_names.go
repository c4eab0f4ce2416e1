package main

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/pitool/pitool/internal/sessionfiles"
	"github.com/pitool/pitool/redact"
)

// pathMask keeps the secrets in file and folder names out of everything
// redact prints or writes: every path it shows passes through name, every
// output name under -o FOLDER through output, and stderr (and stdout when
// it carries the report, not the session) through a writer that replaces
// each secret found in a name with its placeholder, the one content gets
// (redact.PathSecrets: the rules of content, --paths for the user of a
// home folder, in /home/alice and in Pi's --home-alice-proj-- alike).
type pathMask struct {
	r       *redact.Redactor
	mu      sync.Mutex
	scanned map[string]bool
	known   map[string]bool
	secrets []redact.PathSecret
	rep     *strings.Replacer
	taken   map[string]bool // output paths given out in this run
}

func newPathMask(r *redact.Redactor, paths ...string) *pathMask {
	m := &pathMask{r: r, scanned: map[string]bool{}, known: map[string]bool{}, taken: map[string]bool{}, rep: strings.NewReplacer()}
	m.add(paths...)
	return m
}

// add scans paths for secrets.
func (m *pathMask) add(paths ...string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	grew := false
	for _, p := range paths {
		if m.scanned[p] {
			continue
		}
		m.scanned[p] = true
		for _, s := range m.r.PathSecrets(p) {
			if !m.known[s.Secret] {
				m.known[s.Secret] = true
				m.secrets = append(m.secrets, s)
				grew = true
			}
		}
	}
	if grew {
		m.rep = redact.PathReplacer(m.secrets)
	}
}

// replace masks the secrets of the names scanned so far in s.
func (m *pathMask) replace(s string) string {
	m.mu.Lock()
	rep := m.rep
	m.mu.Unlock()
	return rep.Replace(s)
}

// name scans path and returns it masked.
func (m *pathMask) name(path string) string {
	m.add(path)
	return m.replace(path)
}

// output returns the path under out for the input at rel (relative to its
// folder): masked, still a session name when rel is one (the suffix kept),
// and unique in the run: when two inputs mask to one name, the later one
// gets -2, -3… before its suffix, so that no copy overwrites another.
func (m *pathMask) output(out, rel string) string {
	masked := m.replace(rel)
	if base := filepath.Base(rel); sessionfiles.IsSessionName(base) && !sessionfiles.IsSessionName(filepath.Base(masked)) {
		masked += sessionSuffix(base)
	}
	dest := filepath.Join(out, masked)
	m.mu.Lock()
	defer m.mu.Unlock()
	stem, suffix := dest, ""
	if s := sessionSuffix(dest); s != "" {
		stem, suffix = strings.TrimSuffix(dest, s), s
	}
	for n := 2; m.taken[dest]; n++ {
		dest = stem + "-" + strconv.Itoa(n) + suffix
	}
	m.taken[dest] = true
	return dest
}

// sessionSuffix is the session suffix name ends with (.jsonl, .jsonl.gz,
// .jsonl.zst), or "".
func sessionSuffix(name string) string {
	for _, s := range sessionfiles.Suffixes {
		if strings.HasSuffix(name, s) {
			return s
		}
	}
	return ""
}

// env returns e with stderr masked. Stdout carries the redacted session
// (the rules of content cover it) or the report, whose paths are masked one
// by one (a user named "files" must not rename a key of the JSON report).
func (m *pathMask) env(e *env) *env {
	masked := *e
	masked.stderr = &maskWriter{m: m, w: e.stderr}
	return &masked
}

// err masks the message of an error redact returns (pitool prints it), and
// keeps its kind (usage, findings, interrupted) for the exit code.
func (m *pathMask) err(err error) error {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, errReported) {
		return err
	}
	msg := describe(err)
	masked := m.replace(msg)
	if masked == msg {
		return err
	}
	var ue *usageError
	if errors.As(err, &ue) {
		return &usageError{masked}
	}
	var fe *findingsError
	if errors.As(err, &fe) {
		return &findingsError{masked}
	}
	return errors.New(masked)
}

// maskWriter masks what is written to w; each write is a whole line (or a
// whole report), so a name is never split between two.
type maskWriter struct {
	m *pathMask
	w io.Writer
}

func (mw *maskWriter) Write(p []byte) (int, error) {
	s := string(p)
	voice := "" // "pitool: error: " and the like stay as they are
	for _, v := range []string{"pitool: error: ", "pitool: warning: ", "pitool: hint: ", "pitool: "} {
		if strings.HasPrefix(s, v) {
			voice = v
			break
		}
	}
	if _, err := io.WriteString(mw.w, voice+mw.m.replace(s[len(voice):])); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Unwrap returns the writer mw writes to (progress.IsTerminal asks).
func (mw *maskWriter) Unwrap() io.Writer { return mw.w }
