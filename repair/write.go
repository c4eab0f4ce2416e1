package repair

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/pitool/pitool/jsonl"
)

// readLine reads a physical line back, normalised as the scanner did.
func (pl *plan) readLine(l lineRec) ([]byte, error) { return pl.a.m.readLine(l) }

// readObject reads entry i back as an order-preserving object.
func (pl *plan) readObject(i int) (jsonl.Object, error) {
	text, err := pl.a.m.objectText(i)
	if err != nil {
		return jsonl.Object{}, err
	}
	return jsonl.ParseObject(text)
}

// writer applies a plan: untouched byte ranges are copied as they are, without
// decoding; visited lines are rewritten object by object.
type writer struct {
	pl      *plan
	out     *jsonl.Writer
	q       io.Writer // the quarantine, nil when the plan needs none
	r       jsonl.Reader
	a       analysis
	copied  int64
	qBytes  int64
	qPieces int
}

// write writes the output from byte from of the input on (the bytes before
// it were already copied).
func (pl *plan) write(ctx context.Context, out *jsonl.Writer, q io.Writer, from, size int64) (*writer, error) {
	w := &writer{pl: pl, out: out, copied: from}
	if q != nil {
		w.q = bufio.NewWriterSize(q, 64<<10) // one write per quarantined line would be a syscall each
	}
	if pl.header != nil {
		if err := out.WriteLine(pl.header); err != nil {
			return nil, err
		}
	}
	pos := from
	for _, l := range pl.visit {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err := w.copyRange(pos, l.off); err != nil {
			return nil, err
		}
		if err := w.rewriteLine(l); err != nil {
			return nil, err
		}
		pos = l.off + int64(l.len)
	}
	if err := w.copyRange(pos, size); err != nil {
		return nil, err
	}
	for _, line := range pl.tail {
		if err := out.WriteLine(line); err != nil {
			return nil, err
		}
	}
	if bq, ok := w.q.(*bufio.Writer); ok {
		return w, bq.Flush()
	}
	return w, nil
}

// cleanPrefix is how many bytes at the start of the input the output keeps
// as they are.
func (pl *plan) cleanPrefix() int64 {
	if pl.header != nil {
		return 0
	}
	if len(pl.visit) == 0 {
		return pl.a.m.bytes
	}
	return pl.visit[0].off
}

// copyPrefix copies the clean prefix of a plain input file straight into
// the output file, so the kernel copies it (copy_file_range: no copy through
// user space, and shared extents on file systems that support them).
func (pl *plan) copyPrefix(dst io.Writer) (int64, error) {
	out, okOut := dst.(*os.File)
	in, okIn := pl.ra.(*os.File)
	n := pl.cleanPrefix()
	if !okOut || !okIn || n == 0 {
		return 0, nil
	}
	if _, err := in.Seek(0, io.SeekStart); err != nil {
		return 0, err
	}
	copied, err := io.Copy(out, io.LimitReader(in, n))
	if err == nil && copied != n {
		err = fmt.Errorf("copy the first %d bytes: the input ended after %d", n, copied)
	}
	return copied, err
}

func (w *writer) copyRange(from, to int64) error {
	if to <= from {
		return nil
	}
	n, err := io.Copy(w.out, io.NewSectionReader(w.pl.ra, from, to-from))
	w.copied += n
	if err != nil {
		return fmt.Errorf("copy bytes %d-%d: %w", from, to, err)
	}
	return nil
}

// rewriteLine writes the objects of a visited line and sends its junk to the
// quarantine.
func (w *writer) rewriteLine(l lineRec) error {
	if l.lines > 1 {
		return w.rewriteRun(l)
	}
	raw, err := w.pl.readLine(l)
	if err != nil {
		return err
	}
	analyse(&w.r, raw, &w.a)
	if len(w.a.segs) == 0 {
		return w.wholeLine(raw)
	}
	for _, pc := range w.a.junk {
		if err := w.quarantine(w.a.text[pc.start:pc.end]); err != nil {
			return err
		}
	}
	first := w.pl.firstEntry(l.num)
	for k, s := range w.a.segs {
		if err := w.object(first+k, w.a.text[s.start:s.end]); err != nil {
			return err
		}
	}
	return nil
}

