package redact

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
)

// saltBytes is the size of the random per-run salt.
const saltBytes = 32

// Options selects the rules and rewrites of a Redactor.
type Options struct {
	Salt           string    // keys the placeholder hashes; empty means a random per-run salt
	Rules          []*Config // extra rules and allowlists (--rules), after the defaults
	Secrets        []string  // literal values to redact wherever they appear
	PII            bool      // also emails, phone numbers and IP addresses
	Paths          bool      // also home folders and user names in paths
	DropSignatures bool      // remove thinking/thought/text signatures
	DropImages     bool      // replace image data with a 1×1 placeholder image
}

// Finding is one replaced value. It never holds the value itself.
type Finding struct {
	Rule        string `json:"rule"`
	JSONPath    string `json:"path"`
	Line        int    `json:"line,omitempty"` // set by callers that know it (Stream does)
	Preview     string `json:"preview"`        // masked: "****(N bytes)", no byte of the secret
	EntryType   string `json:"entryType,omitempty"`
	Placeholder string `json:"placeholder"`
}

// ErrNotJSON marks a line that is not a JSON object or array: RedactLine
// redacts it as plain text and returns this error (wrapped, with the byte
// position) alongside the output.
var ErrNotJSON = errors.New("line is not valid JSON; redacted as plain text")

// Redactor finds and replaces secrets in session lines. It is safe for
// concurrent use; placeholders are consistent across all its calls.
type Redactor struct {
	rs    *ruleset
	opts  Options
	key   []byte
	pool  sync.Pool
	mu    sync.Mutex
	cache map[string]string
	clean map[string]bool // words of Pi's format no rule finds anything in
}

// New compiles the default rules plus opts into a Redactor.
func New(opts Options) (*Redactor, error) {
	cfg, err := buildConfig(opts)
	if err != nil {
		return nil, err
	}
	rs, err := compileConfig(cfg, opts.Secrets)
	if err != nil {
		return nil, err
	}
	key := []byte(opts.Salt)
	if opts.Salt == "" {
		key = make([]byte, saltBytes)
		if _, err := rand.Read(key); err != nil {
			return nil, fmt.Errorf("random salt: %w", err)
		}
	}
	r := &Redactor{rs: rs, opts: opts, key: key, cache: map[string]string{}}
	r.pool.New = func() any { return &scanner{rs: rs} }
	r.clean = cleanWords(&scanner{rs: rs})
	return r, nil
}

// buildConfig merges the default rules, the optional classes and the
// user's rule files, in that order (a later rule id replaces an earlier one).
func buildConfig(opts Options) (*Config, error) {
	cfg, err := DefaultConfig()
	if err != nil {
		return nil, err
	}
	extra := map[string]string{"pii.toml": piiTOML, "paths.toml": pathsTOML}
	for name, on := range map[string]bool{"pii.toml": opts.PII, "paths.toml": opts.Paths} {
		if !on {
			continue
		}
		c, err := parseTOML(name, extra[name])
		if err != nil {
			return nil, err
		}
		cfg.merge(c)
	}
	for _, c := range opts.Rules {
		cfg.merge(c)
	}
	return cfg, nil
}

// RedactLine redacts one line (without its newline). out is line itself
// when nothing changed. A line that is not JSON is redacted as plain text
// and err wraps ErrNotJSON.
func (r *Redactor) RedactLine(line []byte) (out []byte, findings []Finding, err error) {
	sc := r.pool.Get().(*scanner)
	defer r.pool.Put(sc)
	w := &sc.walker
	*w = walker{r: r, sc: sc, line: line, tokens: w.tokens, path: w.path[:0], keys: w.keys[:0], levels: w.levels[:0], objects: w.objects[:0], renames: w.renames[:0], hits: w.hits[:0], edits: w.edits[:0]}
	end, werr := w.value()
	if werr == nil && end != len(line) {
		werr = fmt.Errorf("data after the value at byte %d", end)
	}
	if werr != nil {
		out, findings = r.redactText(sc, line)
		return out, findings, fmt.Errorf("%w (%v)", ErrNotJSON, werr)
	}
	if len(w.edits) == 0 {
		return line, nil, nil
	}
	return applyEdits(line, w.edits), w.findings, nil
}

// PathSecret is a secret found in a file or folder name, and the
// placeholder content gets for it.
type PathSecret struct {
	Rule, Secret, Placeholder string
}

