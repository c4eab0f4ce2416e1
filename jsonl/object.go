package jsonl

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"
)

// RawMessage is one JSON value kept as its exact bytes.
type RawMessage = json.RawMessage

// Object is a JSON object kept in key order with each value as raw bytes, the
// order-preserving form pitool edits and re-encodes. Values that are not
// touched are written back byte for byte.
type Object struct {
	Keys []string
	Vals []RawMessage
	raw  []byte // the parsed text while nothing has changed, written back as is
}

var errSyntax = errors.New("invalid JSON")

// noKnownLast is parseObject's knownLast when no value's extent is known.
const noKnownLast = -1

// ParseObject splits a JSON object into its keys and raw values. It checks the
// structure it walks; a value's inner syntax is checked when it is decoded.
func ParseObject(raw []byte) (Object, error) {
	o, end, err := parseObject(raw, skipSpace(raw, 0), "", nil, noKnownLast)
	if err != nil {
		return o, err
	}
	return o, expectEnd(raw, end)
}

// parseObject parses the object starting at raw[i] and returns the index just
// past it. When sub names a key whose value is an object, that value is parsed
// into *subObj on the way, instead of being skipped and parsed again later.
// A value that starts at knownLast is taken to be the object's last, closed
// by the last byte of raw, without walking it: the index has checked that of
// a plain message entry's message (see Index.DecodeOuter); noKnownLast
// knows of none.
func parseObject(raw []byte, i int, sub string, subObj *Object, knownLast int) (Object, int, error) {
	o := Object{Keys: make([]string, 0, 8), Vals: make([]RawMessage, 0, 8)}
	start := i
	if i >= len(raw) || raw[i] != '{' {
		return o, i, fmt.Errorf("%w: not an object", errSyntax)
	}
	i = skipSpace(raw, i+1)
	for i < len(raw) && raw[i] != '}' {
		key, next, err := readKey(raw, i)
		if err != nil {
			return o, i, err
		}
		vstart := skipSpace(raw, next)
		vend := len(raw) - 1 // where a value at knownLast ends
		if vstart != knownLast {
			if vend, err = parseValue(raw, vstart, key == sub && sub != "", subObj); err != nil {
				return o, i, err
			}
		}
		o.Keys, o.Vals = append(o.Keys, key), append(o.Vals, raw[vstart:vend])
		if i = skipSpace(raw, vend); i < len(raw) && raw[i] == ',' {
			i = skipSpace(raw, i+1)
		} else if i >= len(raw) || raw[i] != '}' {
			return o, i, fmt.Errorf("%w: expected ',' or '}' at byte %d", errSyntax, i)
		}
	}
	if i >= len(raw) {
		return o, i, fmt.Errorf("%w: unterminated object", errSyntax)
	}
	o.raw = raw[start : i+1]
	o.mergeRepeats()
	return o, i + 1, nil
}

// parseValue skips the value at raw[i], or parses it into *into when asked and
// it is an object.
func parseValue(raw []byte, i int, parse bool, into *Object) (int, error) {
	if !parse || i >= len(raw) || raw[i] != '{' {
		return SkipValue(raw, i)
	}
	o, end, err := parseObject(raw, i, "", nil, noKnownLast)
	if err == nil {
		*into = o
	}
	return end, err
}

func readKey(raw []byte, i int) (string, int, error) {
	if i >= len(raw) || raw[i] != '"' {
		return "", i, fmt.Errorf("%w: expected a key at byte %d", errSyntax, i)
	}
	end, err := SkipValue(raw, i)
	if err != nil {
		return "", i, err
	}
	key, ok := internKey(raw[i:end])
	if !ok {
		return "", i, fmt.Errorf("%w: bad key at byte %d", errSyntax, i)
	}
	j := skipSpace(raw, end)
	if j >= len(raw) || raw[j] != ':' {
		return "", j, fmt.Errorf("%w: expected ':' at byte %d", errSyntax, j)
	}
	return key, j + 1, nil
}

// EachElement calls fn with each element of the JSON array raw, in order,
// until fn returns false, in one walk that keeps nothing (ParseArray makes
// a slice of them). The error says raw is not an array or is cut short;
// fn may have seen the elements before the fault.
func EachElement(raw []byte, fn func(elem []byte) bool) error {
	_, err := eachElement(raw, skipSpace(raw, 0), func(v int) (int, error) {
		end, err := SkipValue(raw, v)
		if err == nil && !fn(raw[v:end]) {
			err = errStopWalk
		}
		return end, err
	})
	if err == errStopWalk {
		return nil
	}
	return err
}

