package exporter

import (
	"sync"

	"github.com/alecthomas/chroma/v2"
	"github.com/dlclark/regexp2/v2"
	"github.com/pitool/pitool/third_party/chromalexers"
)

// chroma gives every regexp of its lexers a 250 ms match timeout, and a
// match that times out counts as no match: on a loaded machine the same code
// would lex, and so highlight, differently from run to run. The exporter
// lexes with copies of chroma's lexers whose regexps have no timeout. The
// work stays bounded by what is highlighted at all: maxHighlightBytes per
// block and highlightBudget per page.

// untimed returns the copy of lexer without match timeouts. Lexers that are
// not regexp lexers (chroma's delegating and remapping ones, markdown, HTTP)
// are returned as they are: their rules are out of reach.
func untimed(lexer chroma.Lexer) chroma.Lexer {
	untimedLexers() // chroma's own lexers have their copies from here on
	if c, ok := untimedCopies.Load(lexer); ok {
		return c.(chroma.Lexer)
	}
	c, _ := untimedCopies.LoadOrStore(lexer, untimedCopy(lexer))
	return c.(chroma.Lexer)
}

// untimedCopies maps a lexer to its copy without timeouts.
var untimedCopies sync.Map

// untimedLexers registers a copy of every chroma lexer, once, in a registry
// of their own, so that a lexer that hands part of its text to another
// (HTML to CSS and JavaScript, say) finds the other's copy.
var untimedLexers = sync.OnceValue(func() *chroma.LexerRegistry {
	reg := chroma.NewLexerRegistry()
	for _, l := range chromalexers.Registry().Lexers {
		c := untimedCopy(l)
		untimedCopies.Store(l, c)
		reg.Register(c)
	}
	return reg
})

// untimedCopy makes lexer's copy: the same configuration and rules, and a
// first rule that, when the rules are compiled, takes the timeout off every
// regexp and then itself out.
func untimedCopy(lexer chroma.Lexer) chroma.Lexer {
	rl, ok := lexer.(*chroma.RegexLexer)
	if !ok {
		return fixedRegistry{lexer}
	}
	return chroma.MustNewLexer(rl.Config(), func() chroma.Rules {
		rules, err := rl.Rules()
		if err != nil {
			return chroma.Rules{} // no root state: Tokenise fails, and the code is shown plain
		}
		out := make(chroma.Rules, len(rules))
		for state, rs := range rules {
			out[state] = rs
		}
		out["root"] = append([]chroma.Rule{{Mutator: &noTimeout{}}}, rules["root"]...)
		return out
	})
}

// noTimeout is the rule untimedCopy puts first: a chroma.LexerMutator, run
// once when the lexer's rules are compiled, after their regexps.
type noTimeout struct{}

// Mutate implements chroma.Mutator; the rule is gone before any text is lexed.
func (*noTimeout) Mutate(*chroma.LexerState) error { return nil }

// MutateLexer implements chroma.LexerMutator: every regexp waits as long as
// its match takes, and the rule removes itself from every state.
func (m *noTimeout) MutateLexer(rules chroma.CompiledRules, _ string, _ int) error {
	for state, rs := range rules {
		kept := rs[:0:0]
		for _, r := range rs {
			if r.Mutator == m {
				continue
			}
			if r.Regexp != nil {
				r.Regexp.MatchTimeout = regexp2.DefaultMatchTimeout
			}
			kept = append(kept, r)
		}
		rules[state] = kept
	}
	return nil
}

// fixedRegistry keeps a lexer that is not a copy out of the copies'
// registry: registering it would point the shared chroma lexer at that
// registry.
type fixedRegistry struct{ chroma.Lexer }

// SetRegistry implements chroma.Lexer, leaving the lexer's registry alone.
func (f fixedRegistry) SetRegistry(*chroma.LexerRegistry) chroma.Lexer { return f }
