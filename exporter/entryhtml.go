package exporter

import (
	"bytes"
	"html/template"
)

// markup writes the HTML of one entry. It is what an html/template for the
// entry would write, without the reflection that made the template the
// export's largest cost: literal markup is written as is, and every value
// from the session goes through the escapers of escape.go (text for HTML text
// and quoted attributes, fragment for URL fragments, HTML only for markup that
// is already safe: sanitized markdown and formatted code, which text.go writes).
type markup struct{ b *bytes.Buffer }

// lit writes literal markup.
func (m markup) lit(s string) { m.b.WriteString(s) }

// text writes s escaped as text or an attribute value.
func (m markup) text(s string) { escapeHTML(m.b, s) }

// wrap writes open, s escaped, then close.
func (m markup) wrap(open, s, close string) {
	m.lit(open)
	m.text(s)
	m.lit(close)
}

// name writes a file or tool name between open and close (escapeName).
func (m markup) name(open, s, close string) {
	m.lit(open)
	escapeName(m.b, s)
	m.lit(close)
}

// fragment writes a link to an entry: href="#entry-<id>".
func (m markup) fragment(id string) {
	m.lit(` href="#entry-`)
	escapeURLPart(m.b, id)
	m.lit(`"`)
}

// images writes image elements with the given alt text.
func (m markup) images(images []Image, alt string) {
	for _, img := range images {
		m.lit(`<img class="image" src="`)
		escapeURL(m.b, template.URL(img.Src))
		m.lit(`" alt="` + alt + `">`)
	}
}

// writeEntry writes one entry as a <section>, after a branch marker when it
// starts a branch.
func writeEntry(b *bytes.Buffer, v *entryView) {
	m := markup{b}
	if v.BranchFrom != "" {
		m.wrap(`<div class="branch-start" data-for="`, v.BranchFrom, `">↳ branch from <a`)
		m.fragment(v.BranchFrom)
		m.wrap(`>`, v.BranchFrom, "</a></div>\n")
	}
	m.sectionOpen(v)
	m.lit(`<div class="meta"><a class="ts"`)
	m.fragment(v.ID)
	m.wrap(` title="link to this entry">`, v.Time, `</a>`)
	if v.Label != "" {
		m.wrap(` <span class="label">`, v.Label, `</span>`)
	}
	m.lit(`</div>`)
	m.body(v)
	m.lit("\n</section>\n")
}

// sectionOpen writes the <section> tag with the attributes the script reads.
func (m markup) sectionOpen(v *entryView) {
	m.wrap(`<section id="entry-`, v.ID, `" class="e k-`)
	m.text(v.Kind)
	if v.OffPath {
		m.lit(" off")
	}
	if v.Custom != nil && v.Custom.Hidden {
		m.lit(" hidden-msg")
	}
	m.wrap(`" data-p="`, v.Parent, `" data-k="`)
	m.wrap("", v.Kind, `"`)
	if v.Label != "" {
		m.wrap(` data-l="`, v.Label, `"`)
	}
	m.wrap(` data-s="`, v.Summary, "\">\n")
}

// body writes the entry's body (a view has exactly one).
func (m markup) body(v *entryView) {
	if v.User != nil {
		m.lit(`<div class="role">User</div>`)
		m.images(v.User.Images, "image from the user")
		m.markdown("\n", v.User.Text)
	}
	if v.Assistant != nil {
		m.assistant(v.Assistant)
	}
	if v.Tool != nil {
		m.tool(v.Tool)
	}
	if v.Bash != nil {
		m.bash(v.Bash)
	}
	if v.System != nil {
		m.system(v.System)
	}
	if v.Sum != nil {
		m.summary(v.Sum)
	}
	if v.Custom != nil {
		m.custom(v.Custom)
	}
	if v.Setting != "" {
		m.wrap(`<div class="setting">`, v.Setting, `</div>`)
	}
}

