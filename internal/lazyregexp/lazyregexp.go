// Package lazyregexp is a regexp compiled on its first use, not at program
// start, for package variables: the copies in third_party (bluemonday,
// goldmark's extension) declare dozens. It follows Go's own
// internal/lazyregexp, with the methods they call.
package lazyregexp

import (
	"os"
	"regexp"
	"strings"
	"sync"
)

// Regexp is a regexp.Regexp compiled the first time it is needed.
type Regexp struct {
	str  string
	once sync.Once
	rx   *regexp.Regexp
}

// New is a lazy regexp.MustCompile(str). In a test binary it compiles at
// once, so that a bad pattern fails the tests as it failed upstream's start.
func New(str string) *Regexp {
	r := &Regexp{str: str}
	if inTest {
		r.re()
	}
	return r
}

// inTest is set in test binaries.
var inTest = len(os.Args) > 0 && strings.HasSuffix(strings.TrimSuffix(os.Args[0], ".exe"), ".test")

// re compiles the regexp once.
func (r *Regexp) re() *regexp.Regexp {
	r.once.Do(func() { r.rx = regexp.MustCompile(r.str) })
	return r.rx
}

// MatchString is regexp.Regexp's.
func (r *Regexp) MatchString(s string) bool { return r.re().MatchString(s) }

// FindString is regexp.Regexp's.
func (r *Regexp) FindString(s string) string { return r.re().FindString(s) }

// FindStringIndex is regexp.Regexp's.
func (r *Regexp) FindStringIndex(s string) []int { return r.re().FindStringIndex(s) }

// String is the source text.
func (r *Regexp) String() string { return r.str }

// ReplaceAll is regexp.Regexp's.
func (r *Regexp) ReplaceAll(src, repl []byte) []byte { return r.re().ReplaceAll(src, repl) }

// Regexp is the compiled regexp, for an API that takes one
// (bluemonday's Matching, goldmark's LinkifyConfig).
func (r *Regexp) Regexp() *regexp.Regexp { return r.re() }

// Match is regexp.Regexp's.
func (r *Regexp) Match(b []byte) bool { return r.re().Match(b) }

// FindSubmatchIndex is regexp.Regexp's.
func (r *Regexp) FindSubmatchIndex(b []byte) []int { return r.re().FindSubmatchIndex(b) }

// FindStringSubmatch is regexp.Regexp's.
func (r *Regexp) FindStringSubmatch(s string) []string { return r.re().FindStringSubmatch(s) }

// Split is regexp.Regexp's.
func (r *Regexp) Split(s string, n int) []string { return r.re().Split(s, n) }
