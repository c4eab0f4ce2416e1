package redact

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/pitool/pitool/jsonl"
)

const secretsSession = "../testdata/corpus/secrets/session.jsonl"

// TestEscapedSecrets are cases only a JSON-aware scanner catches: the raw
// line does not contain the secret as written, the decoded string does.
func TestEscapedSecrets(t *testing.T) {
	r := newTestRedactor(t, Options{})
	cases := map[string]struct{ raw, secret string }{
		"unicode escape":     {`{"type":"message","message":{"role":"user","content":"key \u0041KIAFOTOTZPOBZWF4K2T"}}`, "AKIAFOTOTZPOBZWF4K2T"},
		"all escaped":        {`{"type":"message","message":{"role":"user","content":"\u0067\u0068\u0070\u005fcJMF8GbJe1LmFItZPZwpjEz0OCSO8cYksWrR"}}`, "ghp_cJMF8GbJe1LmFItZPZwpjEz0OCSO8cYksWrR"},
		"escaped slash":      {`{"type":"custom","data":{"url":"postgres:\/\/app:WgBXfoHS9TS9AfkLNArp@db:5432\/app"}}`, "WgBXfoHS9TS9AfkLNArp"},
		"quote after secret": {`{"type":"message","message":{"role":"user","content":"export API_KEY=\"npm_yObSCVDdvCD3xJcTuT9e4IVLYhrpNAvJ5hEn\"\n"}}`, "npm_yObSCVDdvCD3xJcTuT9e4IVLYhrpNAvJ5hEn"},
		"pem split by \\n":   {`{"type":"message","message":{"role":"toolResult","content":[{"type":"text","text":"-----BEGIN RSA PRIVATE KEY-----\n8fXRl3atDNoMiZUsGkl4ii9m8NHsfA+FlC9MZVtojp7L/mmXxtUE7FBer+od2Iq5\nXgL3Yt4a1L6xaWmoZWr5OG+5JlibWM257IhxXi\n-----END RSA PRIVATE KEY-----"}]}}`, "8fXRl3atDNoMiZUsGkl4ii9m8NHsfA+FlC9MZVtojp7L/mmXxtUE7FBer+od2Iq5"},
		"escaped key name":   {`{"type":"custom","data":{"\u0073k-ant-api03-Xv3JmcdtIO2qmeT8NNwAUCHOp3nkmB81qI5-ctAryXtyGG6QszBhS2abKptV4qZMrBxvaPoRI7xiIxhlt1yKPIZJgX0LtAA":1}}`, "sk-ant-api03-Xv3JmcdtIO2qmeT8NNwAUCHOp3nkmB81qI5"},
		"surrogate pair":     {`{"type":"message","message":{"role":"user","content":"\ud83d\ude00 token xoxb-59819343156-239820890534-QzVki3Lk3LwozUV2GSmmVnxY"}}`, "xoxb-59819343156-239820890534-QzVki3Lk3LwozUV2GSmmVnxY"},
	}
	for name, c := range cases {
		out, findings, err := r.RedactLine([]byte(c.raw))
		if err != nil || len(findings) == 0 {
			t.Errorf("%s: err %v, %d findings", name, err, len(findings))
			continue
		}
		var v any
		if err := json.Unmarshal(out, &v); err != nil {
			t.Errorf("%s: output does not parse: %v", name, err)
		}
		decoded, _ := json.Marshal(v)
		if strings.Contains(string(decoded), c.secret) || strings.Contains(string(out), c.secret) {
			t.Errorf("%s: secret survives: %s", name, out)
		}
	}
}

// TestUntouchedLinesAreIdentical checks that a line without findings comes
// back as the very same slice, and one with findings keeps its other bytes.
func TestUntouchedLinesAreIdentical(t *testing.T) {
	r := newTestRedactor(t, Options{})
	clean := []byte(`{"type":"message","id":"a","parentId":null,"message":{"role":"user","content":"token  retry\u00e9 path"}}`)
	out, findings, err := r.RedactLine(clean)
	if err != nil || len(findings) != 0 || &out[0] != &clean[0] {
		t.Fatalf("clean line changed: %s %v %v", out, findings, err)
	}
	dirty := []byte(`{"type":"message","id":"a","parentId":"b","message":{"role":"user","content":"k AKIAFOTOTZPOBZWF4K2T"},"x":  1.50}`)
	out, _, _ = r.RedactLine(dirty)
	prefix, suffix := `{"type":"message","id":"a","parentId":"b","message":{"role":"user","content":"k [REDACTED:`, `]"},"x":  1.50}`
	if !bytes.HasPrefix(out, []byte(prefix)) || !bytes.HasSuffix(out, []byte(suffix)) {
		t.Fatalf("bytes around the secret changed: %s", out)
	}
}

