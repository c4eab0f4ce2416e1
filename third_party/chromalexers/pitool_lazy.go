// Package chromalexers is chroma's lexers package (github.com/alecthomas/chroma/v2/lexers),
// copied with one change: its registry is filled on the first lookup instead of at program
// start, where parsing 279 embedded XML lexer configurations cost every pitool process 6 ms.
// README.md says what is patched; scripts/update-chroma-lexers.sh re-copies it.
package chromalexers

import (
	"io/fs"
	"sync"

	"github.com/alecthomas/chroma/v2"
)

// registry holds every lexer once Registry has filled it. The lexers
// registered before then keep it as their registry (chroma.Using looks up
// the lexers it delegates to there).
var registry = chroma.NewLexerRegistry()

var (
	// mu guards filled and pending: Register may run beside the first lookup.
	mu sync.Mutex
	// filled is set once Registry has registered every lexer.
	filled bool
	// pending are the lexers Register was given before the registry was
	// filled: the Go-coded lexers of this package, in package initialisation
	// order, registered after the XML ones as upstream registers them.
	pending []chroma.Lexer
	// fillOnce fills the registry on the first lookup.
	fillOnce sync.Once
)

// Registry is upstream's GlobalLexerRegistry, filled on its first call as
// upstream fills it at start: the embedded XML lexers in file name order,
// then the lexers given to Register, then the analysers upstream sets in
// init functions. The order decides which of two lexers with the same name
// or alias a lookup finds, so it is upstream's.
func Registry() *chroma.LexerRegistry {
	fillOnce.Do(fill)
	return registry
}

// fill registers every lexer, as upstream's package initialisation does.
func fill() {
	mu.Lock()
	defer mu.Unlock()
	paths, err := fs.Glob(embedded, "embedded/*.xml")
	if err != nil {
		panic(err)
	}
	for _, path := range paths {
		registry.Register(chroma.MustNewXMLLexer(embedded, path))
	}
	for _, lexer := range pending {
		registry.Register(lexer)
	}
	pending, filled = nil, true
	setDNSAnalyser()
	setMySQLAnalyser()
	setZedAnalyser()
}

// register is Register: before the registry is filled the lexer waits in
// pending, so that it comes after the XML lexers; afterwards it is
// registered at once, as upstream does.
func register(lexer chroma.Lexer) chroma.Lexer {
	mu.Lock()
	defer mu.Unlock()
	if !filled {
		lexer.SetRegistry(registry)
		pending = append(pending, lexer)
		return lexer
	}
	return registry.Register(lexer)
}
