package exporter

import (
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/pitool/pitool/third_party/chromalexers"
)

// TestMatchLexer checks matchLexer against lexers.Match for a name made from
// every pattern of every lexer, names with each ignored suffix, and names
// that match nothing.
func TestMatchLexer(t *testing.T) {
	if testing.Short() {
		t.Skip("lexers.Match takes milliseconds a name")
	}
	names := map[string]bool{}
	for _, name := range []string{"", "internal", "src", "go.mod", "Makefile", "x.ts", "a.b.c", "dir/x.go", ".bashrc", "x.go~", "é.py"} {
		names[name] = true
	}
	for _, l := range chromalexers.Registry().Lexers {
		c := l.Config()
		for _, glob := range append(append([]string{}, c.Filenames...), c.AliasFilenames...) {
			names[sampleName(glob)] = true
		}
	}
	// chroma v2.27.0's ignored suffixes, spelled out again so that a change
	// to matchLexer's copy shows.
	for _, suf := range []string{"~", ".bak", ".old", ".orig", ".dpkg-dist", ".dpkg-old", ".ucf-dist",
		".ucf-new", ".ucf-old", ".rpmnew", ".rpmorig", ".rpmsave", ".in", ".tmp"} {
		for _, name := range []string{"x.go", "Makefile", "x.h", "x.txt"} {
			names[name+suf] = true
		}
	}
	for name := range names {
		want, got := chromalexers.Match(name), matchLexer(name)
		if want != got {
			t.Errorf("%q: matchLexer gives %v, lexers.Match %v", name, lexerName(got), lexerName(want))
		}
	}
}

// sampleName is a name a glob matches: * as "name", ? as "q", a class as its
// first member.
func sampleName(glob string) string {
	var b strings.Builder
	for i := 0; i < len(glob); i++ {
		switch c := glob[i]; c {
		case '*':
			b.WriteString("name")
		case '?':
			b.WriteByte('q')
		case '[':
			end := strings.IndexByte(glob[i:], ']')
			if end < 0 {
				return b.String()
			}
			class := strings.TrimLeft(glob[i+1:i+end], "^!")
			if class != "" {
				b.WriteByte(class[0])
			}
			i += end
		case '\\':
			if i+1 < len(glob) {
				i++
				b.WriteByte(glob[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func lexerName(l chroma.Lexer) string {
	if l == nil {
		return "none"
	}
	return l.Config().Name
}
