package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPCommand drives pitool mcp, run as the command line runs it, with
// the SDK's client over its stdin and stdout: Pi's sessions folder by
// default, the four tools, an answer, and an exit 0 when the client
// closes the connection.
func TestMCPCommand(t *testing.T) {
	agent := t.TempDir()
	t.Setenv("PI_CODING_AGENT_DIR", agent)
	project := filepath.Join(agent, "sessions", "--home-dev-project--")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("../../testdata/corpus/v3/linear.jsonl")
	if err == nil {
		err = os.WriteFile(filepath.Join(project, "linear.jsonl"), b, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int)
	go func() {
		code := run(context.Background(), []string{"pitool", "mcp"}, inR, outW, &stderr)
		outW.Close()
		done <- code
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(context.Background(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	if got := strings.Join(names, " "); got != "list_sessions read_session search_sessions session_usage" {
		t.Fatalf("tools %s", got)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_sessions"})
	if err != nil || res.IsError {
		t.Fatalf("list_sessions: %v %+v", err, res)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, `"total":1`) {
		t.Fatalf("list_sessions: %s", text)
	}
	cs.Close()
	inW.Close()
	if code := <-done; code != 0 || stderr.Len() > 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
}

// TestMCPCommandWithoutSessionsFolder: a sessions folder that does not
// exist is an error before the server starts (exit 2), as for ls.
func TestMCPCommandWithoutSessionsFolder(t *testing.T) {
	t.Setenv("PI_CODING_AGENT_DIR", filepath.Join(t.TempDir(), "missing"))
	code, stdout, stderr := runPitool(context.Background(), "mcp")
	if code != exitUsage || stdout != "" || !strings.Contains(stderr, "no such folder (from PI_CODING_AGENT_DIR)") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
