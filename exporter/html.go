package exporter

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"sync"

	"github.com/pitool/pitool/jsonl"
)

// HTMLOptions controls ExportHTML.
type HTMLOptions struct {
	Leaf         string // the branch to show, by its leaf id ("" = the active leaf)
	AllBranches  bool   // show every entry of the tree, branch by branch
	NoThinking   bool   // leave thinking out
	NoToolOutput bool   // leave tool results and written file contents out
	Title        string // the page title ("" = the session name, or its id)
	// Redact, when set, rewrites each entry's JSON line before it is
	// rendered (pitool passes the redact package's RedactLine). It is called
	// from several goroutines at once.
	Redact func(line []byte) ([]byte, error)
}

// Output sizes: the page is written through one buffer of this size, and the
// context is checked for cancellation every cancelEvery entries.
const (
	writeBufferSize = 256 << 10
	cancelEvery     = 256
)

var (
	//go:embed assets/page.html
	pageHTML string
	//go:embed assets/style.css
	styleCSS string
	//go:embed assets/app.js
	appJS string
	//go:embed assets/chroma.css
	chromaCSS string
)

// bootJS marks the page as scripted before the body is parsed, so that CSS
// can hide what only the script shows.
const bootJS = `document.documentElement.classList.add("js")`

var page = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Parse(pageHTML))
})

// csp allows nothing from the network: only the page's own two scripts (by
// hash), inline styles and data: images.
var csp = sync.OnceValue(func() string {
	return "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src " +
		scriptHash(bootJS) + " " + scriptHash(appJS) + "; base-uri 'none'; form-action 'none'"
})

func scriptHash(js string) string {
	sum := sha256.Sum256([]byte(js))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// ExportHTML writes one self-contained HTML page of a session to w, streaming
// it entry by entry: the active branch (or opts.Leaf's), or with AllBranches
// the whole tree. Memory stays bounded by the index plus a few entries.
func ExportHTML(ctx context.Context, w io.Writer, ix *jsonl.Index, opts HTMLOptions) error {
	r, err := newRenderer(ix, opts)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, writeBufferSize)
	if err := page().ExecuteTemplate(bw, "head", r.headView()); err != nil {
		return fmt.Errorf("write page: %w", err)
	}
	if err := r.entries(ctx, bw); err != nil {
		return err
	}
	if err := page().ExecuteTemplate(bw, "foot", r.footView()); err != nil {
		return fmt.Errorf("write page: %w", err)
	}
	return bw.Flush()
}

// The page is made by three kinds of goroutine: one reads entries and builds
// their views, pageWorkers write their markup (writeEntry: markdown and
// highlighting happen there), and one writes the results in page order.
// viewQueue is how many entries may be in flight between them.
const (
	pageWorkers = 2
	viewQueue   = 64
)

// rendered is one entry on its way to the page: its view, then its HTML.
// Once written it goes back to renderedPool with its buffer, which the next
// entries reuse: growing a fresh buffer for every entry was a fifth of the
// bytes an export allocated.
type rendered struct {
	view *entryView
	html bytes.Buffer
	done chan struct{} // receives once when html is complete
}

// maxPooledHTML is the largest entry buffer kept for reuse, so that one huge
// entry does not pin its memory for the rest of the export.
const maxPooledHTML = 1 << 20

var renderedPool = sync.Pool{New: func() any { return &rendered{done: make(chan struct{}, 1)} }}

// newRendered takes an entry from the pool for view v.
func newRendered(v *entryView) *rendered {
	e := renderedPool.Get().(*rendered)
	e.view = v
	return e
}

// recycle returns a written entry to the pool.
func (e *rendered) recycle() {
	if e.html.Cap() > maxPooledHTML {
		return
	}
	e.view = nil
	e.html.Reset()
	renderedPool.Put(e)
}

// entries renders the sequence through the workers and writes it in order.
func (r *renderer) entries(ctx context.Context, w io.Writer) error {
	work, order := make(chan *rendered, viewQueue), make(chan *rendered, viewQueue)
	failed := make(chan struct{})
	for range pageWorkers {
		go func() {
			for e := range work {
				writeEntry(&e.html, e.view)
				e.done <- struct{}{}
			}
		}()
	}
	var werr error
	go func() {
		defer close(failed)
		werr = writeInOrder(w, order)
	}()
	err := r.buildViews(ctx, func(v *entryView) bool {
		e := newRendered(v)
		select {
		case work <- e:
		case <-failed:
			return false
		}
		select {
		case order <- e:
			return true
		case <-failed:
			return false
		}
	})
	close(work)
	close(order)
	<-failed
	if werr != nil {
		return werr
	}
	return err
}

// writeInOrder writes each entry's HTML once it is done; after an error it
// returns at once, and the entries still coming are dropped.
func writeInOrder(w io.Writer, order <-chan *rendered) error {
	for e := range order {
		<-e.done
		if _, err := w.Write(e.html.Bytes()); err != nil {
			return fmt.Errorf("write page: %w", err)
		}
		e.recycle()
	}
	return nil
}

// buildViews sends the view of every item in order, skipping tool results
// already shown with their calls.
func (r *renderer) buildViews(ctx context.Context, send func(*entryView) bool) error {
	return r.t.Each(ctx, func(it *Item) bool {
		return it.ShownWith != "" || send(r.view(it))
	})
}

type headView struct {
	CSP                  template.HTMLAttr
	Title                string
	CSS                  template.CSS
	ChromaCSS            template.CSS
	BootJS               template.JS
	AllBranches          bool
	SessionID, Date, Cwd string
	ParentSession, Shown string
	Notes                string
}

func (r *renderer) headView() headView {
	h := r.t.Head
	return headView{
		CSP: template.HTMLAttr(csp()), Title: h.Title, CSS: template.CSS(styleCSS), ChromaCSS: template.CSS(chromaCSS),
		BootJS: template.JS(bootJS), AllBranches: h.AllBranches,
		SessionID: h.SessionID, Date: h.Date, Cwd: h.Cwd, ParentSession: h.ParentSession, Shown: h.Shown, Notes: h.Notes,
	}
}

type footView struct {
	Models              []string
	Messages, ToolCalls string
	Tokens, Cost        string
	Highlight           string
	AppJS               template.JS
}

func (r *renderer) footView() footView {
	s := r.t.stats
	v := footView{Models: s.models, Messages: s.messages(), ToolCalls: itoa(s.toolCalls), Tokens: s.tokens(),
		Cost: fmt.Sprintf("%.3f", s.cost), AppJS: template.JS(appJS)}
	if r.code.spent {
		v.Highlight = fmt.Sprintf("the first %d KB of code; the rest is shown plain", highlightBudget>>10)
	}
	return v
}
