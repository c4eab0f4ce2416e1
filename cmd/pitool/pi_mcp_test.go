package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestPiMCPList has Pi's own MCP client check pitool mcp: Pi 1.6.0's
// `pi mcp list --json` (scripts/pi-mcp, on the Node that release requires),
// with a private HOME whose .pi/agent/mcp.json starts the real pitool
// binary, lists the server as connected with its four tools, and the
// sessions folder is as it was. It skips when npm is missing; the first run
// installs Pi and Node from the npm registry (about 30 s).
func TestPiMCPList(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: Pi's MCP client is not run")
	}
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is not installed, so Pi's MCP client (scripts/pi-mcp) cannot be: skipped")
	}
	script, err := filepath.Abs("../../scripts/pi-mcp")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	installed, err := exec.CommandContext(ctx, script, "--install").Output()
	if err != nil {
		t.Fatalf("scripts/pi-mcp --install: %v", err)
	}
	home := t.TempDir()
	agent := filepath.Join(home, ".pi", "agent")
	session := filepath.Join(agent, "sessions", "--home-dev-project--", "linear.jsonl")
	writeFile(t, session, readFile(t, corpusFile("v3/linear.jsonl")))
	config, err := json.Marshal(map[string]any{"mcpServers": map[string]any{"pitool": map[string]any{"command": pitoolExe(t), "args": []string{"mcp"}}}})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(agent, "mcp.json"), config)

	cmd := exec.CommandContext(ctx, script, "list", "--json")
	cmd.Dir = home
	cmd.Env = append(withoutEnv(os.Environ(), "HOME", "PI_CODING_AGENT_DIR", "XDG_CONFIG_HOME"),
		"HOME="+home, "PI_MCP_HOME="+strings.TrimSpace(string(installed)))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pi mcp list: %v\n%s%s", err, out, stderr.String())
	}
	var list struct {
		Servers []struct {
			Name, State, Error string
			Tools              []string
		}
	}
	if err := json.Unmarshal(out, &list); err != nil {
		t.Fatalf("pi mcp list --json: %v\n%s", err, out)
	}
	if len(list.Servers) != 1 || list.Servers[0].Name != "pitool" || list.Servers[0].State != "connected" {
		t.Fatalf("pi mcp list: %s", out)
	}
	if want := []string{"list_sessions", "read_session", "search_sessions", "session_usage"}; !slices.Equal(list.Servers[0].Tools, want) {
		t.Fatalf("tools %v, want %v", list.Servers[0].Tools, want)
	}
	if !bytes.Equal(readFile(t, session), readFile(t, corpusFile("v3/linear.jsonl"))) {
		t.Fatal("the session changed")
	}
}

func writeFile(t *testing.T, name string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// withoutEnv is env without the variables named.
func withoutEnv(env []string, names ...string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return slices.Contains(names, name)
	})
}