// PathSecrets returns the secrets in a path under the rules of content:
// found in the whole path, made absolute (so that --paths sees the user of
// /home/alice when the path is relative), in each name between slashes, in
// each part between slashes and underscores (Pi's <time>_<id>.jsonl), and in
// a Pi project folder name (--home-alice-proj--) read as the cwd it stands
// for. Longer secrets come first.
func (r *Redactor) PathSecrets(path string) []PathSecret {
	sc := r.pool.Get().(*scanner)
	defer r.pool.Put(sc)
	seen := map[string]bool{}
	var out []PathSecret
	scan := func(text string, back func(start, end int) string) {
		spans := sc.scanText([]byte(text))
		if len(spans) == 0 {
			return
		}
		r.replace(text, spans, func(rule, secret, placeholder string) {
			if back != nil {
				i := strings.Index(text, secret)
				secret = back(i, i+len(secret))
			}
			if secret != "" && !seen[secret] {
				seen[secret] = true
				out = append(out, PathSecret{Rule: rule, Secret: secret, Placeholder: r.placeholder(rule, secret)})
			}
		})
	}
	whole := path
	if abs, err := filepath.Abs(path); err == nil && path != "-" {
		whole = abs
	}
	scan(filepath.ToSlash(whole), nil)
	for _, name := range strings.FieldsFunc(whole, isSlash) {
		scan(name, nil)
		for _, part := range strings.Split(name, "_") {
			scan(part, nil)
		}
		for _, spaced := range spacedNames(name) {
			scan(spaced, func(start, end int) string { return name[start:end] })
		}
		if cwd, ok := strings.CutPrefix(name, "--"); ok && strings.HasSuffix(cwd, "--") && len(cwd) > 2 {
			// "--home-alice-proj--" is /home/alice/proj: "/" + the middle
			// with each - a /, byte for byte, so a span maps back.
			mid := strings.TrimSuffix(cwd, "--")
			scan("/"+strings.ReplaceAll(mid, "-", "/"), func(start, end int) string {
				if start < 1 || end > len(mid)+1 {
					return ""
				}
				return mid[start-1 : end-1]
			})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].Secret) > len(out[j].Secret) })
	return out
}

// spacedNames are name with its dots, and then its dashes too, turned into
// spaces, byte for byte: a rule that wants a key to end at a quote, a space
// or the end of the text (as a key stands in a JSON string) finds it before
// a name's ".jsonl" or "-2" too.
func spacedNames(name string) []string {
	dots := strings.ReplaceAll(name, ".", " ")
	return []string{dots, strings.ReplaceAll(dots, "-", " ")}
}

func isSlash(c rune) bool { return c == '/' || c == filepath.Separator }

// RedactName returns a file path with the secrets PathSecrets finds in it
// replaced by their placeholders, wherever they occur in it, so that a
// session named after a secret id, or kept under a folder named after a
// secret or a user (--paths), is shown redacted.
func (r *Redactor) RedactName(path string) string {
	return PathReplacer(r.PathSecrets(path)).Replace(path)
}

// PathReplacer replaces each secret with its placeholder, longest first,
// in one pass (a placeholder is never scanned again).
func PathReplacer(secrets []PathSecret) *strings.Replacer {
	sorted := slices.Clone(secrets)
	sort.SliceStable(sorted, func(i, j int) bool { return len(sorted[i].Secret) > len(sorted[j].Secret) })
	pairs := make([]string, 0, 2*len(sorted))
	for _, s := range sorted {
		pairs = append(pairs, s.Secret, s.Placeholder)
	}
	return strings.NewReplacer(pairs...)
}

// redactText redacts a line that is not JSON as one plain string.
func (r *Redactor) redactText(sc *scanner, line []byte) ([]byte, []Finding) {
	var findings []Finding
	spans := sc.scanText(line)
	if len(spans) == 0 {
		return line, nil
	}
	out := r.replace(string(line), spans, func(rule, secret, placeholder string) {
		findings = append(findings, Finding{Rule: rule, Preview: mask(secret), Placeholder: placeholder})
	})
	return []byte(out), findings
}

// replace substitutes placeholders for spans (sorted by start) in text,
// merging overlapping spans, and reports each replacement.
func (r *Redactor) replace(text string, spans []span, report func(rule, secret, placeholder string)) string {
	var out []byte
	last := 0
	for i := 0; i < len(spans); {
		sp := spans[i]
		end := sp.end
		for i++; i < len(spans) && spans[i].start < end; i++ {
			end = max(end, spans[i].end)
		}
		rule, secret := r.rs.rules[sp.rule].id, text[sp.start:end]
		ph := r.placeholder(rule, secret)
		out = append(append(out, text[last:sp.start]...), ph...)
		report(rule, secret, ph)
		last = end
	}
	return string(append(out, text[last:]...))
}

// placeholder returns [REDACTED:<rule>:<8 hex>], the hex being an HMAC of the
// value under the run's salt: one value gets one placeholder in a run.
func (r *Redactor) placeholder(rule, secret string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	tag, ok := r.cache[secret]
	if !ok {
		mac := hmac.New(sha256.New, r.key)
		mac.Write([]byte(secret))
		tag = hex.EncodeToString(mac.Sum(nil)[:4])
		r.cache[secret] = tag
	}
	return "[REDACTED:" + rule + ":" + tag + "]"
}

// mask is a secret's preview: its length only, no byte of it (four leading
// bytes of a URL's password are a quarter of it; the rule already says what
// kind of token it is).
func mask(secret string) string {
	return fmt.Sprintf("****(%d bytes)", len(secret))
}

// applyEdits returns line with the edits (sorted, non-overlapping) applied.
func applyEdits(line []byte, edits []edit) []byte {
	out := make([]byte, 0, len(line)+64)
	last := 0
	for _, e := range edits {
		out = append(append(out, line[last:e.start]...), e.repl...)
		last = e.end
	}
	return append(out, line[last:]...)
}