// rewriteRun rewrites a run of lines without objects, one line at a time:
// blank lines are dropped and the others go to the quarantine as they are.
func (w *writer) rewriteRun(run lineRec) error {
	sc := jsonl.NewScanner(io.NewSectionReader(w.pl.ra, run.off, int64(run.len)), w.pl.a.m.name)
	for sc.Scan() {
		l := sc.Line()
		raw := l.Bytes
		if l.BOM && run.num > 1 { // only the file's first line has a byte-order mark
			raw = append(append([]byte(nil), bom...), raw...)
		}
		analyse(&w.r, raw, &w.a)
		if err := w.wholeLine(raw); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read back lines %d to %d: %w", run.num, run.num+run.lines-1, err)
	}
	return nil
}

// wholeLine handles a line without any object: blank and NUL-only lines are
// dropped, anything else goes to the quarantine exactly as it was.
func (w *writer) wholeLine(raw []byte) error {
	if w.a.blank {
		return nil
	}
	return w.quarantine(raw)
}

// object writes entry i, whose normalised bytes are text, as the plan says.
func (w *writer) object(i int, text []byte) error {
	c := w.pl.changes[i]
	if c == nil {
		return w.out.WriteLine(text)
	}
	for _, line := range c.before {
		if err := w.out.WriteLine(line); err != nil {
			return err
		}
	}
	if err := w.objectItself(i, c, text); err != nil {
		return err
	}
	for _, line := range c.after {
		if err := w.out.WriteLine(line); err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) objectItself(i int, c *change, text []byte) error {
	switch c.drop {
	case dropRepeat, dropMoved:
		return nil
	case dropQuarantine:
		return w.quarantine(text)
	}
	migrate := w.pl.migrate && w.pl.a.m.ix.Type(i) == jsonl.TypeMessage
	if len(c.set.Keys) == 0 && c.tool == "" && !migrate {
		return w.out.WriteLine(text)
	}
	obj, err := jsonl.ParseObject(text)
	if err != nil {
		ix := w.pl.a.m.ix
		return &jsonl.PosError{File: w.pl.a.m.name, Line: ix.LineNum(i), Offset: ix.Offset(i), Err: err}
	}
	applySet(&obj, c.set)
	if c.tool != "" || migrate {
		editMessage(&obj, c.tool)
	}
	return w.out.WriteObject(obj)
}

// editMessage renames v2's hookMessage role to custom and sets a corrected
// toolName.
func editMessage(obj *jsonl.Object, tool string) {
	msg, err := jsonl.ParseObject(obj.Get("message"))
	if err != nil {
		return
	}
	changed := false
	if msg.String("role") == jsonl.RoleHookMessage {
		msg.Set("role", jsonl.QuoteString(jsonl.RoleCustom))
		changed = true
	}
	if tool != "" {
		msg.Set("toolName", jsonl.QuoteString(tool))
		changed = true
	}
	if changed {
		obj.Set("message", msg.AppendJSON(nil))
	}
}

func (w *writer) quarantine(b []byte) error {
	if w.q == nil {
		return fmt.Errorf("internal error: the plan has no quarantine for %d bytes", len(b))
	}
	w.qBytes += int64(len(b))
	w.qPieces++
	if _, err := w.q.Write(b); err != nil {
		return err
	}
	_, err := w.q.Write([]byte{'\n'})
	return err
}

// firstEntry returns the index of the first object on a line.
func (pl *plan) firstEntry(line int) int {
	ix := pl.a.m.ix
	return sort.Search(pl.a.m.n, func(i int) bool { return ix.LineNum(i) >= line })
}
