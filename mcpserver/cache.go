package mcpserver

import (
	"os"
	"slices"
	"sync"
)

// The bounds of the transcript cache, in bytes of text.
const (
	cacheEntryMax = 16 << 20 // the longest transcript kept
	cacheMax      = 64 << 20 // all transcripts kept
)

// Why a cache. A page of a transcript is cut from a rendering from the
// start of the branch: renderers draw an entry from the entries before it
// and cannot start in the middle. Paging to the end of a session would
// render it once per page; the cache keeps a rendered transcript (up to
// cacheEntryMax) for the pages after the first, so reading a session to its
// end renders it twice at most. A longer transcript is rendered again for
// each page, up to that page's end.

// transcriptKey names one rendering: the branch of a file as it was (an
// appended or rewritten file has another size or time).
type transcriptKey struct {
	path, leaf  string
	size, mtime int64
}

// keyOf is the key of a file's branch now; ok is false when the file
// cannot be looked at.
func keyOf(path, leaf string) (transcriptKey, bool) {
	info, err := os.Stat(path)
	if err != nil {
		return transcriptKey{}, false
	}
	return transcriptKey{path: path, leaf: leaf, size: info.Size(), mtime: info.ModTime().UnixNano()}, true
}

type cachedTranscript struct {
	key  transcriptKey
	text []byte
}

// transcriptCache keeps the most recently used transcripts, at most
// cacheMax bytes of them. It is safe for concurrent use.
type transcriptCache struct {
	mu      sync.Mutex
	entries []cachedTranscript // most recently used last
	bytes   int
}

func (c *transcriptCache) get(k transcriptKey) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	i := slices.IndexFunc(c.entries, func(e cachedTranscript) bool { return e.key == k })
	if i < 0 {
		return nil, false
	}
	e := c.entries[i]
	c.entries = append(slices.Delete(c.entries, i, i+1), e)
	return e.text, true
}

func (c *transcriptCache) put(k transcriptKey, text []byte) {
	if len(text) > cacheEntryMax {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries = slices.DeleteFunc(c.entries, func(e cachedTranscript) bool { return e.key.path == k.path && e.key.leaf == k.leaf })
	c.entries = append(c.entries, cachedTranscript{k, text})
	c.bytes = 0
	for _, e := range c.entries {
		c.bytes += len(e.text)
	}
	for c.bytes > cacheMax {
		c.bytes -= len(c.entries[0].text)
		c.entries = c.entries[1:]
	}
}

// keeper keeps what is written through it, up to cacheEntryMax bytes;
// past that it keeps nothing (over).
type keeper struct {
	buf  []byte
	over bool
}

func (k *keeper) Write(p []byte) (int, error) {
	switch {
	case k.over:
	case len(k.buf)+len(p) > cacheEntryMax:
		k.over, k.buf = true, nil
	default:
		k.buf = append(k.buf, p...)
	}
	return len(p), nil
}