// EachMember is EachElement for the members of the JSON object raw: fn
// gets each key, decoded, and its raw value. A key that repeats is passed
// each time; the last value is the one JSON.parse keeps.
func EachMember(raw []byte, fn func(key string, val []byte) bool) error {
	_, err := eachMember(raw, skipSpace(raw, 0), func(key string, v int) (int, error) {
		end, err := SkipValue(raw, v)
		if err == nil && !fn(key, raw[v:end]) {
			err = errStopWalk
		}
		return end, err
	})
	if err == errStopWalk {
		return nil
	}
	return err
}

// errStopWalk ends EachElement's and EachMember's walk when fn asks.
var errStopWalk = errors.New("walk stopped")

// eachMember walks the object at raw[i] without keeping it: for each member
// in order it calls fn with the key and where the value starts, and fn
// returns the index just past the value. It returns the index just past the
// object.
func eachMember(raw []byte, i int, fn func(key string, v int) (int, error)) (int, error) {
	if i >= len(raw) || raw[i] != '{' {
		return i, fmt.Errorf("%w: not an object", errSyntax)
	}
	for i = skipSpace(raw, i+1); i < len(raw) && raw[i] != '}'; {
		key, next, err := readKey(raw, i)
		if err != nil {
			return i, err
		}
		end, err := fn(key, skipSpace(raw, next))
		if err != nil {
			return i, err
		}
		if i, err = afterElement(raw, end, '}'); err != nil {
			return i, err
		}
	}
	if i >= len(raw) {
		return i, fmt.Errorf("%w: unterminated object", errSyntax)
	}
	return i + 1, nil
}

// eachElement is eachMember for the array at raw[i]: fn gets where each
// element starts and returns the index just past it.
func eachElement(raw []byte, i int, fn func(v int) (int, error)) (int, error) {
	if i >= len(raw) || raw[i] != '[' {
		return i, fmt.Errorf("%w: not an array", errSyntax)
	}
	for i = skipSpace(raw, i+1); i < len(raw) && raw[i] != ']'; {
		end, err := fn(i)
		if err != nil {
			return i, err
		}
		if i, err = afterElement(raw, end, ']'); err != nil {
			return i, err
		}
	}
	if i >= len(raw) {
		return i, fmt.Errorf("%w: unterminated array", errSyntax)
	}
	return i + 1, nil
}

// afterElement steps over the comma after a member or element that ends at
// raw[i], or stops at the closing bracket.
func afterElement(raw []byte, i int, closing byte) (int, error) {
	if i = skipSpace(raw, i); i < len(raw) && raw[i] == ',' {
		return skipSpace(raw, i+1), nil
	}
	if i >= len(raw) || raw[i] != closing {
		return i, fmt.Errorf("%w: expected ',' or '%c' at byte %d", errSyntax, closing, i)
	}
	return i, nil
}

func expectEnd(raw []byte, i int) error {
	if skipSpace(raw, i) != len(raw) {
		return fmt.Errorf("%w: data after the object at byte %d", errSyntax, i)
	}
	return nil
}

// Get returns the raw value of key, nil when absent.
func (o Object) Get(key string) RawMessage {
	for i, k := range o.Keys {
		if k == key {
			return o.Vals[i]
		}
	}
	return nil
}

// Has reports whether key is present.
func (o Object) Has(key string) bool { return o.Get(key) != nil }

// String returns the string value of key, "" when absent or not a string.
func (o Object) String(key string) string {
	s, _ := DecodeString(o.Get(key))
	return s
}

// Set replaces the value of key in place, or appends the key when absent, as a
// JavaScript object spread does.
func (o *Object) Set(key string, val RawMessage) {
	o.raw = nil
	for i, k := range o.Keys {
		if k == key {
			o.Vals[i] = val
			return
		}
	}
	o.Keys, o.Vals = append(o.Keys, key), append(o.Vals, val)
}

// Delete removes key if present.
func (o *Object) Delete(key string) {
	o.raw = nil
	for i, k := range o.Keys {
		if k == key {
			o.Keys = append(o.Keys[:i:i], o.Keys[i+1:]...)
			o.Vals = append(o.Vals[:i:i], o.Vals[i+1:]...)
			return
		}
	}
}

// Clone returns a copy whose key and value slices can be changed independently.
func (o Object) Clone() Object {
	return Object{Keys: append([]string(nil), o.Keys...), Vals: append([]RawMessage(nil), o.Vals...), raw: o.raw}
}

