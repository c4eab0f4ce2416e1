package jsonl

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
)

// compactByWalk rebuilds b from the tokens of a walk, without white space:
// for valid JSON it is json.Compact's output.
func compactByWalk(b []byte) ([]byte, error) {
	var w Walker
	w.Reset(b, 0)
	var out []byte
	first := true // no comma before the next key or value
	for {
		tok, err := w.Next()
		if err != nil {
			return out, err
		}
		if tok == TokenEnd {
			if w.End != len(b) {
				return out, errors.New("data after the value")
			}
			return out, nil
		}
		if tok != TokenClose && !first {
			out = append(out, ',')
		}
		out = append(out, b[w.Start:w.End]...)
		if tok == TokenKey {
			out, first = append(out, ':'), true
			continue
		}
		first = tok == TokenObject || tok == TokenArray
	}
}

// TestWalker checks the tokens and spans of a walk, and where it stops on
// what is not JSON.
func TestWalker(t *testing.T) {
	b := []byte(` {"a" : [1, "x\"y", {}, []], "b":{"c":null} } `)
	want := []string{"{", `"a"`, "[", "1", `"x\"y"`, "{", "}", "[", "]", "]", `"b"`, "{", `"c"`, "null", "}", "}", " "}
	kinds := []Token{TokenObject, TokenKey, TokenArray, TokenScalar, TokenString, TokenObject, TokenClose, TokenArray, TokenClose, TokenClose,
		TokenKey, TokenObject, TokenKey, TokenScalar, TokenClose, TokenClose, TokenEnd}
	var w Walker
	w.Reset(b, 0)
	for i := range want {
		tok, err := w.Next()
		if err != nil || tok != kinds[i] || string(b[w.Start:w.End]) != want[i] {
			t.Fatalf("token %d: %v %q %v, want %v %q", i, tok, b[w.Start:w.End], err, kinds[i], want[i])
		}
	}
	if w.Start != len(b)-1 {
		t.Errorf("the value ends at %d, want %d", w.Start, len(b)-1)
	}
	for in, at := range map[string]int{`{"a" 1}`: 5, `{"a":1 "b":2}`: 7, `[1,]`: 3, `{1:2}`: 1, `[tru]`: 1, `["abc`: 1, `{"a":[}`: 6, `[`: 1, `x`: 0} {
		_, err := compactByWalk([]byte(in))
		var se *SyntaxError
		if !errors.As(err, &se) || se.Offset != at || !errors.Is(err, errSyntax) {
			t.Errorf("%q: %v, want a syntax error at byte %d", in, err, at)
		}
	}
}

// TestWalkerDeep walks a value nested a million deep, as JSON.parse reads it.
func TestWalkerDeep(t *testing.T) {
	const depth = 1_000_000
	b := []byte(strings.Repeat(`{"a":[`, depth) + "0" + strings.Repeat("]}", depth))
	got, err := compactByWalk(b)
	if err != nil || !bytes.Equal(got, b) {
		t.Fatalf("a line nested %d deep: %v", depth, err)
	}
}

// FuzzWalker: a walk of valid JSON succeeds and its tokens rebuild
// json.Compact's output; a walk never panics.
func FuzzWalker(f *testing.F) {
	for _, s := range []string{`{"a":[1,"x",{"b":null}],"c":{}}`, ` [ true , false ] `, `"s"`, `-1.5e3`, `{"a":"\u0041\\"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := compactByWalk(b)
		if !stdjson.Valid(b) {
			return
		}
		var want bytes.Buffer
		if cerr := stdjson.Compact(&want, b); cerr != nil || err != nil || !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("%q: walk %q (%v), json.Compact %q", b, got, err, want.Bytes())
		}
	})
}

// corpusStrings returns the string literals (keys and values) of the corpus
// sessions (corpusBenchData), found with a Walker.
func corpusStrings(b *testing.B) (literals [][]byte, size int) {
	var w Walker
	for _, line := range bytes.Split(corpusBenchData(b), []byte("\n")) {
		for w.Reset(line, 0); ; {
			tok, err := w.Next()
			if err != nil || tok == TokenEnd {
				break
			}
			if tok == TokenKey || tok == TokenString {
				literals = append(literals, line[w.Start:w.End])
				size += w.End - w.Start
			}
		}
	}
	return literals, size
}

// BenchmarkWalker walks every line of the corpus sessions (one is empty, an
// error at once).
func BenchmarkWalker(b *testing.B) {
	data := corpusBenchData(b)
	lines := bytes.Split(data, []byte("\n"))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	defer reportCPUThroughput(b, int64(len(data)))()
	var w Walker
	for range b.N {
		for _, line := range lines {
			for w.Reset(line, 0); ; {
				if tok, err := w.Next(); err != nil || tok == TokenEnd {
					break
				}
			}
		}
	}
}

// BenchmarkDecodeString decodes every string of the corpus sessions with
// DecodeString, and as DecodeString did before it had its own decoder: with
// goccy/go-json when the string has an escape or is not UTF-8.
func BenchmarkDecodeString(b *testing.B) {
	literals, size := corpusStrings(b)
	b.Run("jsonl", func(b *testing.B) {
		b.SetBytes(int64(size))
		b.ReportAllocs()
		defer reportCPUThroughput(b, int64(size))()
		for range b.N {
			for _, l := range literals {
				DecodeString(l)
			}
		}
	})
	b.Run("goccy-for-escapes", func(b *testing.B) {
		b.SetBytes(int64(size))
		b.ReportAllocs()
		defer reportCPUThroughput(b, int64(size))()
		for range b.N {
			for _, l := range literals {
				if s := string(l[1 : len(l)-1]); hasEscapeOrInvalid(l[1 : len(l)-1]) {
					_ = json.Unmarshal(l, &s)
				}
			}
		}
	})
}