// markdown writes rendered markdown in its <div>, after lead.
func (m markup) markdown(lead string, t markdownText) {
	m.lit(lead + `<div class="md">`)
	t.write(m.b)
	m.lit(`</div>`)
}

func (m markup) assistant(a *assistantView) {
	m.lit(`<div class="role">Assistant`)
	if a.Model != "" {
		m.wrap(` <span class="model">`, a.Model, `</span>`)
	}
	m.lit(`</div>`)
	for _, b := range a.Blocks {
		switch {
		case b.Redacted:
			m.lit(`<div class="thinking redacted">Thinking withheld by the provider</div>`)
		case b.Thinking != "":
			m.wrap(`<details class="thinking" open><summary>Thinking</summary><div class="thinking-text">`, b.Thinking, `</div></details>`)
		default:
			m.markdown("", b.Text)
		}
	}
	for _, t := range a.Tools {
		m.tool(t)
	}
	switch a.Stop {
	case "aborted":
		m.lit(`<div class="stop aborted" role="note">⊘ Aborted: the turn was interrupted</div>`)
	case "error":
		m.wrap(`<div class="stop error" role="alert">✗ Error: `, a.Error, `</div>`)
	}
}

func (m markup) tool(t *toolView) {
	m.wrap(`<div class="tool s-`, t.Status, `" id="tool-`)
	m.wrap("", t.CallID, `">`)
	if t.ResultID != "" {
		m.wrap(`<span id="entry-`, t.ResultID, `" class="anchor"></span>`)
	}
	m.toolHead(t)
	if t.Args != "" {
		m.wrap(`<pre class="args">`, t.Args, `</pre>`)
	}
	if t.Content != nil {
		m.out(t.Content)
	}
	m.diff(t.Diff)
	m.images(t.Images, "image from the tool")
	if t.Output != nil {
		m.out(t.Output)
	}
	if t.Note != "" {
		m.wrap(`<div class="note">`, t.Note, `</div>`)
	}
	if t.Omitted {
		m.lit(`<div class="note">(output omitted from this export)</div>`)
	}
	m.lit("\n</div>")
}

// toolHead writes the tool's status, name and arguments in brief.
func (m markup) toolHead(t *toolView) {
	icon := "✓"
	switch t.Status {
	case "error":
		icon = "✗"
	case "pending":
		icon = "…"
	}
	m.wrap("\n"+`<div class="tool-head"><span class="status" title="`, t.Status, `">`+icon+`</span> <span class="tool-name">`)
	m.name("", t.Name, `</span>`)
	if t.Command != "" {
		m.wrap(` <code class="cmd">$ `, t.Command, `</code>`)
	}
	if t.Pattern != "" {
		m.wrap(` <code class="pattern">`, t.Pattern, `</code>`)
	}
	if t.Path != "" {
		m.name(` <code class="path">`, t.Path, `</code>`)
	}
	if t.Detail != "" {
		m.wrap(` <span class="detail">`, t.Detail, `</span>`)
	}
	switch t.Status {
	case "pending":
		m.lit(` <span class="detail">no result recorded</span>`)
	case "error":
		m.lit(` <span class="badge error">error</span>`)
	}
	m.lit(`</div>`)
}

func (m markup) diff(lines []diffLine) {
	if len(lines) == 0 {
		return
	}
	m.lit(`<pre class="diff">`)
	for _, l := range lines {
		m.wrap(`<span class="`, l.Class, `">`)
		m.wrap("", l.Text, `</span>`)
	}
	m.lit(`</pre>`)
}

// out writes an output: whole when short, else its preview with the full
// text collapsed.
func (m markup) out(o *output) {
	class := `class="out"`
	if o.Error {
		class = `class="out err"`
	}
	if !o.Long {
		m.lit(`<div ` + class + `>`)
		o.writePreview(m.b)
		m.lit(`</div>`)
		return
	}
	m.lit(`<details ` + class + `><summary><div class="preview">`)
	o.writePreview(m.b)
	m.lit(`</div><span class="more">… `)
	if o.Rest != 0 {
		m.lit(itoa(o.Rest) + " more lines")
	} else {
		m.lit("more")
	}
	m.lit(`</span></summary><noscript>`)
	o.writeFull(m.b)
	m.lit(`</noscript></details>`)
}

