package repair

import (
	"bytes"
	"crypto/sha256"
	"path/filepath"
	"time"

	"github.com/pitool/pitool/internal/sessionfiles"
	"github.com/pitool/pitool/jsonl"
)

// planHeader makes sure the output starts with exactly one valid v3 header.
func (pl *plan) planHeader(name string) error {
	s, m := pl.a.s, pl.a.m
	pl.idSource = name
	if s.header < 0 {
		return pl.recreateHeader(name)
	}
	h := m.at(s.header)
	pl.idSource = h.id
	var set jsonl.Object
	if !h.hasID {
		id := pl.sessionID(name)
		set.Set("id", jsonl.QuoteString(id))
		pl.fix("header.invalid", h.line, "gave the header the session id %s", id)
	}
	if s.version < jsonl.CurrentVersion {
		set.Set("version", []byte("3"))
		pl.migrateRoles()
		pl.fix("header.legacy-version", h.line, "migrated the session from format v%d to v3", s.version)
	}
	pl.dropOtherHeaders()
	if s.headerFirst {
		if len(set.Keys) > 0 {
			pl.ch(s.header).set = set
		}
		return nil
	}
	obj, err := pl.readObject(s.header)
	if err != nil {
		return err
	}
	applySet(&obj, set)
	pl.header = obj.AppendJSON(nil)
	pl.ch(s.header).drop = dropMoved
	pl.fix("header.not-first", h.line, "moved the session header to the first line")
	return nil
}

// migrateRoles has every custom-role message rewritten, so that v2's
// hookMessage role becomes custom.
func (pl *plan) migrateRoles() {
	pl.migrate = true
	for i := range pl.a.m.n {
		if ix := pl.a.m.ix; ix.Type(i) == jsonl.TypeMessage && ix.MessageRole(i) == jsonl.CustomRole {
			pl.ch(i)
		}
	}
}

func (pl *plan) dropOtherHeaders() {
	m := pl.a.m
	first := pl.a.s.header
	for _, h := range m.headers[1:] {
		i, e := h.entry, m.at(h.entry)
		switch {
		case m.same(i, first):
			pl.ch(i).drop = dropRepeat
			pl.fix("header.duplicate", e.line, "dropped a repeat of the session header")
		default:
			pl.ch(i).drop = dropQuarantine
			pl.fix("header.duplicate", e.line, "moved a second session header (session %q) to the quarantine", e.id)
		}
	}
}

// recreateHeader writes a header for a file that lost it: the id from a Pi
// file name (<timestamp>_<id>.jsonl), the cwd from Pi's folder name, the time
// of the first entry.
func (pl *plan) recreateHeader(name string) error {
	ts, err := pl.firstTimestamp()
	if err != nil {
		return err
	}
	id := pl.sessionID(name)
	cwd, known := sessionfiles.CwdFromFolderName(filepath.Base(filepath.Dir(name)))
	pl.idSource = id
	pl.header = jsonl.AppendHeader(nil, jsonl.Header{ID: id, Timestamp: ts, Cwd: cwd})
	where := "cwd " + cwd + " from the folder name"
	if !known {
		where = "an empty cwd (the folder is not one of Pi's session folders)"
	}
	pl.fix("header.missing", 1, "wrote a session header: id %s, timestamp %s, %s", id, ts, where)
	return nil
}

// sessionID takes the id from a Pi session file name, or makes a UUIDv7 from
// the first entry's time and the file's name.
func (pl *plan) sessionID(name string) string {
	if id, ok := sessionfiles.IDFromFileName(name); ok {
		return id
	}
	ts, _ := pl.firstTimestamp()
	t, ok := jsonl.ParseTimestamp(ts)
	if !ok {
		t = time.Unix(0, 0)
	}
	return uuid7(t, sessionfiles.FileStem(name)+"/"+ts)
}

// uuid7 is a UUIDv7 whose random bits come from seed, so a repair can be
// reproduced.
func uuid7(t time.Time, seed string) string {
	sum := sha256.Sum256([]byte(seed))
	return jsonl.NewSessionID(t, bytes.NewReader(sum[:10]))
}

// firstTimestamp is the first entry's timestamp, or now for a file without
// entries.
func (pl *plan) firstTimestamp() (string, error) {
	for i := range pl.a.m.n {
		if pl.a.m.isHeader(i) {
			continue
		}
		obj, err := pl.readObject(i)
		if err != nil {
			return "", err
		}
		if ts := obj.String("timestamp"); validTimestamp(ts) {
			return ts, nil
		}
	}
	return jsonl.ISOTime(time.Now()), nil
}

// applySet sets (or, for a nil value, deletes) fields of obj through its
// methods. A key written twice in a line counts once, with its last value,
// as JSON.parse reads it: the earlier ones are removed and the last one set
// in place.
func applySet(obj *jsonl.Object, set jsonl.Object) {
	for k, key := range set.Keys {
		keep := 1
		if set.Vals[k] == nil {
			keep = 0
		}
		for n := count(obj, key); n > keep; n-- {
			obj.Delete(key)
		}
		if keep == 1 {
			obj.Set(key, set.Vals[k])
		}
	}
}

func count(obj *jsonl.Object, key string) int {
	n := 0
	for _, k := range obj.Keys {
		if k == key {
			n++
		}
	}
	return n
}
