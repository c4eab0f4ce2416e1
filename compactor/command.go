package compactor

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// Command pipes the prompt to a program's stdin and reads the summary from
// its stdout, e.g. `pi -p`, `llm`, or `ollama run MODEL`. The command line is
// run by sh -c; PITOOL_SUMMARY_KIND (history or turn-prefix) and
// PITOOL_SESSION_FILE are set in its environment.
type Command struct {
	Line string
}

// Summarize implements Summarizer.
func (s *Command) Summarize(ctx context.Context, req Request) (Response, error) {
	cmd := exec.CommandContext(ctx, "sh", "-c", s.Line)
	cmd.Stdin = strings.NewReader(req.System + "\n\n" + req.Prompt)
	kind := "history"
	if req.Kind == TurnPrefix {
		kind = "turn-prefix"
	}
	cmd.Env = append(os.Environ(), "PITOOL_SUMMARY_KIND="+kind, "PITOOL_SESSION_FILE="+req.File)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return Response{}, ctx.Err()
		}
		return Response{}, fmt.Errorf("command %q: %w: %s", s.Line, err, clipBody(stderr.Bytes()))
	}
	text := strings.TrimRight(stdout.String(), "\n")
	if strings.TrimSpace(text) == "" {
		return Response{}, fmt.Errorf("command %q: %w", s.Line, errNoText)
	}
	return Response{Text: text}, nil
}
