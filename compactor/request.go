package compactor

import (
	"fmt"
	"strings"

	"github.com/pitool/pitool/internal/textout"
	"github.com/pitool/pitool/jsonl"
)

// RequestVerdict is what a compaction does to the request Pi sends next (see
// jsonl.RequestChecker): the tool results a provider refuses at the leaf
// now, and at the compaction once it is written.
type RequestVerdict struct {
	Before int                    // refused results at the leaf now
	Fixed  int                    // of those, summarised away by the compaction
	Left   int                    // of those, still in the request after it
	Added  []jsonl.RequestProblem // refused results the compaction would make
}

// Worse reports whether the compaction would break a result the request
// takes now. CompactFile never writes such a compaction.
func (v RequestVerdict) Worse() bool { return len(v.Added) > 0 }

// String is the verdict as --plan prints it after "request: ".
func (v RequestVerdict) String() string {
	switch {
	case v.Worse():
		return "would orphan " + toolResults(len(v.Added))
	case v.Before == 0:
		return "valid"
	case v.Fixed > 0 && v.Left > 0:
		return fmt.Sprintf("fixes %s, leaves %d as %s", orphaned(v.Fixed), v.Left, textout.Choose(v.Left, "it was", "they were"))
	case v.Fixed > 0:
		return "fixes " + orphaned(v.Fixed)
	}
	return "leaves " + orphaned(v.Left) + " as " + textout.Choose(v.Left, "it was", "they were")
}

func orphaned(n int) string {
	return fmt.Sprintf("%d orphaned %s", n, textout.Choose(n, "tool result", "tool results"))
}

func toolResults(n int) string {
	return textout.Count(n, "tool result")
}

// refusal is why a compaction that makes the request worse is not written.
func (v RequestVerdict) refusal(firstKept string) string {
	results := make([]string, len(v.Added))
	for k, p := range v.Added {
		results[k] = fmt.Sprintf("%s (line %d)", p.Result.ID, p.Result.Line)
	}
	return fmt.Sprintf("a compaction keeping from %s would leave tool results %s without their call, and providers refuse the request",
		firstKept, strings.Join(results, ", "))
}

// CheckRequest is the verdict on a compaction with firstKeptEntryId
// firstKept appended after the leaf of sel, ix's selection there: both
// checks read sel's path rather than walk and keep their own.
func CheckRequest(ix *jsonl.Index, sel *jsonl.Selection, firstKept string) (RequestVerdict, error) {
	c := jsonl.NewRequestChecker(ix)
	before, err := c.CheckSelected(sel)
	if err != nil {
		return RequestVerdict{}, err
	}
	after, err := c.CheckSelectedAfterCompaction(sel, firstKept)
	if err != nil {
		return RequestVerdict{}, err
	}
	refusedBefore := map[int]bool{}
	for _, p := range before {
		refusedBefore[p.Result.Entry] = true
	}
	v := RequestVerdict{Before: len(before)}
	for _, p := range after {
		if refusedBefore[p.Result.Entry] {
			v.Left++
		} else {
			v.Added = append(v.Added, p)
		}
	}
	v.Fixed = v.Before - v.Left
	return v, nil
}
