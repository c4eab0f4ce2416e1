package mcpserver

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/pitool/pitool/redact"
)

// redactValue returns v with every string in it passed through r's rules:
// v is encoded as one JSON line, redacted as redact rewrites a session line
// (each string decoded, scanned and re-encoded), and decoded again. With r
// nil (--no-redact) v is returned as it is.
func redactValue[T any](r *redact.Redactor, v T) (T, error) {
	if r == nil {
		return v, nil
	}
	line, err := json.Marshal(v)
	if err != nil {
		return v, fmt.Errorf("encoding the answer: %w", err)
	}
	out, _, err := r.RedactLine(line)
	if err != nil {
		return v, fmt.Errorf("redacting the answer: %w", err)
	}
	var red T
	if err := json.Unmarshal(out, &red); err != nil {
		return v, fmt.Errorf("decoding the redacted answer: %w", err)
	}
	return red, nil
}

// redactText passes a plain text (an error message) through the rules.
func (s *server) redactText(text string) string {
	if s.redactr == nil {
		return text
	}
	out, _, err := s.redactr.RedactLine([]byte(text))
	if err != nil && !errors.Is(err, redact.ErrNotJSON) {
		return "(an error message that could not be redacted)"
	}
	return string(out)
}

// redactLine is the hook a transcript renderer calls on each entry's line.
func (s *server) redactLine() func([]byte) ([]byte, error) {
	if s.redactr == nil {
		return nil
	}
	return func(line []byte) ([]byte, error) {
		out, _, err := s.redactr.RedactLine(line)
		return out, err
	}
}
