package chromalexers

import (
	"reflect"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	upstream "github.com/alecthomas/chroma/v2/lexers"
)

// TestRegistryIsUpstreams: the lazily filled registry holds upstream's
// lexers in upstream's order, with the same configurations.
func TestRegistryIsUpstreams(t *testing.T) {
	want, got := upstream.GlobalLexerRegistry.Lexers, Registry().Lexers
	if len(got) != len(want) {
		t.Fatalf("%d lexers, upstream has %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i].Config(), want[i].Config()) {
			t.Errorf("lexer %d: %+v, upstream %+v", i, got[i].Config(), want[i].Config())
		}
	}
	if g, w := Names(true), upstream.Names(true); !reflect.DeepEqual(g, w) {
		t.Errorf("Names: %v, upstream %v", g, w)
	}
}

// TestLookupsAsUpstream: every name and alias of upstream's lexers, a name
// each file name pattern matches, and every MIME type find the lexer of the
// same name here as through upstream's Get, Match and MatchMimeType.
func TestLookupsAsUpstream(t *testing.T) {
	if testing.Short() {
		t.Skip("upstream's Match takes milliseconds a name")
	}
	names := map[string]bool{"": true, "nosuchlanguage": true, "GO": true, "py": true, "x.go": true}
	files := map[string]bool{"x.nosuchext": true, "Makefile": true, "x.go~": true}
	mimes := map[string]bool{"text/x-nosuch": true}
	for _, l := range upstream.GlobalLexerRegistry.Lexers {
		c := l.Config()
		for _, n := range append([]string{c.Name, strings.ToUpper(c.Name)}, c.Aliases...) {
			names[n] = true
		}
		for _, glob := range append(append([]string{}, c.Filenames...), c.AliasFilenames...) {
			files[sampleName(glob)] = true
		}
		for _, m := range c.MimeTypes {
			mimes[m] = true
		}
	}
	for n := range names {
		same(t, "Get("+n+")", Get(n), upstream.Get(n))
	}
	for f := range files {
		same(t, "Match("+f+")", Match(f), upstream.Match(f))
	}
	for m := range mimes {
		same(t, "MatchMimeType("+m+")", MatchMimeType(m), upstream.MatchMimeType(m))
	}
}

// TestAnalyseAsUpstream: the analysers upstream sets at start (DNS zone
// files, MySQL, Zed) are set here too.
func TestAnalyseAsUpstream(t *testing.T) {
	for _, text := range []string{
		"@ IN SOA ns.example.com. admin.example.com. (1 2 3 4 5)\n",
		"SELECT `name` FROM `users` WHERE `id` = 1;\n",
		"definition user {}\ndefinition doc { relation viewer: user\n permission view = viewer }\n",
		"#!/bin/sh\necho hi\n",
		"<?xml version=\"1.0\"?><a/>\n",
	} {
		same(t, "Analyse("+text+")", Analyse(text), upstream.Analyse(text))
	}
}

// TestLexesAsUpstream: the lexers built during the fill, those that hand
// text to others included, lex as upstream's.
func TestLexesAsUpstream(t *testing.T) {
	for lang, code := range map[string]string{
		"go":               "package main\n\nvar s = `{{ .X }}`\n",
		"html":             "<p style=\"color: red\">x</p><script>let y = 2;</script>\n",
		"erb":              "<p><%= @user.name %></p>\n",
		"go-html-template": "<p>{{ if .Ok }}yes{{ end }}</p>\n",
		"go-text-template": "{{ range .Items }}{{ . }}{{ end }}\n",
		"phtml":            "<p><?php echo $x; ?></p>\n",
		"svelte":           "<script>let n = 1;</script><p>{n}</p>\n",
		"common-lisp":      "(defun sq (x) (* x x))\n",
		"emacs-lisp":       "(defun sq (x) (interactive) (* x x))\n",
		"markdown":         "# T\n\n```go\nx := 1\n```\n",
	} {
		got, want := Get(lang), upstream.Get(lang)
		if got == nil || want == nil {
			t.Fatalf("%s: lexer %v, upstream %v", lang, got, want)
		}
		g, err := chroma.Tokenise(got, nil, code)
		if err != nil {
			t.Fatal(err)
		}
		w, err := chroma.Tokenise(want, nil, code)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s: %v, upstream %v", lang, g, w)
		}
	}
}

// same fails unless got and want are both nil or lexers of one name.
func same(t *testing.T, what string, got, want chroma.Lexer) {
	t.Helper()
	if name(got) != name(want) {
		t.Errorf("%s: %q, upstream %q", what, name(got), name(want))
	}
}

// name is a lexer's name, "" for nil.
func name(l chroma.Lexer) string {
	if l == nil {
		return ""
	}
	return l.Config().Name
}

// sampleName is a name glob matches: * as "name", ? as "q", a class as its
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
			if end < 2 {
				b.WriteByte(c)
				continue
			}
			b.WriteByte(glob[i+1])
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
