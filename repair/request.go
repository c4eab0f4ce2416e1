package repair

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/pitool/pitool/internal/textout"
	"github.com/pitool/pitool/jsonl"
)

// The request check (jsonl.RequestChecker) runs on an index of the input as
// Pi loads it, built from the lines of the model's scan (jsonl.LoadIndexer,
// the index jsonl.IndexReaderAt makes of the same bytes), not on the
// structure's index: that one is fed from repair's model, holds the
// objects of lines Pi drops, and cannot decode the messages the check reads.
// A result whose call is on no branch above it, only in a failed turn, or
// after it (causes not-on-path, failed-turn and order) is left to
// tools.orphan-result, which reports and repairs it already: the user is told
// once.

// requestCodes names the finding of each problem at the active leaf.
var requestCodes = map[jsonl.RequestProblemKind]string{
	jsonl.CallAbsent:        "request.orphan-result",
	jsonl.CallInEarlierTurn: "request.call-in-earlier-turn",
	jsonl.AnsweredTwice:     "request.answered-twice",
}

// loadIndexer starts the index of the input as Pi loads it, which the
// model's scan feeds; nil when the input cannot be read again (a stream).
// size is the input's size if known (0: not), for which the index makes room.
func loadIndexer(ra io.ReaderAt, name string, size int64) *jsonl.LoadIndexer {
	if ra == nil {
		return nil
	}
	return jsonl.NewLoadIndexer(name, ra, size)
}

// requestIndex is the index load built, nil without one.
func requestIndex(load *jsonl.LoadIndexer) *jsonl.Index {
	if load == nil {
		return nil
	}
	return load.Index()
}

// requestProblems checks the request at every leaf of ix, leaving out the
// problems tools.orphan-result covers. A leaf whose request cannot be
// built (its entries do not decode) is the damage other findings tell.
func requestProblems(ix *jsonl.Index) []jsonl.LeafRequest {
	if ix == nil {
		return nil
	}
	leaves, err := jsonl.NewRequestChecker(ix).CheckEveryLeaf()
	if err != nil {
		return nil
	}
	for k := range leaves {
		var kept []jsonl.RequestProblem
		for _, p := range leaves[k].Problems {
			if !coveredByOrphanResult(p.Cause) {
				kept = append(kept, p)
			}
		}
		leaves[k].Problems = kept
	}
	return leaves
}

// coveredByOrphanResult reports whether a problem's result has no call
// above it on its raw branch, which tools.orphan-result reports.
func coveredByOrphanResult(c jsonl.RequestCause) bool {
	return c == jsonl.CauseNotOnPath || c == jsonl.CauseFailedTurn || c == jsonl.CauseOrder
}

// activeProblems is the active leaf's share of leaves.
func activeProblems(leaves []jsonl.LeafRequest) []jsonl.RequestProblem {
	if len(leaves) > 0 && leaves[0].Active {
		return leaves[0].Problems
	}
	return nil
}

// reportRequests adds the findings of the request check: an error per
// problem at the active leaf, and a note per (result, kind) found only at
// other leaves, naming how many leaves share it.
func reportRequests(ix *jsonl.Index, leaves []jsonl.LeafRequest, fs *findings) {
	type key struct {
		result int
		kind   jsonl.RequestProblemKind
	}
	seen := map[key]bool{}
	var order []jsonl.RequestProblem
	count := map[key]int{}
	for _, lr := range leaves {
		for _, p := range lr.Problems {
			k := key{p.Result.Entry, p.Kind}
			if lr.Active {
				seen[k] = true
				fs.add(requestCodes[p.Kind], p.Result.Line, ix.Offset(p.Result.Entry), "%s", describeProblem(p))
				continue
			}
			if seen[k] {
				continue
			}
			if count[k] == 0 {
				order = append(order, p)
			}
			count[k]++
		}
	}
	for _, p := range order {
		n := count[key{p.Result.Entry, p.Kind}]
		fs.add("request.other-leaf", p.Result.Line, ix.Offset(p.Result.Entry), "%s, at %s that %s not active", describeProblem(p), textout.Count(n, "leaf"), textout.Choose(n, "is", "are"))
	}
}

