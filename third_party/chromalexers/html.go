package chromalexers

import (
	"sync"

	"github.com/alecthomas/chroma/v2"
)

// HTML lexer.
var HTML = sync.OnceValue(func() chroma.Lexer { return chroma.MustNewXMLLexer(embedded, "embedded/html.xml") })
