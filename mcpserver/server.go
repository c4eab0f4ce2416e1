package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pitool/pitool/exporter"
	"github.com/pitool/pitool/jsonl"
	"github.com/pitool/pitool/redact"
)

// Options configure a server.
type Options struct {
	// Folders are the folders whose sessions are served (searched
	// recursively); the caller fills in Pi's sessions folder by default.
	Folders []string
	// NoRedact serves texts as they are in the files, where by default every
	// text an answer holds passes through redact's rules first.
	NoRedact bool
	// Version is the server's version, as the client sees it.
	Version string
	// Resolve names a session as every pitool command does; nil: ResolveRef.
	Resolve Resolver
	// Render writes a branch's transcript as plain text; nil: RenderPlain.
	Render Renderer
}

// Resolver finds the file of a session ref (a path, an id or a unique
// prefix of one, or "latest") among the session files under folders;
// project, when set, limits "latest" to the sessions of that folder.
type Resolver func(ctx context.Context, folders []string, ref, project string) (string, error)

// Renderer writes the transcript of the branch of ix that ends at the entry
// leaf (an id; the active leaf when "") to w, as plain text. redactLine,
// when set, rewrites each entry's JSON line before it is shown. Rendering
// may stop early, returning ctx's error, once ctx is cancelled.
type Renderer func(ctx context.Context, w io.Writer, ix *jsonl.Index, leaf string, redactLine func([]byte) ([]byte, error)) error

// transcriptWidth is the width of a transcript's lines, in columns.
const transcriptWidth = 100

// RenderPlain is the default Renderer: pitool show's transcript as a pipe
// gets it (no colour, no escape sequence), every tool output and thinking
// unfolded, since the model cannot unfold them.
func RenderPlain(ctx context.Context, w io.Writer, ix *jsonl.Index, leaf string, redactLine func([]byte) ([]byte, error)) error {
	return exporter.ShowTerminal(ctx, w, ix, exporter.HTMLOptions{Leaf: leaf, Redact: redactLine},
		exporter.TerminalOptions{Width: transcriptWidth, Full: true})
}

// server holds what every tool call needs.
type server struct {
	opts    Options
	redactr *redact.Redactor // nil with NoRedact
	cache   transcriptCache
}

// New builds the MCP server with its four tools.
func New(opts Options) (*mcp.Server, error) {
	if len(opts.Folders) == 0 {
		return nil, errors.New("mcpserver: no folder to serve")
	}
	if opts.Resolve == nil {
		opts.Resolve = ResolveRef
	}
	if opts.Render == nil {
		opts.Render = RenderPlain
	}
	s := &server{opts: opts}
	if !opts.NoRedact {
		r, err := redact.New(redact.Options{})
		if err != nil {
			return nil, fmt.Errorf("mcpserver: redaction rules: %w", err)
		}
		s.redactr = r
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "pitool", Version: opts.Version},
		&mcp.ServerOptions{Instructions: instructions(!opts.NoRedact), Capabilities: &mcp.ServerCapabilities{}})
	addTool(s, srv, searchTool, s.search)
	addTool(s, srv, listTool, s.list)
	addTool(s, srv, readTool, s.read)
	addTool(s, srv, usageTool, s.usage)
	return srv, nil
}

// instructions tell the model what the server is for.
func instructions(redacted bool) string {
	text := `pitool serves the user's past Pi coding agent sessions, read-only: every conversation they had with an agent, with its tool calls and results.
Use it to answer "how did we fix this last week?", "what did we decide about X?", "which session touched file Y?", or "how much did we spend this month?".
Start with search_sessions (a word, an error message, a file name) or list_sessions (recent sessions, by project); then read_session with a session id and a match's entry_id to read the conversation around it; session_usage totals tokens and cost.
A session is named by its id, a unique prefix of it, its file path, or "latest". Every answer is bounded: follow next_cursor or next_offset for more.`
	if redacted {
		return text + "\nSecrets (API keys, tokens, passwords, private keys) in the sessions are replaced by placeholders such as [REDACTED:<rule>:<hash>] (in a search snippet also [REDACTED], for a piece of one) before any text reaches you."
	}
	return text + "\nRedaction is OFF (the server runs with --no-redact): texts are served as they are in the files, secrets included. Do not repeat credentials you see."
}

// addTool registers a tool whose every answer, and every error message,
// is redacted before it leaves the server, and whose panic is an error of
// the call, not the end of the server.
func addTool[In, Out any](s *server, srv *mcp.Server, t *mcp.Tool, h func(context.Context, In) (Out, error)) {
	mcp.AddTool(srv, t, func(ctx context.Context, _ *mcp.CallToolRequest, in In) (_ *mcp.CallToolResult, out Out, err error) {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("%s failed on an internal error (%v); the server goes on", t.Name, p)
			}
			if err != nil {
				var zero Out
				out, err = zero, errors.New(s.redactText(err.Error()))
			}
		}()
		if out, err = h(ctx, in); err != nil {
			return nil, out, err
		}
		out, err = redactValue(s.redactr, out)
		return nil, out, err
	})
}
