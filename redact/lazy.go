package redact

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"sync"
)

// lazyRegexp is a regular expression checked when its rule is loaded and
// compiled the first time it is needed: most of the ~230 rules never fire
// in a given session, and compiling them all would dominate start-up.
type lazyRegexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// newLazy checks expr's syntax now and defers its compilation.
func newLazy(expr string) (*lazyRegexp, error) {
	if _, err := syntax.Parse(expr, syntax.Perl); err != nil {
		return nil, err
	}
	return &lazyRegexp{expr: expr}, nil
}

// get returns the compiled expression. A program that parses but does not
// compile (too large) is reported by panic, which the rule tests exercise
// for every shipped rule.
func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() {
		re, err := regexp.Compile(l.expr)
		if err != nil {
			panic(fmt.Sprintf("redact: rule regexp %q: %v", l.expr, err))
		}
		l.re = re
	})
	return l.re
}

// anchored returns expr, which parses, anchored at the start of its input.
func anchored(expr string) *lazyRegexp {
	return &lazyRegexp{expr: `^(?:` + expr + `)`}
}
