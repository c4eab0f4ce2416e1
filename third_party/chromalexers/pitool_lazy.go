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
	// pending build the lexers Register and registerLazily were given
	// before the registry was filled: the Go-coded lexers of this package,
	// in package initialisation order, registered after the XML ones as
	// upstream registers them.
	pending []func() chroma.Lexer
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
	for _, build := range pending {
		registry.Register(build())
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
	lexer.SetRegistry(registry)
	if !pend(func() chroma.Lexer { return lexer }) {
		registry.Register(lexer)
	}
	return lexer
}

// registerLazily is Register for the lexers upstream builds at start from
// an XML configuration or with keyword maps: build runs when the registry
// is filled, once, and the function returned gives its lexer.
func registerLazily(build func() chroma.Lexer) func() chroma.Lexer {
	lexer := sync.OnceValue(build)
	if !pend(lexer) {
		registry.Register(lexer())
	}
	return lexer
}

// pend keeps build for the fill and reports true, or reports false when
// the registry is filled already.
func pend(build func() chroma.Lexer) bool {
	mu.Lock()
	defer mu.Unlock()
	if filled {
		return false
	}
	pending = append(pending, build)
	return true
}
