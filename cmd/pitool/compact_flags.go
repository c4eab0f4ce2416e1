package main

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/pitool/pitool/compactor"
	"github.com/urfave/cli/v2"
)

// defaultFolderIdle is --min-idle for files found in folders: younger files
// may belong to a live Pi session.
const defaultFolderIdle = 10 * time.Minute

// compactFlags are the flags compact and nightly share.
func compactFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "context-window", Value: compactor.DefaultContextWindow, Usage: "the model's context window in `TOKENS`"},
		&cli.IntFlag{Name: "reserve-tokens", Value: compactor.DefaultSettings.ReserveTokens, Usage: "compact when fewer than `N` tokens of the window are left free"},
		&cli.IntFlag{Name: "keep-recent-tokens", Value: compactor.DefaultSettings.KeepRecentTokens, Usage: "keep about `N` recent tokens verbatim after the summary"},
		&cli.BoolFlag{Name: "even-if-not-due", Usage: "compact even when not due"},
		&cli.StringFlag{Name: "summarizer", Value: "extractive", Usage: "`NAME`: extractive (offline), openai, anthropic or command"},
		&cli.StringFlag{Name: "instructions", Usage: "extra focus for the summary, as in Pi's /compact `TEXT`"},
		&cli.StringFlag{Name: "model", Usage: "summarizer `MODEL` (default $OPENAI_MODEL or gpt-4o-mini, $ANTHROPIC_MODEL or claude-sonnet-4-5)"},
		&cli.StringFlag{Name: "base-url", Usage: "API base `URL` (default $OPENAI_BASE_URL, $ANTHROPIC_BASE_URL or the vendor's)"},
		&cli.StringFlag{Name: "api-key", Usage: "API `KEY` (default $OPENAI_API_KEY or $ANTHROPIC_API_KEY, which keep it out of ps)"},
		&cli.StringFlag{Name: "command", Usage: "for --summarizer command: a shell `COMMAND` that reads the prompt on stdin and prints the summary", EnvVars: []string{"PITOOL_SUMMARY_COMMAND"}},
		&cli.IntFlag{Name: "max-tokens", DefaultText: "8192 for anthropic, unset for openai", Usage: "longest summary in `TOKENS`"},
		&cli.DurationFlag{Name: "timeout", Value: compactor.DefaultTimeout, Usage: "time limit `D` of one summarizer request"},
		&cli.IntFlag{Name: "retries", Value: compactor.DefaultRetries, Usage: "retry a request `N` times after a network error, 429 or 5xx (with backoff, or the server's Retry-After)"},
		&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: min(4, runtime.NumCPU()), DefaultText: "the number of CPUs, at most 4", Usage: "process `N` files at once"},
		minIdleFlag(),
		&cli.StringFlag{Name: "shard", Usage: "process only shard `K/N` (0 <= K < N) of the files, split stably by file name"},
	}
}

// minIdleFlag is --min-idle: an age (internal/when), 10m unless given.
func minIdleFlag() cli.Flag {
	f := ageFlag("min-idle", "skip files modified less than `AGE` ago: they may be live", defaultFolderIdle, nil)
	f.DefaultText = "10m for folders, 0 for named files"
	return f
}

// compactorOptions reads the shared flags.
func compactorOptions(c *cli.Context) (compactor.Options, error) {
	opts := compactor.Options{
		Settings:      compactor.Settings{ReserveTokens: c.Int("reserve-tokens"), KeepRecentTokens: c.Int("keep-recent-tokens")},
		ContextWindow: c.Int("context-window"),
		Force:         c.Bool("even-if-not-due"),
		Instructions:  c.String("instructions"),
	}
	if opts.ContextWindow <= 0 || opts.ReserveTokens < 0 || opts.KeepRecentTokens < 0 {
		return opts, usagef("--context-window must be positive and token counts not negative")
	}
	if c.Int("jobs") < 1 {
		return opts, usagef("-j must be at least 1, not %d", c.Int("jobs"))
	}
	s, err := newSummarizer(c)
	opts.Summarizer = s
	return opts, err
}

// newSummarizer builds the summarizer --summarizer names.
func newSummarizer(c *cli.Context) (compactor.Summarizer, error) {
	http := compactor.HTTPOptions{Timeout: c.Duration("timeout"), Retries: c.Int("retries")}
	switch name := c.String("summarizer"); name {
	case "extractive":
		return compactor.Extractive{}, nil
	case "openai":
		return &compactor.OpenAI{BaseURL: flagOrEnv(c, "base-url", "OPENAI_BASE_URL", "https://api.openai.com/v1"),
			Model: flagOrEnv(c, "model", "OPENAI_MODEL", "gpt-4o-mini"), APIKey: flagOrEnv(c, "api-key", "OPENAI_API_KEY", ""),
			MaxTokens: c.Int("max-tokens"), HTTP: http}, nil
	case "anthropic":
		key := flagOrEnv(c, "api-key", "ANTHROPIC_API_KEY", "")
		if key == "" {
			return nil, usagef("--summarizer anthropic needs --api-key or $ANTHROPIC_API_KEY")
		}
		return &compactor.Anthropic{BaseURL: flagOrEnv(c, "base-url", "ANTHROPIC_BASE_URL", "https://api.anthropic.com"),
			Model: flagOrEnv(c, "model", "ANTHROPIC_MODEL", "claude-sonnet-4-5"), APIKey: key, MaxTokens: c.Int("max-tokens"), HTTP: http}, nil
	case "command":
		if c.String("command") == "" {
			return nil, usagef("--summarizer command needs --command 'PROGRAM ARGS' (e.g. 'pi -p' or 'ollama run llama3')")
		}
		return &compactor.Command{Line: c.String("command")}, nil
	default:
		return nil, usagef("--summarizer must be extractive, openai, anthropic or command, not %q", name)
	}
}

func flagOrEnv(c *cli.Context, flag, env, dflt string) string {
	if v := c.String(flag); v != "" {
		return v
	}
	if v := os.Getenv(env); v != "" {
		return v
	}
	return dflt
}

// shard is --shard K/N; the zero value takes every file.
type shard struct{ k, n uint64 }

func parseShard(s string) (shard, error) {
	if s == "" {
		return shard{0, 1}, nil
	}
	ks, ns, ok := strings.Cut(s, "/")
	k, errK := strconv.ParseUint(ks, 10, 32)
	n, errN := strconv.ParseUint(ns, 10, 32)
	if !ok || errK != nil || errN != nil || n == 0 || k >= n {
		return shard{}, usagef("--shard must be K/N with 0 <= K < N, not %q", s)
	}
	return shard{k, n}, nil
}

// takes reports whether key (a file's shardKey) falls in this shard: FNV-1a
// of the key, modulo N.
func (s shard) takes(key string) bool {
	h := uint64(14695981039346656037)
	for i := 0; i < len(key); i++ {
		h ^= uint64(key[i])
		h *= 1099511628211
	}
	return h%s.n == s.k
}
