package bluemonday_test

import (
	"regexp"
	"testing"

	upstream "github.com/microcosm-cc/bluemonday"

	"github.com/pitool/pitool/third_party/bluemonday"
)

// inputs exercise the lazily compiled regexps: the attribute matchers of
// helpers.go, data attributes and URIs (sanitize.go), and style values
// through the CSS handlers, douceur's parser and gorilla's scanner.
var inputs = []string{
	`<p dir="rtl" title="A title, with (punctuation)!">x</p>`,
	`<p dir="sideways" title="<script>">x</p>`,
	`<table summary="s" align="center"><tr valign="top"><td colspan="2" rowspan="x" align="char" abbr="a">c</td></tr></table>`,
	`<ol type="i"><li value="3" type="A">x</li><li value="-1">y</li></ol>`,
	`<img src="data:image/png;base64,iVBORw0KGgo=" alt="a picture" width="10%" height="20" align="left">`,
	`<img src="data:text/html;base64,PHNjcmlwdD4=" align="evil">`,
	`<time datetime="2026-12-05T09:00:00Z">t</time><time datetime="yesterday">u</time>`,
	`<meter value="0.5" min="0" max="1">m</meter><progress value="x">p</progress>`,
	`<div data-x="1" data-XML="2" xmlns="n" class="a b_c-d">d</div>`,
	`<span class="chroma k" style="color: red; background: url(javascript:alert(1))">s</span>`,
	`<p style="color: #ff0000; background: #f00a; font-size: 12px; margin: 0 auto; text-align: justify">p</p>`,
	`<p style="color: hsla(120, 100%, 50%, 0.3); transform: translate(10px, 20px) scale(2); filter: drop-shadow(1px 2px 3px)">p</p>`,
	`<p style="width: expression(alert(1)); color: \72 ed; font-family: 'Open Sans', serif">p</p>`,
	`<p style="grid-template-areas: 'a b'; transition-timing-function: cubic-bezier(0.1, 0.7, 1.0, 0.1)">p</p>`,
	`<a href="https://example.com/x?y=1" target="_blank" rel="x">l</a><a href="javascript:alert(1)">j</a>`,
	`<input type="checkbox" checked disabled><details open="">d</details>`,
	`<pre class="chroma"><code class="language-go"><span class="kd">func</span></code></pre>`,
}

// policies are upstream's and the copy's policy of one kind, built alike.
var policies = map[string]func() (*upstream.Policy, *bluemonday.Policy){
	"UGC": func() (*upstream.Policy, *bluemonday.Policy) {
		return upstream.UGCPolicy(), bluemonday.UGCPolicy()
	},
	"exporter": func() (*upstream.Policy, *bluemonday.Policy) {
		class := regexp.MustCompile(`^[a-zA-Z0-9 _-]+$`)
		u, c := upstream.UGCPolicy(), bluemonday.UGCPolicy()
		u.AllowAttrs("class").Matching(class).OnElements("span", "code", "pre", "div")
		c.AllowAttrs("class").Matching(class).OnElements("span", "code", "pre", "div")
		u.AllowAttrs("checked", "disabled", "type").OnElements("input")
		c.AllowAttrs("checked", "disabled", "type").OnElements("input")
		return u, c
	},
	"styles": func() (*upstream.Policy, *bluemonday.Policy) {
		u, c := upstream.UGCPolicy(), bluemonday.UGCPolicy()
		u.AllowStyles("color", "background", "font-size", "margin", "text-align", "transform",
			"filter", "width", "font-family", "grid-template-areas", "transition-timing-function").Globally()
		c.AllowStyles("color", "background", "font-size", "margin", "text-align", "transform",
			"filter", "width", "font-family", "grid-template-areas", "transition-timing-function").Globally()
		u.AllowDataAttributes()
		c.AllowDataAttributes()
		u.AllowDataURIImages()
		c.AllowDataURIImages()
		return u, c
	},
}

// TestSanitizesAsUpstream: the copy sanitizes every input as upstream's
// bluemonday does, under each policy.
func TestSanitizesAsUpstream(t *testing.T) {
	for name, build := range policies {
		u, c := build()
		for _, in := range inputs {
			if got, want := c.Sanitize(in), u.Sanitize(in); got != want {
				t.Errorf("%s: %s\n got %s\nwant %s", name, in, got, want)
			}
		}
	}
}
