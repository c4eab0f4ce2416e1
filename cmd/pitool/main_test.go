package main

import (
	"fmt"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets testscript run pitool in-process as the "pitool" command.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"pitool": func() { os.Exit(mainCode()) },
	})
}

// TestScripts runs the CLI stories in testdata/script/*.txtar. $CORPUS points
// at the committed copies of the shared corpus in testdata/corpus. The
// condition [root] holds when the tests run as root (device nodes, owners).
func TestScripts(t *testing.T) {
	corpus, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:  "testdata/script",
		Cmds: scriptCmds,
		Setup: func(env *testscript.Env) error {
			env.Setenv("CORPUS", corpus+"/../../testdata/corpus")
			env.Setenv("PI_CODING_AGENT_DIR", env.WorkDir+"/.pi-agent")
			return nil
		},
		Condition: func(cond string) (bool, error) {
			if cond == "root" {
				return os.Geteuid() == 0, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
	})
}
