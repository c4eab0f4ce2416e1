package main

import (
	"context"
	"strings"
	"testing"
)

func TestFlagsFirst(t *testing.T) {
	app := newApp(&env{})
	cases := map[string]string{
		"pitool context FILE --view llm":               "pitool context --view llm FILE",
		"pitool context --leaf X FILE":                 "pitool context --leaf X FILE",
		"pitool tree FILE --json":                      "pitool tree --json FILE",
		"pitool context - --view=provider":             "pitool context --view=provider -",
		"pitool context FILE -- --view":                "pitool context FILE -- --view",
		"pitool info A --json B":                       "pitool info --json A B",
		"pitool nosuch FILE --x":                       "pitool nosuch FILE --x",
		"pitool export html FILE -o OUT --no-thinking": "pitool export html -o OUT --no-thinking FILE",
	}
	for in, want := range cases {
		if got := strings.Join(flagsFirst(app, strings.Fields(in)), " "); got != want {
			t.Errorf("flagsFirst(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCheckArgs(t *testing.T) {
	app := newApp(&env{})
	cases := map[string]string{
		"pitool context FILE --view llm":               "",
		"pitool context FILE --veiw llm":               "unknown flag --veiw: did you mean --view?",
		"pitool context FILE --zzzzqq":                 "unknown flag --zzzzqq",
		"pitool contxt FILE":                           `unknown command "contxt": did you mean "context"?`,
		"pitool ls --limit=abc":                        `--limit: "abc" is not a whole number`,
		"pitool ls --limit 7":                          "",
		"pitool ls --limit":                            "--limit: needs a value",
		"pitool ls --since 7d":                         "",
		"pitool ls --since 7":                          `--since: "7" needs a unit: ` + "an age (7d, 12h, 30m, 90s, 2w), a date (2026-01-31) or an ISO time (2026-01-31T15:04:05Z)",
		"pitool stats --by yaer":                       `--by: "yaer" is not one of day, week, month, model, provider, project, session`,
		"pitool export html FILE --no-thinkng":         "unknown flag --no-thinkng: did you mean --no-thinking?",
		"pitool export htm FILE":                       `unknown format "htm": did you mean "html"?`,
		"pitool export help":                           "",
		"pitool search -- --not-a-flag FILE":           "",
		"pitool context FILE --help":                   "",
		"pitool --version":                             "",
		"pitool --verison":                             "unknown flag --verison: did you mean --version?",
		"pitool stats --by --generate-bash-completion": "",
	}
	for in, want := range cases {
		err := checkArgs(app, strings.Fields(in))
		got := ""
		if err != nil {
			got = err.Error()
			if exitCode(context.Background(), err) != exitUsage {
				t.Errorf("checkArgs(%q): exit %d, want %d", in, exitCode(context.Background(), err), exitUsage)
			}
		}
		if got != want {
			t.Errorf("checkArgs(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestHelpArgs(t *testing.T) {
	for in, want := range map[string]string{
		"pitool help":             "pitool --help",
		"pitool help ls":          "pitool ls --help",
		"pitool help export html": "pitool export html --help",
		"pitool ls help":          "pitool ls help",
	} {
		if got := strings.Join(helpArgs(strings.Fields(in)), " "); got != want {
			t.Errorf("helpArgs(%q) = %q, want %q", in, got, want)
		}
	}
}
