package jsonl_test

import (
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/pitool/pitool/internal/testref"
	"github.com/pitool/pitool/jsonl"
)

// usageFiles are the sessions whose usage is checked against Pi's: every
// conformance file, the damaged ones Pi opens, the secrets session, and
// one with usage of every kind.
var usageFiles = append(append([]string{}, conformanceFiles...),
	"corrupt/compaction-missing-kept.jsonl", "corrupt/dangling-parent.jsonl", "corrupt/duplicate-flush.jsonl",
	"corrupt/duplicate-ids.jsonl", "corrupt/garbage-line.jsonl", "corrupt/joined-lines.jsonl",
	"corrupt/nul-tail.jsonl", "corrupt/parent-cycle.jsonl", "corrupt/truncated-tail.jsonl",
	"secrets/session.jsonl", "../handmade/usage-kinds.jsonl")

// piUsage is one row of Pi's getUsageCostBreakdown (what /session prints).
type piUsage struct {
	Key    string  `json:"key"`
	Cost   float64 `json:"cost"`
	Tokens float64 `json:"tokens"`
}

// TestChargesAgreeWithPi: Index.Charges, grouped by provider/model as
// /session groups them, gives Pi's tokens and cost for every group, and
// Info's totals are their sum.
func TestChargesAgreeWithPi(t *testing.T) {
	for _, rel := range usageFiles {
		t.Run(rel, func(t *testing.T) {
			var want []piUsage
			if err := json.Unmarshal(testref.Golden(t, goldenPath(rel, "usage"), "usage", testref.Corpus(rel)), &want); err != nil {
				t.Fatal(err)
			}
			ix := indexCorpus(t, rel)
			got := map[string]*piUsage{}
			err := ix.Charges(func(_ int, c jsonl.Charge) error {
				key := c.Provider + "/" + c.Model
				if c.Model == jsonl.ToolsAndSummaries {
					key = c.Model
				}
				if got[key] == nil {
					got[key] = &piUsage{Key: key}
				}
				u := c.Usage
				got[key].Tokens += u.Input + u.Output + u.CacheRead + u.CacheWrite
				got[key].Cost += u.CostTotal()
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			var wantTokens, wantCost float64
			for _, w := range want {
				g := got[w.Key]
				if g == nil || g.Tokens != w.Tokens || !closeTo(g.Cost, w.Cost) {
					t.Errorf("%s: pitool %+v, Pi %+v", w.Key, g, w)
				}
				delete(got, w.Key)
				wantTokens, wantCost = wantTokens+w.Tokens, wantCost+w.Cost
			}
			for k, g := range got {
				if g.Tokens != 0 || g.Cost != 0 {
					t.Errorf("%s: pitool %+v, Pi has no such group", k, g)
				}
			}
			info, err := ix.Info(rel, time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			if tk := info.Tokens; tk.Input+tk.Output+tk.CacheRead+tk.CacheWrite != wantTokens || !closeTo(info.Cost, wantCost) {
				t.Errorf("info: %+v $%v, Pi %v tokens $%v", tk, info.Cost, wantTokens, wantCost)
			}
		})
	}
}

// closeTo compares costs summed in a different order.
func closeTo(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
