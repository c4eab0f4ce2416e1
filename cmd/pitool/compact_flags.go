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

// batchOptions are the flags compact and nightly share: the compactor's
// settings, the summarizer, and which files are worked on and how many at once.
type batchOptions struct {
	settings      compactor.Settings
	contextWindow int
	evenIfNotDue  bool
	summarizer    string
	instructions  string
	model         string
	baseURL       string
	apiKey        string
	command       string
	maxTokens     int
	timeout       time.Duration
	retries       int
	jobs          int
	minIdle       time.Duration
	minIdleGiven  bool   // --min-idle was given: named files wait for it too
	shardText     string // --shard as given
	shard         shard  // --shard, read by validate
}

func (o *batchOptions) flags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "context-window", Value: compactor.DefaultContextWindow, Usage: "the model's context window in `TOKENS`", Destination: &o.contextWindow},
		&cli.IntFlag{Name: "reserve-tokens", Value: compactor.DefaultSettings.ReserveTokens, Usage: "compact when fewer than `N` tokens of the window are left free", Destination: &o.settings.ReserveTokens},
		&cli.IntFlag{Name: "keep-recent-tokens", Value: compactor.DefaultSettings.KeepRecentTokens, Usage: "keep about `N` recent tokens verbatim after the summary", Destination: &o.settings.KeepRecentTokens},
		&cli.BoolFlag{Name: "even-if-not-due", Usage: "compact even when not due", Destination: &o.evenIfNotDue},
		&cli.StringFlag{Name: "summarizer", Value: "extractive", Usage: "`NAME`: extractive (offline), openai, anthropic or command", Destination: &o.summarizer},
		&cli.StringFlag{Name: "instructions", Usage: "extra focus for the summary, as in Pi's /compact `TEXT`", Destination: &o.instructions},
		&cli.StringFlag{Name: "model", Usage: "summarizer `MODEL` (default $OPENAI_MODEL or gpt-4o-mini, $ANTHROPIC_MODEL or claude-sonnet-4-5)", Destination: &o.model},
		&cli.StringFlag{Name: "base-url", Usage: "API base `URL` (default $OPENAI_BASE_URL, $ANTHROPIC_BASE_URL or the vendor's)", Destination: &o.baseURL},
		&cli.StringFlag{Name: "api-key", Usage: "API `KEY` (default $OPENAI_API_KEY or $ANTHROPIC_API_KEY, which keep it out of ps)", Destination: &o.apiKey},
		&cli.StringFlag{Name: "command", Usage: "for --summarizer command: a shell `COMMAND` that reads the prompt on stdin and prints the summary", EnvVars: []string{"PITOOL_SUMMARY_COMMAND"}, Destination: &o.command},
		&cli.IntFlag{Name: "max-tokens", DefaultText: "8192 for anthropic, unset for openai", Usage: "longest summary in `TOKENS`", Destination: &o.maxTokens},
		&cli.DurationFlag{Name: "timeout", Value: compactor.DefaultTimeout, Usage: "time limit `D` of one summarizer request", Destination: &o.timeout},
		&cli.IntFlag{Name: "retries", Value: compactor.DefaultRetries, Usage: "retry a request `N` times after a network error, 429 or 5xx (with backoff, or the server's Retry-After)", Destination: &o.retries},
		&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: min(4, runtime.NumCPU()), DefaultText: "the number of CPUs, at most 4", Usage: "process `N` files at once", Destination: &o.jobs},
		minIdleFlag(&o.minIdle, &o.minIdleGiven),
		&cli.StringFlag{Name: "shard", Usage: "process only shard `K/N` (0 <= K < N) of the files, split stably by file name", Destination: &o.shardText},
	}
}

// validate checks the numbers and reads --shard.
func (o *batchOptions) validate() (err error) {
	if o.contextWindow <= 0 || o.settings.ReserveTokens < 0 || o.settings.KeepRecentTokens < 0 {
		return usagef("--context-window must be positive and token counts not negative")
	}
	if o.jobs < 1 {
		return usagef("-j must be at least 1, not %d", o.jobs)
	}
	o.shard, err = parseShard(o.shardText)
	return err
}

// minIdleFlag is --min-idle: an age (internal/when), 10m until given, bound
// to dst; given records that it was given.
func minIdleFlag(dst *time.Duration, given *bool) cli.Flag {
	f := ageFlag("min-idle", "skip files modified less than `AGE` ago: they may be live", defaultFolderIdle, dst)
	f.DefaultText = "10m for folders, 0 for named files"
	f.Action = func(*cli.Context, any) error { *given = true; return nil }
	return f
}

// compactorOptions are the compactor's options the flags give.
func (o *batchOptions) compactorOptions() (compactor.Options, error) {
	opts := compactor.Options{
		Settings:      o.settings,
		ContextWindow: o.contextWindow,
		Force:         o.evenIfNotDue,
		Instructions:  o.instructions,
	}
	s, err := o.newSummarizer()
	opts.Summarizer = s
	return opts, err
}

// newSummarizer builds the summarizer --summarizer names.
func (o *batchOptions) newSummarizer() (compactor.Summarizer, error) {
	http := compactor.HTTPOptions{Timeout: o.timeout, Retries: o.retries}
	switch o.summarizer {
	case "extractive":
		return compactor.Extractive{}, nil
	case "openai":
		return &compactor.OpenAI{BaseURL: orEnv(o.baseURL, "OPENAI_BASE_URL", "https://api.openai.com/v1"),
			Model: orEnv(o.model, "OPENAI_MODEL", "gpt-4o-mini"), APIKey: orEnv(o.apiKey, "OPENAI_API_KEY", ""),
			MaxTokens: o.maxTokens, HTTP: http}, nil
	case "anthropic":
		key := orEnv(o.apiKey, "ANTHROPIC_API_KEY", "")
		if key == "" {
			return nil, usagef("--summarizer anthropic needs --api-key or $ANTHROPIC_API_KEY")
		}
		return &compactor.Anthropic{BaseURL: orEnv(o.baseURL, "ANTHROPIC_BASE_URL", "https://api.anthropic.com"),
			Model: orEnv(o.model, "ANTHROPIC_MODEL", "claude-sonnet-4-5"), APIKey: key, MaxTokens: o.maxTokens, HTTP: http}, nil
	case "command":
		if o.command == "" {
			return nil, usagef("--summarizer command needs --command 'PROGRAM ARGS' (e.g. 'pi -p' or 'ollama run llama3')")
		}
		return &compactor.Command{Line: o.command}, nil
	default:
		return nil, usagef("--summarizer must be extractive, openai, anthropic or command, not %q", o.summarizer)
	}
}

// orEnv returns flag's value if given, else $env's, else dflt.
func orEnv(flag, env, dflt string) string {
	if flag != "" {
		return flag
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
