package redact

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pitool/pitool/internal/testref"
	"github.com/pitool/pitool/jsonl"
)

// rolesGolden holds the roles of Pi's context for the redacted secrets
// session, as pi-ref context printed them (go test -run TestRedactedContext -update).
const rolesGolden = "testdata/secrets-redacted.roles.json"

// TestRedactedContext checks that the redacted secrets session still builds
// the same context: Pi's roles for the redacted file (the golden, from
// pi-ref) equal pitool's for the original and for the redacted file.
func TestRedactedContext(t *testing.T) {
	r := newTestRedactor(t, Options{Salt: "golden"})
	redacted := filepath.Join(t.TempDir(), "redacted.jsonl")
	var buf bytes.Buffer
	if _, err := r.RedactFile(context.Background(), secretsSession, nil, &buf, nil); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(redacted, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	want := goldenRoles(t, redacted)
	for _, file := range []string{secretsSession, redacted} {
		if got := pitoolRoles(t, file); !slices.Equal(got, want) {
			t.Errorf("%s: %d roles, pi-ref has %d for the redacted file", file, len(got), len(want))
		}
	}
}

// goldenRoles reads the golden; with -update it first rewrites it from
// pi-ref, and with PITOOL_PIREF=1 it checks pi-ref live against it.
func goldenRoles(t *testing.T, redacted string) []string {
	t.Helper()
	if *testref.Update {
		b, _ := json.MarshalIndent(piRefRoles(t, redacted), "", " ")
		if err := os.WriteFile(rolesGolden, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	roles := readRoles(t)
	if os.Getenv("PITOOL_PIREF") == "1" && !slices.Equal(piRefRoles(t, redacted), roles) {
		t.Errorf("pi-ref context of the redacted file differs from %s", rolesGolden)
	}
	return roles
}

// piRefRoles runs pi-ref context on file and returns the message roles.
func piRefRoles(t *testing.T, file string) []string {
	t.Helper()
	out, err := testref.Run("context", file)
	if err != nil {
		t.Fatal(err)
	}
	var ctx struct{ Messages []struct{ Role string } }
	if err := json.Unmarshal(out, &ctx); err != nil {
		t.Fatal(err)
	}
	roles := make([]string, len(ctx.Messages))
	for i, m := range ctx.Messages {
		roles[i] = m.Role
	}
	return roles
}

func readRoles(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(rolesGolden)
	if err != nil {
		t.Fatalf("%v (run with -update to produce it from pi-ref)", err)
	}
	var roles []string
	if err := json.Unmarshal(b, &roles); err != nil {
		t.Fatal(err)
	}
	return roles
}

func pitoolRoles(t *testing.T, file string) []string {
	t.Helper()
	ix, closeFn, err := jsonl.IndexFile(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	proj, err := ix.ProjectLeaf(ix.ActiveLeaf())
	if err != nil {
		t.Fatal(err)
	}
	var roles []string
	for _, m := range proj.Context.Messages {
		role, _ := jsonl.DecodeString(m.Get("role"))
		roles = append(roles, role)
	}
	return roles
}
