package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pitool/pitool/internal/termtext"
)

// pitool speaks on stderr in one voice, as age's cmd/age/tui.go does: every
// line starts "pitool: error: ", "pitool: warning: " or "pitool: hint: ",
// is lowercase and has no final period. Errors about a file read
// "PATH: what happened", the path once.

// errorf prints one error line.
func (e *env) errorf(format string, args ...any) { e.say("error", format, args...) }

// warningf prints one warning line.
func (e *env) warningf(format string, args ...any) { e.say("warning", format, args...) }

// hintf prints one hint: what to run next.
func (e *env) hintf(format string, args ...any) { e.say("hint", format, args...) }

// infof prints one line of news, such as a batch's summary.
func (e *env) infof(format string, args ...any) {
	fmt.Fprintf(e.stderr, "pitool: %s\n", termtext.Visible(oneLine(fmt.Sprintf(format, args...))))
}

// printError prints err as one error line, in the user's words.
func (e *env) printError(err error) { e.errorf("%s", describe(err)) }

// say prints one line at level (error, warning or hint).
func (e *env) say(level, format string, args ...any) {
	fmt.Fprintf(e.stderr, "pitool: %s: %s\n", level, termtext.Visible(oneLine(fmt.Sprintf(format, args...))))
}

// printLine prints one line of a text report on w: what session content it
// holds (paths, names, messages) is shown by termtext.Visible, never obeyed
// by the terminal, and cannot break the line.
func printLine(w io.Writer, format string, args ...any) {
	fmt.Fprintln(w, termtext.Visible(fmt.Sprintf(format, args...)))
}

// oneLine folds msg onto one line, lowercases its first word unless it is a
// name (a path, an identifier), and drops a final period.
func oneLine(msg string) string {
	var lines []string
	for _, l := range strings.FieldsFunc(msg, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	msg = strings.TrimSuffix(strings.Join(lines, "; "), ".")
	first, _, _ := strings.Cut(msg, " ")
	if r, size := utf8.DecodeRuneInString(first); unicode.IsUpper(r) && isPlainWord(first[size:]) && first != "Pi" {
		msg = string(unicode.ToLower(r)) + msg[size:]
	}
	return msg
}

// isPlainWord reports whether s is all lowercase letters (so "No" is a word
// to lowercase, while "README.md" or "OPENAI_API_KEY" are names; "Pi" is
// kept by the caller).
func isPlainWord(s string) bool {
	for _, r := range s {
		if !unicode.IsLower(r) {
			return false
		}
	}
	return true
}

// describe renders err for the user: "interrupted" for a cancelled run, and
// otherwise the error chain layer by layer (sayChain).
func describe(err error) string { return sayChain(err, "") }

// fileError renders an error about path as "PATH: reason", the path once:
// "repair: open PATH: permission denied" becomes "PATH: repair: permission
// denied".
func fileError(path string, err error) string {
	msg := sayChain(err, path)
	if path == "" || mentions(msg, path) {
		return msg
	}
	return path + ": " + msg
}

// sayChain renders err layer by layer: each wrapping layer keeps its own
// words (what its Error adds before its cause's), and the causes pitool
// knows are said in plain words: an operating-system error as "PATH:
// reason", without Go's operation name ("open", "stat"), and only "reason"
// where the path is known (already said by the layer above, or by the
// caller); a stream that ends early as a truncated file; a cancelled run as
// "interrupted".
func sayChain(err error, known string) string {
	if errors.Is(err, context.Canceled) {
		return "interrupted"
	}
	if pe, ok := err.(*fs.PathError); ok {
		if pe.Path == known {
			return reason(pe.Err)
		}
		return pe.Path + ": " + reason(pe.Err)
	}
	if err == io.ErrUnexpectedEOF {
		return "compressed stream ends early (truncated file)"
	}
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		return sayJoined(err, joined.Unwrap(), known)
	}
	cause := errors.Unwrap(err)
	if cause == nil {
		return err.Error()
	}
	own, ok := strings.CutSuffix(err.Error(), cause.Error())
	if !ok {
		return err.Error() // a layer that words its cause itself
	}
	if pe, ok := cause.(*fs.PathError); ok && strings.HasSuffix(own, pe.Path+": ") {
		known = pe.Path
	}
	return own + sayChain(cause, known)
}

// sayJoined renders the errors.Join of errs, one line each, or err's own
// text when it is not that.
func sayJoined(err error, errs []error, known string) string {
	texts, said := make([]string, len(errs)), make([]string, len(errs))
	for i, e := range errs {
		texts[i], said[i] = e.Error(), sayChain(e, known)
	}
	if strings.Join(texts, "\n") != err.Error() {
		return err.Error()
	}
	return strings.Join(said, "\n")
}

// withPath wraps err with path unless its message starts with path already.
func withPath(path string, err error) error {
	if err == nil || mentions(err.Error(), path) {
		return err
	}
	return fmt.Errorf("%s: %w", path, err)
}

// mentions reports whether msg starts with path ("PATH: …", "PATH:3 …").
func mentions(msg, path string) bool {
	return strings.HasPrefix(msg, path+":") || strings.HasPrefix(msg, path+" ")
}

// reason names an operating-system error in plain words.
func reason(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file or directory"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	case errors.Is(err, os.ErrDeadlineExceeded):
		return "timed out"
	}
	return err.Error()
}