func (m markup) bash(b *bashView) {
	status := "ok"
	if b.Cancelled || b.Exit != "" {
		status = "error"
	}
	m.wrap(`<div class="tool s-`+status+`">`+"\n"+`<div class="tool-head"><span class="tool-name">user ran</span> <code class="cmd">$ `, b.Command, `</code>`)
	if b.Excluded {
		m.lit(` <span class="detail">(not sent to the model)</span>`)
	}
	m.lit(`</div>`)
	if b.Output != nil {
		m.out(b.Output)
	}
	if b.Cancelled {
		m.lit(`<div class="stop aborted">(cancelled)</div>`)
	} else if b.Exit != "" {
		m.wrap(`<div class="stop error">(exit `, b.Exit, `)</div>`)
	}
	if b.Truncated != "" {
		m.wrap(`<div class="note">Output truncated; full output in <code>`, b.Truncated, `</code></div>`)
	}
	m.lit("\n</div>")
}

func (m markup) system(s *systemView) {
	m.wrap(`<div class="role">`, s.Title, `</div>`)
	if s.Text != nil {
		m.out(s.Text)
	}
	if len(s.Tools) > 0 {
		m.toolDecls(s.Update, s.Tools)
	}
	if len(s.Removed) > 0 {
		m.lit(`<div class="removed">Tools removed: `)
		m.codeList(s.Removed)
		m.lit(`</div>`)
	}
}

// toolDecls writes the tools a system prompt declares, with their parameters.
func (m markup) toolDecls(update bool, tools []ToolDecl) {
	heading := "Tools"
	if update {
		heading = "Tools added"
	}
	m.lit(`<div class="tools-list"><div class="role">` + heading + `</div>`)
	for _, t := range tools {
		m.wrap(`<details class="decl"><summary><span class="tool-name">`, t.Name, `</span> — `)
		m.wrap("", t.Description, `</summary>`)
		for _, p := range t.Params {
			m.wrap(`<div class="param"><code>`, p.Name, `</code> <span class="type">`)
			m.wrap("", p.Type, `</span> `)
			if p.Required {
				m.lit(`<span class="req">required</span>`)
			} else {
				m.lit(`<span class="opt">optional</span>`)
			}
			if p.Description != "" {
				m.wrap(`<div class="pdesc">`, p.Description, `</div>`)
			}
			m.lit(`</div>`)
		}
		m.lit("\n</details>")
	}
	m.lit(`</div>`)
}

// codeList writes names as <code> elements separated by commas.
func (m markup) codeList(names []string) {
	for i, n := range names {
		if i > 0 {
			m.lit(", ")
		}
		m.wrap(`<code>`, n, `</code>`)
	}
}

func (m markup) summary(s *summaryView) {
	m.wrap(`<details class="summary" open><summary class="role">`, s.Title, `</summary>`)
	m.markdown("\n", s.Body)
	for _, files := range []struct {
		label string
		names []string
	}{{"Read: ", s.Read}, {"Modified: ", s.Modified}} {
		if len(files.names) > 0 {
			m.lit(`<div class="files">` + files.label)
			m.codeList(files.names)
			m.lit(`</div>`)
		}
	}
	m.lit("\n</details>")
}

func (m markup) custom(c *customView) {
	m.wrap(`<div class="role">[`, c.Type, `]`)
	if c.Hidden {
		m.lit(` <span class="detail">hidden in Pi's terminal (display: false)</span>`)
	}
	m.lit(`</div>`)
	m.images(c.Images, "image from an extension")
	m.markdown("\n", c.Body)
}
