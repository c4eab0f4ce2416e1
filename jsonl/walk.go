package jsonl

import (
	"bytes"
	"fmt"
)

// This file holds jsonl's lax JSON scanners: white space, strings, literals
// and numbers are each read by one function here, and Walker and SkipValue
// are built on them. They find where things end; they do not check a
// string's escapes or a number's digits (DecodeString and the decoders do).

// Token is the kind of one step of a Walker.
type Token uint8

// The steps of a walk. Start:End is the span of the token in the walked bytes.
const (
	TokenEnd    Token = iota // the value is complete: Start is where it ends, End where the white space after it ends
	TokenObject              // '{' opens an object
	TokenArray               // '[' opens an array
	TokenClose               // '}' or ']' closes the innermost object or array
	TokenKey                 // a member's key, the string literal with its quotes (its colon is read)
	TokenString              // a string value, the literal with its quotes
	TokenScalar              // a number, true, false or null
)

// walkState is what a Walker reads next.
type walkState uint8

const (
	wantValue      walkState = iota // any value
	wantFirstKey                    // a key or '}', just after '{'
	wantFirstValue                  // a value or ']', just after '['
	wantAfter                       // ',' or the innermost closer, or the end of the walk
)

// Walker reads one JSON value token by token, with the byte offsets of each
// (a pull-style iterator: call Next until TokenEnd or an error). It keeps its
// open objects and arrays on a stack of one byte each rather than recursing,
// so it reads any depth, as JSON.parse does. It checks the structure (colons,
// commas, closers), not what is inside a string or a number. The zero Walker
// is ready for Reset; one Walker can walk many values, reusing its stack.
type Walker struct {
	Start, End int // the span of the last token

	b       []byte
	pos     int
	closers []byte // the closer of each open container, innermost last
	state   walkState
}

// Reset starts a walk of the value at b[at:], after any white space.
func (w *Walker) Reset(b []byte, at int) {
	*w = Walker{b: b, pos: at, closers: w.closers[:0]}
}

// Next reads the next token. The error, which wraps errSyntax, gives where the
// value stops being JSON.
func (w *Walker) Next() (Token, error) {
	i := skipSpace(w.b, w.pos)
	switch w.state {
	case wantAfter:
		return w.after(i)
	case wantFirstKey:
		if i < len(w.b) && w.b[i] == '}' {
			return w.close(i)
		}
		return w.key(i)
	case wantFirstValue:
		if i < len(w.b) && w.b[i] == ']' {
			return w.close(i)
		}
	}
	return w.value(i)
}

// after reads what follows a value at b[i]: a comma and the next key or
// value, the innermost closer, or, with nothing open, the end.
func (w *Walker) after(i int) (Token, error) {
	if len(w.closers) == 0 {
		w.Start, w.End, w.pos = w.pos, i, i
		return TokenEnd, nil
	}
	closer := w.closers[len(w.closers)-1]
	switch {
	case i >= len(w.b):
		return TokenEnd, syntaxAt(i, "unexpected end")
	case w.b[i] == closer:
		return w.close(i)
	case w.b[i] != ',':
		return TokenEnd, syntaxAt(i, "expected ',' or "+string(closer))
	case closer == '}':
		return w.key(skipSpace(w.b, i+1))
	}
	return w.value(skipSpace(w.b, i+1))
}

// close reads the innermost closer at b[i].
func (w *Walker) close(i int) (Token, error) {
	w.closers = w.closers[:len(w.closers)-1]
	w.Start, w.End, w.pos, w.state = i, i+1, i+1, wantAfter
	return TokenClose, nil
}

// key reads a member's key at b[i] and its colon.
func (w *Walker) key(i int) (Token, error) {
	if i >= len(w.b) || w.b[i] != '"' {
		return TokenEnd, syntaxAt(i, "expected a key")
	}
	end, err := skipString(w.b, i)
	if err != nil {
		return TokenEnd, err
	}
	colon := skipSpace(w.b, end)
	if colon >= len(w.b) || w.b[colon] != ':' {
		return TokenEnd, syntaxAt(colon, "expected ':'")
	}
	w.Start, w.End, w.pos, w.state = i, end, colon+1, wantValue
	return TokenKey, nil
}

