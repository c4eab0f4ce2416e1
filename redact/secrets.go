package redact

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"github.com/pitool/pitool/internal/lazyregexp"
)

// Limits for values taken from a secrets file.
const (
	minFileSecret     = 8   // shorter values would rewrite ordinary words
	minEntropicSecret = 12  // an assignment with an innocent name must be this long
	fileSecretEntropy = 3.5 // and this random
	maxSecretsLine    = 1 << 20
)

var (
	assignLine  = lazyregexp.New(`^(?:export[ \t]+|set[ \t]+-x[ \t]+|setenv[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)[ \t]*[= \t][ \t]*(.*)$`)
	secretyName = lazyregexp.New(`(?i)key|token|secret|pass|pwd|auth|cred|api|private|session|cookie`)
)

// ReadSecretsFile reads literal secrets from a file such as a shell rc or an
// .env file: the values of NAME=value lines (export and quotes allowed)
// whose name looks secret or whose value looks random, and lines holding a
// single bare token. Comments and short values are skipped.
func ReadSecretsFile(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("secrets file: %w", err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, maxSecretsLine)
	for sc.Scan() {
		if v := secretOfLine(sc.Text()); v != "" {
			out = append(out, v)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("secrets file %s: %w", path, err)
	}
	return out, nil
}

// secretOfLine returns the secret a line of a secrets file holds, or "".
func secretOfLine(line string) string {
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return ""
	}
	m := assignLine.FindStringSubmatch(line)
	if m == nil {
		if !strings.ContainsAny(line, " \t") && len(line) >= minFileSecret {
			return line
		}
		return ""
	}
	value := unquote(strings.TrimSpace(m[2]))
	if len(value) < minFileSecret || strings.ContainsAny(value, "$`") {
		return ""
	}
	if secretyName.MatchString(m[1]) || len(value) >= minEntropicSecret && entropy(value) > fileSecretEntropy {
		return value
	}
	return ""
}

func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	if i := strings.Index(v, " #"); i >= 0 {
		return strings.TrimSpace(v[:i])
	}
	return v
}
