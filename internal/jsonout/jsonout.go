// Package jsonout is pitool's one encoder of command output as JSON: every
// --json, report and view a command prints goes through it, so text reads
// as JavaScript's JSON.stringify writes it (no HTML escaping of <, > and &).
package jsonout

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Marshal encodes v on one line, without a newline: encoding/json without
// HTML escaping. The commands used goccy/go-json's MarshalNoEscape before,
// which keeps pointers to its argument in a form the runtime does not track
// and crashed (SIGSEGV, or "found bad pointer in Go heap") when the stack
// moved during a large encode: `tree --json` on a 100 MB session, as in
// goccy/go-json#519 and #572.
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode JSON: %w", err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Write writes v to w as one line of JSON ending in a newline.
func Write(w io.Writer, v any) error {
	b, err := Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// MarshalArray is Marshal of rows, a JSON array, with its two halves
// encoded at once: encoding ls --json's 10,000 rows is a tenth of its CPU,
// and it comes after the listing, when the other core has nothing left to do.
func MarshalArray(rows []any) ([]byte, error) {
	if len(rows) < 2 {
		return Marshal(rows)
	}
	half := len(rows) / 2
	var first []byte
	var firstErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		first, firstErr = Marshal(rows[:half])
	}()
	second, err := Marshal(rows[half:])
	<-done
	if err = errors.Join(firstErr, err); err != nil {
		return nil, err
	}
	joined := make([]byte, 0, len(first)+len(second))
	joined = append(joined, first[:len(first)-1]...) // without its ']'
	joined = append(joined, ',')
	return append(joined, second[1:]...), nil // without its '['
}
