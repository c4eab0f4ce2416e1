package stats

// Counting a billed entry once across a folder. Pi's /clone and /fork (and
// pitool clone and fork) write the history they copy into a new session file,
// billed assistant messages included, and a plain copy of a file holds all of
// it again; Pi's /session counts each file's copies, so a folder summed file
// by file counts one answer as many times as it has been copied. Collect
// counts an entry that an earlier file already held under that file only.
//
// The identity of an entry is a 16-byte hash of the entry's top-level
// members as written, without "parentId" and, for a compaction, without
// "firstKeptEntryId": every other field is in it, the entry's type, id and
// timestamp, and the whole message (role, content, provider, model,
// responseModel, responseId, usage, stop reason, the message's own
// timestamp) or the usage entry's fields. A copy writes every entry as
// {...entry, parentId} in JSON.stringify's form, the form Pi writes: the id,
// the timestamp and the message are kept byte for byte, and only parentId
// moves (around the label entries a clone drops, as does a compaction's
// firstKeptEntryId that pointed at one), so a copy reproduces the identity
// exactly. Two different billed entries differ in something that is in it:
// two answers never share an id within a file, and across files they have
// their own random ids, text and timestamps, so sharing a timestamp and a
// token total (the key ccusage deduplicates by) does not merge them. A line
// not in JSON.stringify's form (edited by hand: spaces, other escapes) that a
// copy rewrites counts again in the copy: the rule may count twice, never
// merge two.

import (
	"context"
	"encoding/binary"
	"hash/maphash"
	"sort"
	"time"

	"github.com/pitool/pitool/internal/parallel"
	"github.com/pitool/pitool/jsonl"
)

// identity is the key of a billed entry that every copy of it has.
type identity [16]byte

// identitySeeds key the two 64-bit halves of an identity: hash/maphash is
// fast, and keyed afresh in every run, so that no file can be made to
// collide with another's entries.
var identitySeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// identityOf returns the identity of entry i of ix (see above): its
// top-level members as JSON.stringify writes them, parentId (and a
// compaction's firstKeptEntryId) left out, the values as written.
func identityOf(ix *jsonl.Index, i int, buf []byte) (identity, []byte, error) {
	e, err := ix.DecodeOuter(i)
	if err != nil {
		return identity{}, buf, err
	}
	buf = buf[:0]
	for k, key := range e.Obj.Keys {
		v := e.Obj.Vals[k]
		if v == nil || key == "parentId" || (e.Type == jsonl.TypeCompaction && key == jsonl.RefFirstKept.String()) {
			continue
		}
		buf = jsonl.AppendString(buf, key)
		buf = append(buf, ':')
		buf = append(buf, v...)
		buf = append(buf, ',')
	}
	var id identity
	binary.LittleEndian.PutUint64(id[:8], maphash.Bytes(identitySeeds[0], buf))
	binary.LittleEndian.PutUint64(id[8:], maphash.Bytes(identitySeeds[1], buf))
	return id, buf, nil
}

// billed is one charge of a file, as the merge needs it.
type billed struct {
	id                                         identity
	group                                      int32 // index in fileCharges.groups
	input, output, cacheRead, cacheWrite, cost float64
}

// fileCharges is what one file bills, entry by entry.
type fileCharges struct {
	groups []string
	items  []billed
	err    error
}

// readCharges reads a file's charges in the time range with their
// identities and groups.
func readCharges(name string, opts *Options) (fc fileCharges) {
	ix, closeFn, err := jsonl.IndexFile(name, opts.Stdin)
	if err != nil {
		return fileCharges{err: err}
	}
	defer closeFn()
	groupIdx := map[string]int32{}
	var buf []byte
	fc.err = ix.Charges(func(i int, c jsonl.Charge) error {
		t, timed := jsonl.ParseTimestamp(c.Timestamp)
		if !inRange(opts, t, timed) {
			return nil
		}
		var id identity
		id, buf, err = identityOf(ix, i, buf)
		if err != nil {
			return err
		}
		k := key(opts.By, &c, t, timed, ix, name)
		g, ok := groupIdx[k]
		if !ok {
			g = int32(len(fc.groups))
			groupIdx[k] = g
			fc.groups = append(fc.groups, k)
		}
		u := &c.Usage
		fc.items = append(fc.items, billed{id, g, u.Input, u.Output, u.CacheRead, u.CacheWrite, u.CostTotal()})
		return nil
	})
	return fc
}

