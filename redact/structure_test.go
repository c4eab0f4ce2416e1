package redact

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

const structureSession = "testdata/secrets-in-structure.jsonl"

// TestSecretsInStructure redacts testdata/secrets-in-structure.jsonl, whose
// secrets sit where redact once never looked: provider, modelId, model,
// mimeType, customType, an entry id with the parentId and label targetId
// that name it, and object keys. Every value is gone, every finding's path
// is free of it, and the tree still holds together.
func TestSecretsInStructure(t *testing.T) {
	r := newTestRedactor(t, Options{Salt: "s"})
	var out bytes.Buffer
	var findings []Finding
	st, err := r.RedactFile(context.Background(), structureSession, nil, &out, func(f Finding) { findings = append(findings, f) })
	if err != nil {
		t.Fatal(err)
	}
	planted := readPlanted(t, "testdata/secrets-in-structure.manifest.json")
	for _, p := range planted {
		if containsRawOrEscaped(out.String(), p.Value) || containsDecoded(t, out.Bytes(), p.Value) {
			t.Errorf("%s survives", p.Kind)
		}
		for _, f := range findings {
			if strings.Contains(f.JSONPath, p.Value) || strings.Contains(f.Preview, p.Value) {
				t.Errorf("finding %+v shows the %s", f, p.Kind)
			}
		}
	}
	if st.Findings != len(planted)+2 { // the id's value is in two more references
		t.Errorf("%d findings for %d planted values", st.Findings, len(planted))
	}
	lines := splitLines(out.Bytes())
	id, parent, target := field(t, lines[2], "id"), field(t, lines[3], "parentId"), field(t, lines[6], "targetId")
	if !strings.Contains(id, "[REDACTED:") || parent != id || target != id {
		t.Errorf("references broken: id %q, parentId %q, targetId %q", id, parent, target)
	}
}

func field(t *testing.T, line []byte, name string) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(line, &m); err != nil {
		t.Fatalf("line does not parse: %v: %s", err, line)
	}
	s, _ := m[name].(string)
	return s
}

// TestSecretKeys replaces a secret that is an object key, at any depth,
// keeping the object's keys distinct, and never shows it in a path.
func TestSecretKeys(t *testing.T) {
	r := newTestRedactor(t, Options{Salt: "s"})
	const aws = "AKIAFOTOTZPOBZWF4K2T"
	ph := r.placeholder("aws-access-token", aws)
	cases := map[string]string{
		`{"type":"x","` + aws + `":1}`:                                    `{"type":"x","` + ph + `":1}`,
		`{"message":{"content":[{"k ` + aws + `":{"a":"` + aws + `"}}]}}`: `{"message":{"content":[{"k ` + ph + `":{"a":"` + ph + `"}}]}}`,
		`{"` + ph + `":1,"` + aws + `":2}`:                                `{"` + ph + `":1,"` + ph + `#2":2}`,
		`{"` + aws + `":1,"` + ph + `":2,"` + aws + `":3}`:                `{"` + ph + `#2":1,"` + ph + `":2,"` + ph + `#2":3}`,
		`{"\u0041KIAFOTOTZPOBZWF4K2T":1}`:                                 `{"` + ph + `":1}`,
	}
	for in, want := range cases {
		out, findings, err := r.RedactLine([]byte(in))
		if err != nil || string(out) != want {
			t.Errorf("%s\n got %s (%v)\nwant %s", in, out, err, want)
		}
		for _, f := range findings {
			if strings.Contains(f.JSONPath, "AKIA") {
				t.Errorf("%s: path %s shows the key", in, f.JSONPath)
			}
		}
		if !json.Valid(out) {
			t.Errorf("%s: output is not JSON", out)
		}
	}
}

// TestPathMasksSecretInKey shows a key that holds the finding's secret
// with the placeholder in its place, even when the key itself was not
// replaced (a rule that needs the value's context found it elsewhere).
func TestPathMasksSecretInKey(t *testing.T) {
	r := newTestRedactor(t, Options{Salt: "s"})
	w := &walker{r: r, line: []byte(`{"hunter2-correct-horse":{"a":1}}`)}
	w.path = []seg{{a: 1, b: 24}, {a: 26, b: 29}}
	if p := w.jsonPath("hunter2-correct-horse", "[P]"); p != `$["[P]"].a` {
		t.Fatalf("path %s", p)
	}
}