// describeProblem says, for a finding, what a provider refuses and why.
func describeProblem(p jsonl.RequestProblem) string {
	s := fmt.Sprintf("the request Pi sends holds tool result %s for call %s", p.Result.ID, p.ToolCallID)
	call := ""
	if p.Call.Entry != jsonl.None {
		call = fmt.Sprintf(" (in %s, line %d)", p.Call.ID, p.Call.Line)
	}
	by := ""
	if p.By.Entry != jsonl.None {
		by = fmt.Sprintf(" %s (line %d)", p.By.ID, p.By.Line)
	}
	switch p.Cause {
	case jsonl.CauseCompaction:
		s += fmt.Sprintf(", whose call%s compaction%s summarised away", call, by)
	case jsonl.CauseEditDropped:
		s += fmt.Sprintf(", whose call%s context_edit%s drops", call, by)
	case jsonl.CauseEditReplaced:
		s += fmt.Sprintf(", whose call%s context_edit%s replaces with content that holds no such call", call, by)
	case jsonl.CauseFailedTurn:
		s += fmt.Sprintf(", whose call%s is in a turn that stopped with an error, which Pi leaves out", call)
	case jsonl.CauseOrder:
		s += fmt.Sprintf(", whose call%s comes after it", call)
	case jsonl.CauseInterrupted:
		s += fmt.Sprintf(", whose call%s is cut off from it by message%s", call, by)
	case jsonl.CauseRepeated:
		s += fmt.Sprintf(", whose call%s was already answered by%s", call, by)
	}
	if p.Kind == jsonl.AnsweredTwice {
		return s + "; providers take one result per call and reject the request"
	}
	return s + "; providers reject the request (400 No tool call found)"
}

// planRequest appends the entries jsonl.Index.RequestFix makes for the
// active leaf's problems: context_edits that drop the refused results, after
// everything else, so a file that needs no other repair keeps every byte
// where it was. It does so when the other repairs keep every entry Pi loads
// with its id and the active leaf last (they only set fields or insert
// results before a turn); otherwise they come first and the next run fixes
// the request.
func (pl *plan) planRequest() error {
	ix := pl.a.requestIx
	problems := activeProblems(pl.a.requests)
	if len(problems) == 0 || ix.Version != jsonl.CurrentVersion || !pl.keepsEntries() {
		return nil
	}
	leaf := ix.ActiveLeaf()
	now, err := pl.entryTime(leaf)
	if err != nil {
		return err
	}
	edits := ix.RequestFix(problems, leaf, now, &hashStream{seed: pl.idSource + "/request/"})
	for _, e := range edits {
		pl.tail = append(pl.tail, e.AppendJSON(nil))
	}
	for _, e := range edits {
		for _, p := range problems {
			if p.Result.ID == e.String("targetId") {
				pl.fix(requestCodes[p.Kind], p.Result.Line, "appended context_edit %s, which drops tool result %s (call %s) from the request; Pi's /tree shows it and can go back before it", e.String("id"), p.Result.ID, p.ToolCallID)
				break
			}
		}
	}
	return nil
}

// entryTime is the time of index entry i, the time of the edits appended
// after it so a repair can be reproduced; the epoch when it has none.
func (pl *plan) entryTime(i int) (time.Time, error) {
	e, err := pl.a.requestIx.Decode(i)
	if err != nil {
		return time.Time{}, err
	}
	s, _ := jsonl.DecodeString(e.Obj.Get("timestamp"))
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Unix(0, 0).UTC(), nil
	}
	return t, nil
}

// keepsEntries reports whether the plan writes exactly the entries Pi loads
// (those of the request index), in order, with their ids, and nothing after
// the last: then the edits RequestFix chains from the active leaf fit the
// output.
func (pl *plan) keepsEntries() bool {
	m, rix := pl.a.m, pl.a.requestIx
	var written []string
	last := -1
	for i := range m.n {
		if !m.isHeader(i) && !pl.removed[i] {
			written = append(written, pl.newID[i])
			last = i
		}
	}
	var loaded []string
	for i := range rix.Len() {
		if rix.IsNode(i) {
			loaded = append(loaded, rix.ID(i))
		}
	}
	return slices.Equal(written, loaded) && (last < 0 || pl.changes[last] == nil || len(pl.changes[last].after) == 0)
}
