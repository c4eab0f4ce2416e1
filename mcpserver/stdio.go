package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Stdio is the stdio transport on in and out, which answers every request
// read before in ends: the SDK's closes the connection at the end of its
// input and drops the calls still running, so `printf REQUESTS | pitool
// mcp` would print only the first answer. Here the end of in waits until
// as many answers as requests have been written. out is not closed.
func Stdio(in io.Reader, out io.Writer) mcp.Transport {
	d := &drain{}
	d.cond = sync.NewCond(&d.mu)
	pr, pw := io.Pipe()
	go d.forward(bufio.NewReader(in), pw)
	return &mcp.IOTransport{Reader: pr, Writer: &answers{d: d, w: out}}
}

// drain counts the requests read and the answers written.
type drain struct {
	mu                 sync.Mutex
	cond               *sync.Cond
	requests, answered int
}

// message is what a line of JSON-RPC says of itself: a request has a method
// and an id, an answer an id and no method.
type message struct {
	ID     *json.RawMessage `json:"id"`
	Method string           `json:"method"`
}

// forward copies in to pw line by line, counting the requests; at the end
// of in it waits for their answers before it ends pw.
func (d *drain) forward(in *bufio.Reader, pw *io.PipeWriter) {
	for {
		line, err := in.ReadBytes('\n')
		var m message
		if len(line) > 0 && json.Unmarshal(line, &m) == nil {
			switch {
			case m.ID != nil && m.Method != "":
				d.count(&d.requests, 1)
			case m.Method == "notifications/cancelled": // a cancelled call need not be answered
				d.count(&d.requests, -1)
			}
		}
		if _, werr := pw.Write(line); werr != nil {
			return
		}
		if err != nil {
			d.waitAnswered()
			if errors.Is(err, io.EOF) {
				err = nil
			}
			pw.CloseWithError(err)
			return
		}
	}
}

func (d *drain) count(n *int, by int) {
	d.mu.Lock()
	*n += by
	d.mu.Unlock()
	d.cond.Broadcast()
}

func (d *drain) waitAnswered() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for d.answered < d.requests {
		d.cond.Wait()
	}
}

// answers is the transport's output: it counts the answers in what the
// server writes, a message at a time, and never closes w.
type answers struct {
	d       *drain
	w       io.Writer
	partial []byte
}

func (a *answers) Write(p []byte) (int, error) {
	n, err := a.w.Write(p)
	a.partial = append(a.partial, p[:n]...)
	for {
		i := bytes.IndexByte(a.partial, '\n')
		if i < 0 {
			break
		}
		var m message
		if json.Unmarshal(a.partial[:i], &m) == nil && m.ID != nil && m.Method == "" {
			a.d.count(&a.d.answered, 1)
		}
		a.partial = a.partial[i+1:]
	}
	return n, err
}

func (a *answers) Close() error { return nil }
