package redact

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCompareGitleaks runs gitleaks' own engine on the raw session files
// and reports, per planted value, whether gitleaks found it and whether
// pitool removed it. It needs a gitleaks binary in $PITOOL_GITLEAKS
// (go install github.com/zricethezav/gitleaks/v8@v8.30.1) and is skipped
// otherwise; only pitool's side is asserted.
func TestCompareGitleaks(t *testing.T) {
	bin := os.Getenv("PITOOL_GITLEAKS")
	if bin == "" {
		t.Skip("set PITOOL_GITLEAKS to a gitleaks v8 binary to compare")
	}
	for _, c := range []struct{ session, manifest string }{
		{secretsSession, "../testdata/corpus/secrets/manifest.json"},
		{"testdata/escaped-secrets.jsonl", "testdata/escaped-secrets.manifest.json"},
	} {
		planted := readPlanted(t, c.manifest)
		glStart := time.Now()
		glSecrets := runGitleaks(t, bin, c.session)
		glTime := time.Since(glStart)
		r := newTestRedactor(t, Options{})
		var out bytes.Buffer
		ptStart := time.Now()
		st, err := r.RedactFile(context.Background(), c.session, nil, &out, nil)
		ptTime := time.Since(ptStart)
		if err != nil {
			t.Fatal(err)
		}
		glFound, ptFound := 0, 0
		glMissed := map[string]int{}
		for _, p := range planted {
			v := p.Value
			if strings.Contains(glSecrets, v) {
				glFound++
			} else {
				glMissed[p.Kind]++
			}
			if !containsRawOrEscaped(out.String(), v) && !containsDecoded(t, out.Bytes(), v) {
				ptFound++
			} else {
				t.Errorf("%s: pitool leaves %.12s…", c.session, v)
			}
		}
		t.Logf("%s: %d planted; gitleaks found %d (%.1f%%) in %v; pitool %d (%.1f%%, %d findings) in %v",
			filepath.Base(c.session), len(planted), glFound, pct(glFound, len(planted)), glTime.Round(time.Millisecond),
			ptFound, pct(ptFound, len(planted)), st.Findings, ptTime.Round(time.Millisecond))
		t.Logf("  gitleaks misses by kind: %v", glMissed)
	}
}

func pct(a, b int) float64 { return 100 * float64(a) / float64(b) }

func readPlanted(t *testing.T, path string) []struct{ Kind, Value string } {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var out []struct{ Kind, Value string }
	for _, p := range m.Planted {
		out = append(out, struct{ Kind, Value string }{p.Kind, p.Value})
	}
	return out
}

// runGitleaks returns every secret and match gitleaks reports, joined.
func runGitleaks(t *testing.T, bin, file string) string {
	report := filepath.Join(t.TempDir(), "report.json")
	cmd := exec.Command(bin, "dir", file, "--report-format", "json", "--report-path", report, "--no-banner", "--exit-code", "0", "--log-level", "error")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gitleaks: %v: %s", err, out)
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var findings []struct{ Secret, Match string }
	if err := json.Unmarshal(b, &findings); err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	for _, f := range findings {
		sb.WriteString(f.Secret + "\x00" + f.Match + "\x00")
	}
	return sb.String()
}