// value reads the start of the value at b[i]: all of a string or a scalar.
func (w *Walker) value(i int) (Token, error) {
	if i >= len(w.b) {
		return TokenEnd, syntaxAt(i, "unexpected end")
	}
	w.Start, w.state = i, wantAfter
	var end int
	var err error
	tok := TokenScalar
	switch c := w.b[i]; c {
	case '{', '[':
		w.closers = append(w.closers, c+2) // '}' or ']'
		w.End, w.pos, w.state = i+1, i+1, wantFirstKey
		if c == '[' {
			w.state = wantFirstValue
			return TokenArray, nil
		}
		return TokenObject, nil
	case '"':
		tok = TokenString
		end, err = skipString(w.b, i)
	default:
		end, err = skipScalar(w.b, i)
	}
	w.End, w.pos = end, end
	return tok, err
}

// syntaxAt reports that the scanned bytes are not JSON at offset i.
func syntaxAt(i int, what string) error {
	return &SyntaxError{Offset: i, msg: what}
}

// SyntaxError is where a lax scan found that bytes are not JSON.
type SyntaxError struct {
	Offset int // the byte offset in the scanned bytes
	msg    string
}

// Error says what was found where.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%v: %s at byte %d", errSyntax, e.msg, e.Offset)
}

// Unwrap makes a SyntaxError match errSyntax.
func (e *SyntaxError) Unwrap() error { return errSyntax }

// SkipValue returns the index just past the JSON value starting at b[i]. An
// object or array is skipped by counting its brackets outside strings.
func SkipValue(b []byte, i int) (int, error) {
	if i < len(b) {
		switch b[i] {
		case '"':
			return skipString(b, i)
		case '{', '[':
			return skipContainer(b, i)
		}
	}
	return skipScalar(b, i)
}

// skipScalar returns the index just past the literal or number at b[i].
func skipScalar(b []byte, i int) (int, error) {
	if i >= len(b) {
		return i, syntaxAt(i, "unexpected end")
	}
	switch c := b[i]; {
	case c == 't':
		return skipLiteral(b, i, "true")
	case c == 'f':
		return skipLiteral(b, i, "false")
	case c == 'n':
		return skipLiteral(b, i, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		return skipNumber(b, i), nil
	}
	return i, syntaxAt(i, fmt.Sprintf("unexpected byte %q", b[i]))
}

// skipString returns the index just past the string literal at b[i]: past
// the first quote after it that is not escaped.
func skipString(b []byte, i int) (int, error) {
	for j := i + 1; ; j++ {
		q := bytes.IndexByte(b[j:], '"')
		if q < 0 {
			return i, syntaxAt(i, "unterminated string")
		}
		if j += q; !escaped(b, j) {
			return j + 1, nil
		}
	}
}

// escaped reports whether the quote at b[j] follows an odd number of
// backslashes, which makes it part of the string.
func escaped(b []byte, j int) bool {
	n := 0
	for ; j > 0 && b[j-1] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

func skipContainer(b []byte, i int) (int, error) {
	depth := 0
	for j := i; j < len(b); j++ {
		switch b[j] {
		case '"':
			end, err := skipString(b, j)
			if err != nil {
				return i, err
			}
			j = end - 1
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return j + 1, nil
			}
		}
	}
	return i, syntaxAt(i, "unterminated container")
}

func skipLiteral(b []byte, i int, lit string) (int, error) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return i, syntaxAt(i, "bad literal")
	}
	return i + len(lit), nil
}

// skipNumber returns the index just past the bytes a number can hold, from
// b[i].
func skipNumber(b []byte, i int) int {
	for i < len(b) && (b[i] == '-' || b[i] == '+' || b[i] == '.' || b[i] == 'e' || b[i] == 'E' || (b[i] >= '0' && b[i] <= '9')) {
		i++
	}
	return i
}
