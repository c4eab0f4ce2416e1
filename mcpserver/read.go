package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pitool/pitool/jsonl"
)

// The bounds of read_session, in bytes of text: readMin keeps a page from
// being too small for one character, which would never move on.
const (
	readMin     = 1_000
	readDefault = 16_000
	readMax     = 64_000
)

var readTool = &mcp.Tool{
	Name: "read_session",
	Description: `Read a Pi coding agent session as a transcript in plain text, as pitool show prints it: the user's messages, the assistant's answers and thinking, tool calls and their results, bash commands, summaries, one branch from the start to its leaf.
Name the session by id, a unique prefix of one, its file path, or "latest" (with project: the latest session of that folder). By default the branch shown is the session's active one; leaf picks another branch by an entry id. With entry (a search match's entry_id) the page opens a little before that entry, on the active branch (or leaf's) when the entry is on it, else on the branch that ends at it.
Pages of at most 16,000 bytes by default, from 1,000 to 64,000 with max_bytes. When next_offset is set there is more: pass it as offset (with the same session, leaf and entry) to read on, to the end of even the largest session.`,
}

type readIn struct {
	Session  string `json:"session" jsonschema:"the session: an id, a unique prefix of one, a file path, or latest"`
	Project  string `json:"project,omitempty" jsonschema:"with latest: the latest session of this folder"`
	Leaf     string `json:"leaf,omitempty" jsonschema:"the entry id of the branch's last entry (default: the active leaf)"`
	Entry    string `json:"entry,omitempty" jsonschema:"an entry id to read around (a search match's entry_id)"`
	Offset   *int64 `json:"offset,omitempty" jsonschema:"where the page starts, in bytes of the transcript: next_offset of the previous page"`
	MaxBytes int    `json:"max_bytes,omitempty" jsonschema:"page size in bytes (default 16000, from 1000 to 64000)"`
}

type readOut struct {
	SessionID  string `json:"session_id"`
	File       string `json:"file"`
	Leaf       string `json:"leaf,omitempty" jsonschema:"the branch shown, by its last entry's id (absent: the active leaf)"`
	Offset     int64  `json:"offset" jsonschema:"where this page starts in the transcript"`
	NextOffset *int64 `json:"next_offset,omitempty" jsonschema:"pass as offset for the next page; absent on the last"`
	Text       string `json:"text"`
}

func (s *server) read(ctx context.Context, in readIn) (readOut, error) {
	path, err := s.opts.Resolve(ctx, s.opts.Folders, in.Session, in.Project)
	if err != nil {
		return readOut{}, err
	}
	ix, closeIx, err := jsonl.IndexFile(path, nil)
	if err != nil {
		return readOut{}, fmt.Errorf("reading %s: %w", path, err)
	}
	defer closeIx()
	leaf, err := s.branchOf(ix, in.Leaf, in.Entry)
	if err != nil {
		return readOut{}, err
	}
	size := int64(max(readMin, pageSize(in.MaxBytes, readDefault, readMax)))
	var start int64
	switch {
	case in.Offset != nil:
		start = max(0, *in.Offset)
	case in.Entry != "":
		if start, err = s.entryStart(ctx, ix, in.Entry); err != nil {
			return readOut{}, err
		}
		start = max(0, start-size/4)
	}
	w, err := s.page(ctx, ix, path, leaf, start, size)
	if err != nil {
		return readOut{}, err
	}
	text, from, next, more := w.page()
	out := readOut{SessionID: ix.Header.ID, File: path, Leaf: leaf, Offset: from, Text: text}
	if more {
		out.NextOffset = &next
	}
	return out, nil
}

// branchOf picks the branch to show: leaf's (the active one when ""), or,
// when entry is not on it, the branch that ends at entry.
func (s *server) branchOf(ix *jsonl.Index, leaf, entry string) (string, error) {
	for _, id := range []string{leaf, entry} {
		if _, ok := ix.Lookup(id); id != "" && !ok {
			return "", fmt.Errorf("no entry %q in this session: use an entry_id from search_sessions, or omit it", id)
		}
	}
	if entry == "" {
		return leaf, nil
	}
	at := ix.ActiveLeaf()
	if leaf != "" {
		at, _ = ix.Lookup(leaf)
	}
	path, err := ix.Path(at)
	if err != nil {
		return "", fmt.Errorf("following the branch: %w", err)
	}
	if e, _ := ix.Lookup(entry); slices.Contains(path, e) {
		return leaf, nil
	}
	return entry, nil
}

// entryStart is where entry's text starts in the transcript: the length of
// the transcript of the branch that ends at its parent.
func (s *server) entryStart(ctx context.Context, ix *jsonl.Index, entry string) (int64, error) {
	e, _ := ix.Lookup(entry)
	parent := ix.Parent(e)
	if parent < 0 || !ix.HasID(parent) {
		return 0, nil
	}
	w, err := s.render(ctx, ix, ix.ID(parent), &window{}, nil)
	if err != nil {
		return 0, err
	}
	return w.pos, nil
}

// page is the window on [start, start+size) of the branch's transcript:
// cut from the cached transcript when there is one; else the first page
// renders only as far as it needs, and a later one (start > 0) renders the
// whole transcript, for the cache.
func (s *server) page(ctx context.Context, ix *jsonl.Index, path, leaf string, start, size int64) (*window, error) {
	w := &window{start: start, size: size}
	key, ok := keyOf(path, leaf)
	if text, hit := s.cache.get(key); ok && hit {
		w.Write(text)
		return w, nil
	}
	if start == 0 || !ok {
		return s.render(ctx, ix, leaf, w, nil)
	}
	k := &keeper{}
	if _, err := s.render(ctx, ix, leaf, w, k); err != nil {
		return nil, err
	}
	if !k.over {
		s.cache.put(key, k.buf)
	}
	return w, nil
}

// render writes the branch's transcript through w, and k when set. Without
// k it stops once w has its page (a window of size 0 counts the whole
// transcript).
func (s *server) render(ctx context.Context, ix *jsonl.Index, leaf string, w *window, k *keeper) (*window, error) {
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := io.Writer(w)
	if k != nil {
		out = io.MultiWriter(w, k)
	} else if w.size > 0 {
		w.full = cancel
	}
	err := s.opts.Render(rctx, out, ix, leaf, s.redactLine())
	if err != nil && !(errors.Is(err, context.Canceled) && ctx.Err() == nil) {
		return nil, fmt.Errorf("rendering the transcript: %w", err)
	}
	return w, nil
}
