package redact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/pitool/pitool/jsonl"
)

// fuzzSecrets are injected into fuzzed entries: a literal given as
// --secret, and provider keys found by rules.
var fuzzSecrets = []string{
	"S3cr3t-fuzz-literal-value",
	"ghp_cJMF8GbJe1LmFItZPZwpjEz0OCSO8cYksWrR",
	"AKIAFOTOTZPOBZWF4K2T",
	"sk-ant-api03-Xv3JmcdtIO2qmeT8NNwAUCHOp3nkmB81qI5-ctAryXtyGG6QszBhS2abKptV4qZMrBxvaPoRI7xiIxhlt1yKPIZJgX0LtAA",
	"xoxb-59819343156-239820890534-QzVki3Lk3LwozUV2GSmmVnxY",
}

// FuzzRedactLine builds entries from fuzzed text with injected secrets, in
// message text, tool arguments (keys and values) and custom data, and
// checks: the output parses, ids, parents and types are unchanged, and no
// injected value is left, raw or decoded.
func FuzzRedactLine(f *testing.F) {
	f.Add("hello", "world", uint8(0))
	f.Add("token = \"", `\u0041"\\`, uint8(1))
	f.Add("-----BEGIN RSA PRIVATE KEY-----\n", "\n-----END", uint8(3))
	f.Add("\xff\xfe", "ключ 🔑", uint8(4))
	r := newTestRedactor(f, Options{Secrets: fuzzSecrets[:1]})
	f.Fuzz(func(t *testing.T, before, after string, pick uint8) {
		secret := fuzzSecrets[int(pick)%len(fuzzSecrets)]
		line := fuzzEntry(before+" "+secret+" "+after, before)
		out, _, err := r.RedactLine(line)
		if err != nil {
			t.Fatalf("error on a valid line: %v\n%s", err, line)
		}
		var got map[string]any
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("output does not parse: %v\n%s", err, out)
		}
		if skeleton(t, line) != skeleton(t, out) {
			t.Fatalf("skeleton changed:\n%s\n%s", line, out)
		}
		decoded, _ := json.Marshal(got)
		if strings.Contains(string(out), secret) || strings.Contains(string(decoded), secret) {
			t.Fatalf("secret %q left in\n%s", secret, out)
		}
	})
}

// fuzzEntry is an assistant message whose text, tool-call argument and
// argument key hold text, with a custom-data key.
func fuzzEntry(text, key string) []byte {
	q := func(s string) string { return string(jsonl.QuoteString(s)) }
	return []byte(`{"type":"message","id":"0a1b2c3d","parentId":"ffee0011","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"assistant","content":[` +
		`{"type":"text","text":` + q(text) + `},` +
		`{"type":"toolCall","id":"toolu_1","name":"bash","arguments":{"command":` + q(text) + `,` + q("k"+key) + `:[` + q(text) + `,1,null]}}` +
		`],"details":{` + q(text) + `:true}}}`)
}

// FuzzRedactAnyLine feeds arbitrary lines, seeded with corpus lines: no
// panic; a line that is a JSON object comes out as a JSON object with as
// many distinct keys, whose type, id and parentId are unchanged or redacted
// exactly as the same value alone would be (so references still match);
// redacting the output again changes nothing.
func FuzzRedactAnyLine(f *testing.F) {
	for _, file := range []string{secretsSession, "../testdata/corpus/v3/branched.jsonl", "testdata/escaped-secrets.jsonl"} {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for i, line := range splitLines(b) {
			if i%7 == 0 {
				f.Add(line)
			}
		}
	}
	r := newTestRedactor(f, Options{DropSignatures: true, DropImages: true})
	f.Fuzz(func(t *testing.T, line []byte) {
		out, _, err := r.RedactLine(line)
		var in map[string]json.RawMessage
		if json.Unmarshal(line, &in) != nil {
			return
		}
		if err != nil || !json.Valid(out) {
			t.Fatalf("valid JSON in, err %v, output %q", err, out)
		}
		var got map[string]json.RawMessage
		if json.Unmarshal(out, &got) != nil || len(got) != len(in) {
			t.Fatalf("keys lost:\n%s\n%s", line, out)
		}
		if _, hasType := in["type"]; hasType && skeletonOK(line) {
			checkSkeleton(t, r, in, got)
		}
		again, findings, _ := r.RedactLine(out)
		if len(findings) > 0 || !bytes.Equal(again, out) {
			t.Fatalf("second pass changed the line: %v\n%s\n%s", findings, out, again)
		}
	})
}

// checkSkeleton checks that type, id and parentId are unchanged or
// redacted as the value alone is.
func checkSkeleton(t *testing.T, r *Redactor, in, out map[string]json.RawMessage) {
	for _, k := range []string{"type", "id", "parentId"} {
		if bytes.Equal(in[k], out[k]) {
			continue
		}
		alone, _, _ := r.RedactLine(in[k])
		if !bytes.Equal(alone, out[k]) {
			t.Fatalf("%s %s became %s, but %s alone", k, in[k], out[k], alone)
		}
	}
}

// skeletonOK reports whether line's type, id and parentId have the types
// skeleton expects.
func skeletonOK(line []byte) bool {
	var e struct {
		Type     string  `json:"type"`
		ID       string  `json:"id"`
		ParentID *string `json:"parentId"`
	}
	return json.Unmarshal(line, &e) == nil
}

// FuzzRedactLiteral glues a literal --secret to fuzzed text on both sides,
// in every string and key of an entry, and writes some of its characters
// as \u escapes (which JSON.parse reads as the same characters): the
// output parses, the skeleton is unchanged, and the literal is left
// nowhere, raw or decoded.
func FuzzRedactLiteral(f *testing.F) {
	f.Add("x", "y", uint32(0))
	f.Add("", "", uint32(0xffffffff))
	f.Add("S3cr3t-fuzz", "-literal-value", uint32(5))
	f.Add("\\u0053", "\"", uint32(1))
	secret := fuzzSecrets[0]
	r := newTestRedactor(f, Options{Secrets: []string{secret}})
	f.Fuzz(func(t *testing.T, before, after string, escapes uint32) {
		text := before + secret + after
		line := escapeChars(fuzzEntry(text, text), secret, escapes)
		out, _, err := r.RedactLine(line)
		if err != nil {
			t.Fatalf("error on a valid line: %v\n%s", err, line)
		}
		var got any
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("output does not parse: %v\n%s", err, out)
		}
		if skeleton(t, line) != skeleton(t, out) {
			t.Fatalf("skeleton changed:\n%s\n%s", line, out)
		}
		decoded, _ := json.Marshal(got)
		if strings.Contains(string(out), secret) || strings.Contains(string(decoded), secret) {
			t.Fatalf("secret left in\n%s\nfrom\n%s", out, line)
		}
	})
}

// escapeChars writes the characters of each occurrence of secret (plain
// ASCII) in line whose bit is set in mask (character k, bit k%32) as \u
// escapes.
func escapeChars(line []byte, secret string, mask uint32) []byte {
	var out bytes.Buffer
	for {
		k := bytes.Index(line, []byte(secret))
		if k < 0 {
			out.Write(line)
			return out.Bytes()
		}
		out.Write(line[:k])
		for i := range len(secret) {
			if mask&(1<<(i%32)) != 0 {
				fmt.Fprintf(&out, `\u%04x`, secret[i])
			} else {
				out.WriteByte(secret[i])
			}
		}
		line = line[k+len(secret):]
	}
}