// inRange reports whether an entry's time is in the range of opts.
func inRange(opts *Options, t time.Time, timed bool) bool {
	if opts.Since.IsZero() && opts.Until.IsZero() {
		return true
	}
	return timed && !t.Before(opts.Since) && (opts.Until.IsZero() || t.Before(opts.Until))
}

// collectOnce is Collect counting each billed entry once, under the first
// file that holds it in firstOrder.
func collectOnce(ctx context.Context, files []string, opts Options) (*Report, []FileError) {
	order := firstOrder(files)
	rep := &Report{By: opts.By, Total: Row{Key: "total"}}
	var failed []FileError
	merged := map[string]*Row{}
	seen := map[identity]struct{}{}
	sessions := 0
	parallel.InOrder(ctx, len(order), opts.Workers,
		func(k int) fileCharges { return readCharges(order[k], &opts) },
		func(k int, fc fileCharges) {
			if fc.err != nil {
				failed = append(failed, FileError{order[k], fc.err})
				return
			}
			rows := make([]*Row, len(fc.groups))
			for j := range fc.items {
				b := &fc.items[j]
				if _, dup := seen[b.id]; dup {
					rep.Repeated++
					continue
				}
				r := rows[b.group]
				if r == nil {
					r = &Row{Key: fc.groups[b.group], Sessions: 1}
					rows[b.group] = r
				}
				r.Input += b.input
				r.Output += b.output
				r.CacheRead += b.cacheRead
				r.CacheWrite += b.cacheWrite
				r.TotalTokens += b.input + b.output + b.cacheRead + b.cacheWrite
				r.Cost += b.cost
				r.Entries++
			}
			// Only now: the same identity twice in one file (entries without
			// an id) counts twice, as Pi counts it in that file.
			for j := range fc.items {
				seen[fc.items[j].id] = struct{}{}
			}
			counted := false
			for _, r := range rows {
				if r == nil {
					continue
				}
				counted = true
				if merged[r.Key] == nil {
					merged[r.Key] = &Row{Key: r.Key}
				}
				merged[r.Key].merge(r)
				rep.Total.merge(r)
			}
			if counted {
				sessions++
			}
		})
	sort.Slice(failed, func(i, j int) bool { return failed[i].File < failed[j].File })
	rep.Total.Sessions = sessions
	for _, r := range merged {
		rep.Rows = append(rep.Rows, *r)
	}
	sortRows(rep.Rows, opts.By)
	if rep.Rows == nil {
		rep.Rows = []Row{}
	}
	return rep, failed
}

// firstOrder sorts the files by the time in their session header, earliest
// first, then by path; a file whose header time cannot be read (standard
// input, a file without a header) comes after those, by path. An entry is
// counted under the first file of this order that holds it: the session it
// was copied from, whose header is older than the copy's, and of two plain
// copies the one with the lesser path, however the folder was walked.
func firstOrder(files []string) []string {
	type ranked struct {
		name  string
		t     time.Time
		known bool
	}
	rs := make([]ranked, len(files))
	parallel.Each(context.Background(), len(files), 0, func() func(int) {
		return func(i int) {
			t, ok := headerTime(files[i])
			rs[i] = ranked{files[i], t, ok}
		}
	})
	sort.SliceStable(rs, func(i, j int) bool {
		a, b := rs[i], rs[j]
		if a.known != b.known {
			return a.known
		}
		if a.known && !a.t.Equal(b.t) {
			return a.t.Before(b.t)
		}
		return a.name < b.name
	})
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.name
	}
	return out
}

// headerTime is the timestamp of a file's session header
// (jsonl.FileHeader: standard input, which can be read only once, and a file
// that is not a regular one are not read).
func headerTime(name string) (time.Time, bool) {
	h, ok := jsonl.FileHeader(name)
	if !ok {
		return time.Time{}, false
	}
	return jsonl.ParseTimestamp(h.Timestamp)
}
