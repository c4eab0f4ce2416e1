package exporter

import "bytes"

// Sanitizing goldmark's output with bluemonday was a sixth of an export's
// CPU time: it tokenizes every text again. Most texts need none of what the
// policy does, though, because goldmark writes no raw HTML and the policy
// keeps bare tags as they are. For those, writeSanitizedFast writes what the
// policy would, in one pass over the bytes; for anything else (a link, an
// image, an attribute it does not know, a comment, a character reference
// other than the ones below) it declines and the policy runs.
// TestSanitizeFastPath holds it to bluemonday's output, byte for byte.

// fastTags are the tags the fast path copies as they are: the policy allows
// each one and writes it back unchanged.
var fastTags = func() map[string]bool {
	m := map[string]bool{`<pre class="chroma">`: true, `<code>`: true, `</code>`: true, `</pre>`: true}
	for _, name := range []string{"p", "br", "em", "strong", "del", "blockquote", "ul", "li", "h1", "h2", "h3",
		"h4", "h5", "h6", "table", "thead", "tbody", "tr", "th", "td"} {
		m["<"+name+">"] = true
		if name != "br" {
			m["</"+name+">"] = true
		}
	}
	m["</ol>"], m["<ol>"], m["<hr>"] = true, true, true
	return m
}()

// fastRefs maps each character reference the fast path accepts in text to
// what the policy writes for it: it unescapes text and escapes it again
// with html.EscapeString.
var fastRefs = [...]struct{ ref, out string }{
	{"&amp;", "&amp;"}, {"&lt;", "&lt;"}, {"&gt;", "&gt;"},
	{"&quot;", "&#34;"}, {"&#34;", "&#34;"}, {"&#39;", "&#39;"},
}

// writeSanitizedFast writes to b what the sanitizer writes for html, and
// reports true, when html is only fastTags and text with fastRefs; otherwise
// it writes nothing and reports false.
func writeSanitizedFast(b *bytes.Buffer, html []byte) bool {
	start, last := b.Len(), 0
	for i := 0; i < len(html); i++ {
		var out string
		n := 1
		switch c := html[i]; c {
		case '<':
			end := bytes.IndexByte(html[i:], '>')
			if end < 0 || !fastTags[string(html[i:i+end+1])] {
				b.Truncate(start)
				return false
			}
			i += end
			continue
		case '&':
			var ok bool
			if out, n, ok = fastRef(html[i:]); !ok {
				b.Truncate(start)
				return false
			}
		case '\'':
			out = "&#39;"
		case '"':
			out = "&#34;"
		case 0, '\r': // the tokenizer rewrites these
			b.Truncate(start)
			return false
		default:
			continue
		}
		b.Write(html[last:i])
		b.WriteString(out)
		last = i + n
		i += n - 1
	}
	b.Write(html[last:])
	return true
}

// fastRef matches the character reference at the start of s.
func fastRef(s []byte) (out string, n int, ok bool) {
	for _, r := range fastRefs {
		if bytes.HasPrefix(s, []byte(r.ref)) {
			return r.out, len(r.ref), true
		}
	}
	return "", 0, false
}
