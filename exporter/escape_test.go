package exporter

import (
	"bytes"
	"html/template"
	"testing"
)

// escapeTemplate puts a value in each place the entry markup writes session
// values: text, a quoted attribute, a URL fragment and an image source.
var escapeTemplate = template.Must(template.New("").Parse(
	`<p title="{{.S}}">{{.S}}</p><a href="#entry-{{.S}}"></a><img src="{{.U}}">`))

// escapeBoth returns what html/template writes for s, and what the escapers
// of escape.go write for it.
func escapeBoth(t *testing.T, s string) (want, got string) {
	var w bytes.Buffer
	if err := escapeTemplate.Execute(&w, struct {
		S string
		U template.URL
	}{s, template.URL(s)}); err != nil {
		t.Fatal(err)
	}
	var g bytes.Buffer
	g.WriteString(`<p title="`)
	escapeHTML(&g, s)
	g.WriteString(`">`)
	escapeHTML(&g, s)
	g.WriteString(`</p><a href="#entry-`)
	escapeURLPart(&g, s)
	g.WriteString(`"></a><img src="`)
	escapeURL(&g, template.URL(s))
	g.WriteString(`">`)
	return w.String(), g.String()
}

// FuzzEscapers checks that the escapers write, byte for byte, what
// html/template writes in the same places, for any string.
func FuzzEscapers(f *testing.F) {
	var all []byte
	for c := range 256 {
		all = append(all, byte(c))
		f.Add(string([]byte{byte(c)}))
	}
	for _, s := range []string{
		string(all), "", `"'<>&+` + "\x00", "<script>alert(1)</script>", "javascript:alert(1)",
		"data:image/png;base64,iVBORw0KGgo+/AA==", "%41%4g%4", "a b\tc\nd", "é 😀 \uFDD0 \uFFFE",
		"\xff\xfe\xc3", "#frag?q=1&r=2", "&amp;&#34;", "id-123_a.b~c",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if want, got := escapeBoth(t, s); got != want {
			t.Errorf("escaping %q:\ngot  %q\nwant %q", s, got, want)
		}
	})
}