// AppendJSON appends the object in JSON.stringify's form; values are copied raw.
// A value that is JavaScript's undefined (a nil RawMessage) is skipped. An
// object that was parsed and never changed is written back as it was read.
func (o Object) AppendJSON(dst []byte) []byte {
	if o.raw != nil {
		return append(dst, o.raw...)
	}
	dst = append(dst, '{')
	first := true
	for i, k := range o.Keys {
		if o.Vals[i] == nil {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = AppendString(dst, k)
		dst = append(dst, ':')
		dst = append(dst, o.Vals[i]...)
	}
	return append(dst, '}')
}

// MarshalJSON implements json.Marshaler.
func (o Object) MarshalJSON() ([]byte, error) { return o.AppendJSON(nil), nil }

// ObjectOf builds an object from alternating keys and raw values ([]byte or
// RawMessage); a nil value stands for JavaScript's undefined.
func ObjectOf(kv ...any) Object {
	var o Object
	for i := 0; i+1 < len(kv); i += 2 {
		o.Keys = append(o.Keys, kv[i].(string))
		switch v := kv[i+1].(type) {
		case RawMessage:
			o.Vals = append(o.Vals, v)
		case []byte:
			o.Vals = append(o.Vals, v)
		default:
			panic(fmt.Sprintf("jsonl.ObjectOf: value for %q is %T, not raw JSON", kv[i], v))
		}
	}
	return o
}

// ParseArray splits a JSON array into its raw elements.
func ParseArray(raw []byte) ([]RawMessage, error) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return nil, fmt.Errorf("%w: not an array", errSyntax)
	}
	var out []RawMessage
	i = skipSpace(raw, i+1)
	if i < len(raw) && raw[i] == ']' {
		return out, expectEnd(raw, i+1)
	}
	for {
		end, err := SkipValue(raw, i)
		if err != nil {
			return nil, err
		}
		out = append(out, raw[i:end])
		i = skipSpace(raw, end)
		if i >= len(raw) {
			return nil, fmt.Errorf("%w: unterminated array", errSyntax)
		}
		if raw[i] == ']' {
			return out, expectEnd(raw, i+1)
		}
		if raw[i] != ',' {
			return nil, fmt.Errorf("%w: expected ',' at byte %d", errSyntax, i)
		}
		i = skipSpace(raw, i+1)
	}
}

// AppendArray appends raw elements as a JSON array.
func AppendArray(dst []byte, elems []RawMessage) []byte {
	dst = append(dst, '[')
	for i, e := range elems {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, e...)
	}
	return append(dst, ']')
}

// WholeNumber reads a whole number written as a JSON number or as a string
// holding one (Pi's tool arguments come both ways); ok is false for anything
// else, an absent value included.
func WholeNumber(raw RawMessage) (n int64, ok bool) {
	s, isString := DecodeString(raw)
	if !isString {
		s = string(raw)
	}
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	return n, err == nil
}

// IsNull reports whether raw is absent or JSON null.
func IsNull(raw RawMessage) bool { return len(raw) == 0 || string(raw) == "null" }

// Truthy reports whether a raw value is truthy in JavaScript.
func Truthy(raw RawMessage) bool {
	switch string(raw) {
	case "", "null", "false", "0", `""`, "-0", "0.0":
		return false
	}
	return true
}

// commonKeys are the keys Pi writes, shared instead of allocated per line:
// the reference keys and these.
var commonKeys = func() map[string]string {
	m := map[string]string{}
	for _, k := range append([]string{"type", "id", "parentId", "timestamp", "message", "role", "content", "text",
		"thinking", "thinkingSignature", "toolCall", "name", "arguments", "api", "provider", "model", "usage",
		"input", "output", "cacheRead", "cacheWrite", "totalTokens", "cost", "total", "stopReason",
		"toolCallId", "toolName", "details", "isError", "customType", "display", "data", "summary",
		"tokensBefore", "label", "modelId", "thinkingLevel",
		"responseId", "durationMs", "command", "exitCode", "cancelled", "truncated", "path", "mimeType"}, refKeyNames[1:]...) {
		m[`"`+k+`"`] = k
	}
	return m
}()

// internKey decodes a raw key, returning the shared string for common keys.
func internKey(raw []byte) (string, bool) {
	if k, ok := commonKeys[string(raw)]; ok {
		return k, true
	}
	return DecodeString(raw)
}