// TestVocabularyIsScannedOnce: a word of Pi's format is skipped only when
// the run's rules find nothing in it, so a --secret that happens to be
// one is still redacted.
func TestVocabularyIsScannedOnce(t *testing.T) {
	plain := newTestRedactor(t, Options{})
	if !plain.clean["toolResult"] || !plain.clean["totalTokens"] {
		t.Fatalf("Pi's words are not skipped: %v", plain.clean)
	}
	r := newTestRedactor(t, Options{Secrets: []string{"toolResult"}})
	if r.clean["toolResult"] {
		t.Fatal("a --secret word is skipped")
	}
	out, findings, _ := r.RedactLine([]byte(`{"role":"toolResult","toolResult":1}`))
	if len(findings) != 2 || strings.Contains(string(out), "toolResult") {
		t.Fatalf("%d findings: %s", len(findings), out)
	}
}

// TestRedactName shows a session named after a secret id redacted, and
// leaves other names alone.
func TestRedactName(t *testing.T) {
	r := newTestRedactor(t, Options{Salt: "s"})
	ph := r.placeholder("aws-access-token", "AKIAFOTOTZPOBZWF4K2T")
	for in, want := range map[string]string{
		"d/--p--/2026-01-01T00-00-00-000Z_AKIAFOTOTZPOBZWF4K2T.jsonl.bak": "d/--p--/2026-01-01T00-00-00-000Z_" + ph + ".jsonl.bak",
		"d/--p--/2026-01-01T00-00-00-000Z_0190d7a4-0000-7000.jsonl":       "d/--p--/2026-01-01T00-00-00-000Z_0190d7a4-0000-7000.jsonl",
	} {
		if got := r.RedactName(in); got != want {
			t.Errorf("RedactName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRedactNameFolders: a secret in a folder name is redacted too, and
// with --paths the user of a home folder, in /home/alice and in Pi's
// --home-alice-proj-- alike, with the placeholders content gets.
func TestRedactNameFolders(t *testing.T) {
	const npm = "npm_yObSCVDdvCD3xJcTuT9e4IVLYhrpNAvJ5hEn"
	r := newTestRedactor(t, Options{Salt: "s", Paths: true})
	user := r.placeholder("home-user", "alice")
	tok := r.placeholder("npm-access-token", npm)
	for in, want := range map[string]string{
		"/home/alice/keys-" + npm + "/s.jsonl":              "/home/" + user + "/keys-" + tok + "/s.jsonl",
		"/srv/--home-alice-proj--/s.jsonl":                  "/srv/--home-" + user + "-proj--/s.jsonl",
		"/srv/sessions/--home-alice-" + npm + "--/s.jsonl":  "/srv/sessions/--home-" + user + "-" + tok + "--/s.jsonl",
		"/srv/sessions/--srv-proj--/2026-01-01_plain.jsonl": "/srv/sessions/--srv-proj--/2026-01-01_plain.jsonl",
	} {
		if got := r.RedactName(in); got != want {
			t.Errorf("RedactName(%q) = %q, want %q", in, got, want)
		}
	}
	line := []byte(`{"type":"session","cwd":"/home/alice/proj"}`)
	if out, _, _ := r.RedactLine(line); !strings.Contains(string(out), user) {
		t.Errorf("content gets another placeholder for the user: %s, want %s", out, user)
	}
	plain := newTestRedactor(t, Options{Salt: "s"})
	if got := plain.RedactName("/home/alice/s.jsonl"); got != "/home/alice/s.jsonl" {
		t.Errorf("without --paths the user is kept: %s", got)
	}
}

// TestRedactNameKeyBeforeASuffix: a key whose rule wants it to end where a
// JSON string would (a quote, a space, the end) is found in a name too,
// before ".jsonl" or a "-2", where the name alone gives it no such end.
func TestRedactNameKeyBeforeASuffix(t *testing.T) {
	const stripe = "sk_live_QlbhF0GywsDHpf7bjPmn0GmD"
	r := newTestRedactor(t, Options{Salt: "s"})
	ph := r.placeholder("stripe-access-token", stripe)
	for in, want := range map[string]string{
		"d/notes-" + stripe + ".jsonl":     "d/notes-" + ph + ".jsonl",
		"d/" + stripe + "-2/s.jsonl":       "d/" + ph + "-2/s.jsonl",
		"d/notes-" + stripe + ".jsonl.bak": "d/notes-" + ph + ".jsonl.bak",
	} {
		if got := r.RedactName(in); got != want {
			t.Errorf("RedactName(%q) = %q, want %q", in, got, want)
		}
	}
}
