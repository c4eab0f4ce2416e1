package main

import (
	"io"
	"os"
	"path/filepath"

	"github.com/pitool/pitool/internal/safefile"
	"github.com/pitool/pitool/jsonl"
)

// outputRule says what an output (-o) may replace. It never replaces one of
// the inputs, whatever --force says: inPlace names the command that
// replaces an input in place ("" when the command has none). It replaces
// another Pi session only with force, or when that session is this input's
// own (the same session id: an earlier repair or redact -o of it) or a copy
// made from it (its parentSession names the input: an earlier clone or
// fork), which is what rerunning a command after a crash or a change of
// mind finds there.
type outputRule struct {
	inputs  []string
	force   bool
	inPlace string
}

// openOutput opens path's location before any work (safefile.OpenTarget:
// a missing or read-only folder, or a folder named as the file, is refused
// at once) and checks what is there by rule. It returns nil for stdout (""
// or "-"). The caller closes the target.
func openOutput(path string, rule outputRule) (*safefile.Target, error) {
	if path == "" || path == "-" {
		return nil, nil
	}
	return safefile.OpenTarget(path, safefile.Options{Check: func(f *os.File, info os.FileInfo) error {
		return rule.check(path, f, info)
	}})
}

// check refuses the existing file f at path (info its fstat) when rule
// forbids replacing it.
func (r outputRule) check(path string, f *os.File, info os.FileInfo) error {
	for _, in := range r.inputs {
		if in == jsonl.StdinName {
			continue
		}
		if inInfo, err := os.Stat(in); err == nil && os.SameFile(info, inInfo) {
			return r.inputError(path, in)
		}
	}
	h, ok := jsonl.SessionHeader(path, f)
	if !ok || r.force || r.isCopy(h) {
		return nil
	}
	return usagef("output %s is a Pi session already (id %s): pitool does not replace one; name a new file, or add --force to replace it", path, h.ID)
}

// inputError says that an output is one of the inputs, and what to run
// instead.
func (r outputRule) inputError(path, in string) error {
	if r.inPlace == "" {
		return usagef("output %s is the input %s: pitool never writes over its input; name a new file", path, in)
	}
	return usagef("output %s is the input %s: pitool never writes over its input; '%s %s' replaces it in place", path, in, r.inPlace, in)
}

// isCopy reports whether the session h (at the output) is one of the
// inputs' own or was made from one of them (see outputRule).
func (r outputRule) isCopy(h jsonl.Header) bool {
	for _, in := range r.inputs {
		if in == jsonl.StdinName {
			continue
		}
		if abs, err := filepath.Abs(in); err == nil && h.ParentSession == abs {
			return true
		}
		if id, ok := sessionIDOf(in); ok && id == h.ID {
			return true
		}
	}
	return false
}

// sessionIDOf is the id in the header of the session file path starts
// with (opened without following a link or blocking on a FIFO).
func sessionIDOf(path string) (string, bool) {
	f, err := safefile.OpenRegular(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	h, ok := jsonl.SessionHeader(path, f)
	return h.ID, ok && h.ID != ""
}

// writeTo sends what write produces to the target t, or to standard output
// for a nil target.
func writeTo(e *env, t *safefile.Target, write func(io.Writer) error) error {
	if t == nil {
		return write(e.stdout)
	}
	return t.Write(write)
}

// writeOutput writes what write produces to path, standard output for "" or
// "-", by the rule for inputs (see outputRule; no --force), for an output
// that is only known once the work has begun (nightly's report).
func writeOutput(e *env, path string, inputs []string, write func(io.Writer) error) error {
	return writeByRule(e, path, outputRule{inputs: inputs}, write)
}

// writeByRule opens path by rule and writes what write produces there (see
// openOutput, writeTo).
func writeByRule(e *env, path string, rule outputRule, write func(io.Writer) error) error {
	t, err := openOutput(path, rule)
	if err != nil {
		return err
	}
	if t != nil {
		defer t.Close()
	}
	return writeTo(e, t, write)
}
