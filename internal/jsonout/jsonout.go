// Package jsonout is pitool's one encoder of command output as JSON: every
// --json, report and view a command prints goes through it, so text reads
// as JavaScript's JSON.stringify writes it (no HTML escaping of <, > and &).
package jsonout

import (
	"bytes"
	"encoding/json"
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