// TestPlaceholderConsistency: one value, one placeholder, wherever it
// appears in a run; another salt gives another placeholder.
func TestPlaceholderConsistency(t *testing.T) {
	r := newTestRedactor(t, Options{Salt: "one"})
	key := "ghp_cJMF8GbJe1LmFItZPZwpjEz0OCSO8cYksWrR"
	lines := []string{
		`{"type":"message","message":{"role":"user","content":"my key is ` + key + `"}}`,
		`{"type":"message","message":{"role":"assistant","content":[{"type":"toolCall","id":"t1","name":"bash","arguments":{"command":"export GH=` + key + `"}}]}}`,
		`{"type":"compaction","summary":"the user shared ` + key + `."}`,
	}
	seen := map[string]bool{}
	for _, l := range lines {
		_, findings, _ := r.RedactLine([]byte(l))
		for _, f := range findings {
			seen[f.Placeholder] = true
		}
	}
	if len(seen) != 1 {
		t.Fatalf("placeholders %v, want one", seen)
	}
	other := newTestRedactor(t, Options{Salt: "two"})
	_, findings, _ := other.RedactLine([]byte(lines[0]))
	if len(findings) != 1 || seen[findings[0].Placeholder] {
		t.Fatalf("another salt gave %v", findings)
	}
}

// TestSecretsCorpus redacts the shared secrets session: every planted value
// is gone, raw or JSON-escaped; at least 99% of the controls survive; ids,
// parents and types are unchanged, and lines without findings are identical.
func TestSecretsCorpus(t *testing.T) {
	r := newTestRedactor(t, Options{})
	var out bytes.Buffer
	st, err := r.RedactFile(context.Background(), secretsSession, nil, &out, nil)
	if err != nil {
		t.Fatal(err)
	}
	in, err := os.ReadFile(secretsSession)
	if err != nil {
		t.Fatal(err)
	}
	m := loadManifest(t)
	for _, p := range m.Planted {
		if containsRawOrEscaped(out.String(), p.Value) {
			t.Errorf("planted %s value survives: %.12s…", p.Kind, p.Value)
		}
	}
	survived := 0
	for _, c := range m.Controls {
		if strings.Count(out.String(), c) == strings.Count(string(in), c) {
			survived++
		}
	}
	if survived*100 < len(m.Controls)*99 {
		t.Errorf("only %d of %d controls survive", survived, len(m.Controls))
	}
	checkSameSkeleton(t, in, out.Bytes())
	t.Logf("%d lines, %d changed, %d findings; %d/%d controls survive", st.Lines, st.ChangedLines, st.Findings, survived, len(m.Controls))
}

func containsRawOrEscaped(s, v string) bool {
	esc := string(jsonl.QuoteString(v))
	return strings.Contains(s, v) || strings.Contains(s, esc[1:len(esc)-1])
}

// checkSameSkeleton compares two sessions line by line: same line count,
// same type/id/parentId, and unchanged lines byte-identical where the
// redacted line has no placeholder.
func checkSameSkeleton(t *testing.T, in, out []byte) {
	t.Helper()
	a, b := splitLines(in), splitLines(out)
	if len(a) != len(b) {
		t.Fatalf("%d lines in, %d out", len(a), len(b))
	}
	for i := range a {
		if !bytes.Contains(b[i], []byte("[REDACTED:")) && !bytes.Equal(a[i], b[i]) {
			t.Errorf("line %d changed without a placeholder", i+1)
		}
		if skeleton(t, a[i]) != skeleton(t, b[i]) {
			t.Errorf("line %d: type, id or parentId changed", i+1)
		}
	}
}

func splitLines(b []byte) [][]byte {
	var out [][]byte
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		out = append(out, append([]byte(nil), sc.Bytes()...))
	}
	return out
}

func skeleton(t *testing.T, line []byte) string {
	var e struct {
		Type     string  `json:"type"`
		ID       string  `json:"id"`
		ParentID *string `json:"parentId"`
	}
	if err := json.Unmarshal(line, &e); err != nil {
		t.Fatalf("line does not parse: %v", err)
	}
	p := "<nil>"
	if e.ParentID != nil {
		p = *e.ParentID
	}
	return e.Type + "/" + e.ID + "/" + p
}

// TestDropOptions removes signatures and replaces image data, keeping the
// JSON valid and everything else in place.
func TestDropOptions(t *testing.T) {
	r := newTestRedactor(t, Options{DropSignatures: true, DropImages: true})
	cases := map[string]string{
		`{"type":"message","message":{"role":"assistant","content":[{"type":"thinking","thinking":"x","thinkingSignature":"c2ln"}]}}`:                       `{"type":"message","message":{"role":"assistant","content":[{"type":"thinking","thinking":"x"}]}}`,
		`{"type":"message","message":{"role":"assistant","content":[{"thinkingSignature":"c2ln","type":"thinking","thinking":"x"}]}}`:                       `{"type":"message","message":{"role":"assistant","content":[{"type":"thinking","thinking":"x"}]}}`,
		`{"type":"message","message":{"role":"assistant","content":[{"thinkingSignature":"a","textSignature":"b"}]}}`:                                       `{"type":"message","message":{"role":"assistant","content":[{}]}}`,
		`{"type":"message","message":{"role":"assistant","content":[{"type":"toolCall","id":"t","name":"n","arguments":{},"thoughtSignature":"s","x":1}]}}`: `{"type":"message","message":{"role":"assistant","content":[{"type":"toolCall","id":"t","name":"n","arguments":{},"x":1}]}}`,
		`{"type":"message","message":{"role":"user","content":[{"type":"image","data":"AAAA","mimeType":"image/jpeg"}]}}`:                                   `{"type":"message","message":{"role":"user","content":[{"type":"image","data":"` + placeholderPNG + `","mimeType":"image/png"}]}}`,
	}
	for in, want := range cases {
		out, _, err := r.RedactLine([]byte(in))
		if err != nil || string(out) != want {
			t.Errorf("%s\n got %s (%v)\nwant %s", in, out, err, want)
		}
	}
}

