package main

import (
	"bytes"
	"encoding/json"
)

// marshalOutput encodes v for a command's JSON output: encoding/json without
// HTML escaping, so text reads as JSON.stringify writes it. The commands used
// goccy/go-json's MarshalNoEscape before, which keeps pointers to its argument
// in a form the runtime does not track and crashed (SIGSEGV, or "found bad
// pointer in Go heap") when the stack moved during a large encode: `tree
// --json` on a 100 MB session, as in goccy/go-json#519 and #572.
func marshalOutput(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
