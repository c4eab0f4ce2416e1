package gen

import (
	"math/rand/v2"
	"strconv"
	"strings"
)

// asciiWords is the vocabulary of generated prose and code.
var asciiWords = []string{
	"session", "branch", "parent", "leaf", "token", "cache", "compaction", "handler", "request",
	"response", "config", "index", "value", "retry", "verify", "build", "error", "path", "tree",
	"file", "hash", "salt", "user", "test", "the", "a", "stream", "buffer", "context", "model",
}

// unicodeWords mixes accented Latin, CJK, Hangul, Greek and emoji (several outside the BMP, so
// UTF-16 and UTF-8 lengths differ). U+2028 and U+2029 are left out on purpose: encoding/json
// escapes them and JSON.stringify does not.
var unicodeWords = []string{
	"ünïcödé", "naïve", "数据", "会话", "分支", "压缩", "テスト", "ファイル", "설정", "세션",
	"Ελληνικά", "🚀", "✅", "🔥", "😀", "𝒳", "👩‍💻", "✓",
}

// projectFiles are the paths tool calls read and change.
var projectFiles = []string{
	"README.md", "go.mod", "src/auth.ts", "src/db/pool.go", "src/math.js", "internal/api/server.go",
	"internal/api/routes.go", "web/app.tsx", "web/index.html", "scripts/deploy.sh", "config/app.yaml",
	"cmd/server/main.go", "pkg/cache/lru.go", "docs/architecture.md", "test/e2e/login.spec.ts",
}

// bashCommands are the commands of bash tool calls and bashExecution messages.
var bashCommands = []string{
	"go test ./...", "npm test", "git status --short", "ls -la src", "make build",
	"grep -rn TODO .", "cargo check", "node src/main.js", "git diff --stat", "go vet ./...",
}

// textGen draws words and lines from the shared random source.
type textGen struct {
	rng     *rand.Rand
	unicode bool
}

// word returns one random word, sometimes a non-ASCII one when Unicode is on.
func (t *textGen) word() string {
	if t.unicode && t.rng.IntN(5) == 0 {
		return unicodeWords[t.rng.IntN(len(unicodeWords))]
	}
	return asciiWords[t.rng.IntN(len(asciiWords))]
}

// pick returns a random element of list.
func (t *textGen) pick(list []string) string {
	return list[t.rng.IntN(len(list))]
}

// words returns n space-separated words.
func (t *textGen) words(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t.word())
	}
	return b.String()
}

// prose returns sentences of about n bytes.
func (t *textGen) prose(n int) string {
	var b strings.Builder
	b.Grow(n + 32)
	for b.Len() < n {
		b.WriteString(t.words(4 + t.rng.IntN(10)))
		b.WriteString(". ")
	}
	return strings.TrimSuffix(b.String(), " ")
}

// codeLine returns one line of Go-like code that quotes a few words.
func (t *textGen) codeLine() string {
	var b strings.Builder
	b.WriteString("func ")
	b.WriteString(t.pick(asciiWords))
	b.WriteString(strconv.Itoa(t.rng.IntN(100)))
	b.WriteByte('(')
	b.WriteString(t.pick(asciiWords))
	b.WriteString(" string) error { return ")
	b.WriteString(t.pick(asciiWords))
	b.WriteString("(\"")
	b.WriteString(t.words(4))
	b.WriteString("\") }")
	if t.unicode && t.rng.IntN(3) == 0 {
		b.WriteString(" // ")
		b.WriteString(t.words(2))
	}
	return b.String()
}

// code returns newline-terminated code lines of about n bytes.
func (t *textGen) code(n int) string {
	var b strings.Builder
	b.Grow(n + 128)
	for b.Len() < n {
		b.WriteString(t.codeLine())
		b.WriteByte('\n')
	}
	return b.String()
}

// grepLines returns "path:line: code" matches of about n bytes.
func (t *textGen) grepLines(n int) string {
	var b strings.Builder
	b.Grow(n + 160)
	for b.Len() < n {
		b.WriteString(t.pick(projectFiles))
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(1 + t.rng.IntN(400)))
		b.WriteString(": ")
		b.WriteString(t.codeLine())
		b.WriteByte('\n')
	}
	return b.String()
}

// sized returns a length around n: uniformly between n/2 and 3n/2.
func (t *textGen) sized(n int) int {
	if n < 2 {
		return n
	}
	return n/2 + t.rng.IntN(n)
}

// alnum returns n random base62 characters, for tool call and response ids.
func (t *textGen) alnum(n int) string {
	const chars = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	b := make([]byte, n)
	for i := range b {
		b[i] = chars[t.rng.IntN(len(chars))]
	}
	return string(b)
}

// hex returns n random lowercase hex characters.
func (t *textGen) hex(n int) string {
	const chars = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = chars[t.rng.IntN(len(chars))]
	}
	return string(b)
}
