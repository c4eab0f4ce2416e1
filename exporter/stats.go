package exporter

import (
	"fmt"
	"strings"

	"github.com/pitool/pitool/internal/textout"
	"github.com/pitool/pitool/jsonl"
)

// stats are the totals of the entries shown, as Pi's page header counts them.
type stats struct {
	user, assistant, toolResults, custom    int
	compactions, branchSummaries, toolCalls int
	input, output, cacheRead, cacheWrite    float64
	cost                                    float64
	models                                  []string
	seen                                    map[string]bool
}

// add counts a message shown; blocks are the content blocks of an assistant
// message, as its caller decoded them.
func (s *stats) add(m jsonl.Message, blocks []jsonl.Block) {
	switch m.Role {
	case jsonl.RoleUser:
		s.user++
	case jsonl.RoleToolResult:
		s.toolResults++
	case jsonl.RoleAssistant:
		s.assistant++
		s.addModel(m)
		s.addUsage(m.Usage)
		for _, b := range blocks {
			if isToolCall(b) {
				s.toolCalls++
			}
		}
	}
}

func (s *stats) addModel(m jsonl.Message) {
	name := m.Model
	if name == "" {
		return
	}
	if m.Provider != "" {
		name = m.Provider + "/" + name
	}
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	if !s.seen[name] {
		s.seen[name] = true
		s.models = append(s.models, name)
	}
}

func (s *stats) addUsage(u *jsonl.Usage) {
	if u == nil {
		return
	}
	s.input, s.output = s.input+u.Input, s.output+u.Output
	s.cacheRead, s.cacheWrite = s.cacheRead+u.CacheRead, s.cacheWrite+u.CacheWrite
	if c := u.Cost; c != nil {
		total := c.Total
		if total == 0 {
			total = c.Input + c.Output + c.CacheRead + c.CacheWrite
		}
		s.cost += total
	}
}

func (s *stats) messages() string {
	var parts []string
	for _, p := range []struct {
		n    int
		what string // a role, after the count as it is ("2 user"), or a noun counted ("1 compaction")
		noun bool
	}{{s.user, "user", false}, {s.assistant, "assistant", false}, {s.toolResults, "tool result", true}, {s.custom, "custom", false},
		{s.compactions, "compaction", true}, {s.branchSummaries, "branch summary", true}} {
		switch {
		case p.n > 0 && p.noun:
			parts = append(parts, textout.Count(p.n, p.what))
		case p.n > 0:
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.what))
		}
	}
	if len(parts) == 0 {
		return "0"
	}
	return strings.Join(parts, ", ")
}

func (s *stats) tokens() string {
	var parts []string
	for _, p := range []struct {
		n      float64
		prefix string
	}{{s.input, "↑"}, {s.output, "↓"}, {s.cacheRead, "R"}, {s.cacheWrite, "W"}} {
		if p.n > 0 {
			parts = append(parts, p.prefix+formatTokens(p.n))
		}
	}
	if len(parts) == 0 {
		return "0"
	}
	return strings.Join(parts, " ")
}