// TestNotJSONLine redacts a damaged line as plain text and says so.
func TestNotJSONLine(t *testing.T) {
	r := newTestRedactor(t, Options{})
	out, findings, err := r.RedactLine([]byte(`{"type":"message","message":{"content":"AKIAFOTOTZPOBZWF4K2T and more`))
	if err == nil || len(findings) != 1 || bytes.Contains(out, []byte("AKIAFOTOTZPOBZWF4K2T")) {
		t.Fatalf("out %s, findings %v, err %v", out, findings, err)
	}
}

// TestLiteralSecrets finds --secret values anywhere, escaped or not.
func TestLiteralSecrets(t *testing.T) {
	r := newTestRedactor(t, Options{Secrets: []string{"hunter2-correct-horse"}})
	out, findings, _ := r.RedactLine([]byte(`{"type":"custom","data":{"note":"pw \u0068unter2-correct-horse!"}}`))
	if len(findings) != 1 || findings[0].Rule != literalRuleID || bytes.Contains(out, []byte("unter2-correct")) {
		t.Fatalf("out %s findings %v", out, findings)
	}
	if _, err := New(Options{Secrets: []string{"ab"}}); err == nil {
		t.Fatal("a two-byte secret was accepted")
	}
}

// TestEscapedSecretsFile redacts testdata/escaped-secrets.jsonl, a valid
// session whose secrets are written with JSON escapes (\u0041KIA…, \/, \",
// a PEM body split by \n escapes without its END line): every listed value
// must be gone.
func TestEscapedSecretsFile(t *testing.T) {
	r := newTestRedactor(t, Options{})
	var out bytes.Buffer
	st, err := r.RedactFile(context.Background(), "testdata/escaped-secrets.jsonl", nil, &out, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("testdata/escaped-secrets.manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil || len(m.Planted) == 0 {
		t.Fatalf("manifest: %v", err)
	}
	for _, p := range m.Planted {
		if containsRawOrEscaped(out.String(), p.Value) || containsDecoded(t, out.Bytes(), p.Value) {
			t.Errorf("%s survives", p.Kind)
		}
	}
	if st.Findings < len(m.Planted) {
		t.Errorf("%d findings for %d planted values", st.Findings, len(m.Planted))
	}
}

// containsDecoded reports whether any line of a session, decoded, holds v.
func containsDecoded(t *testing.T, session []byte, v string) bool {
	for _, line := range splitLines(session) {
		var x any
		if err := json.Unmarshal(line, &x); err != nil {
			t.Fatalf("output line does not parse: %v", err)
		}
		b, _ := json.Marshal(x)
		if strings.Contains(string(b), v) {
			return true
		}
	}
	return false
}

// TestEscapedVocabulary reads keys and types as JSON.parse does: written
// with escapes, they are the keys and types of Pi's format.
func TestEscapedVocabulary(t *testing.T) {
	r := newTestRedactor(t, Options{DropSignatures: true, DropImages: true})
	image := `{"type":"image","data":"` + placeholderPNG + `","mimeType":"image/png"}`
	cases := map[string]string{
		`{"type":"\u0069mage","data":"AAAA","mimeType":"image/jpeg"}`:                           `{"type":"\u0069mage","data":"` + placeholderPNG + `","mimeType":"image/png"}`,
		`{"\u0074ype":"image","d\u0061ta":"AAAA","mimeType":"image/jpeg"}`:                      `{"\u0074ype":"image","d\u0061ta":"` + placeholderPNG + `","mimeType":"image/png"}`,
		`{"type":"thinking","thinking\u0053ignature":"c2ln","thinking":"x"}`:                    `{"type":"thinking","thinking":"x"}`,
		`{"type":"toolCall","\u0061rguments":{"type":"image","data":"AAAA"},"x":` + image + `}`: `{"type":"toolCall","\u0061rguments":{"type":"image","data":"AAAA"},"x":` + image + `}`,
	}
	for in, want := range cases {
		out, _, err := r.RedactLine([]byte(in))
		if err != nil || string(out) != want {
			t.Errorf("%s\n got %s (%v)\nwant %s", in, out, err, want)
		}
	}
	_, findings, err := r.RedactLine([]byte(`{"type":"\u0063ustom","data":{"k":"AKIAFOTOTZPOBZWF4K2T"}}`))
	if err != nil || len(findings) != 1 || findings[0].EntryType != jsonl.TypeCustom.String() {
		t.Errorf("findings %+v (%v), want one in a %s entry", findings, err, jsonl.TypeCustom)
	}
}
