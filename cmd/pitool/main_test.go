package main

import (
	"fmt"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/sys/unix"
)

// TestMain lets testscript run pitool in-process as the "pitool" command.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"pitool": func() { os.Exit(mainCode()) },
	})
}

// TestScripts runs the CLI stories in testdata/script/*.txtar. $CORPUS points
// at the committed copies of the shared corpus in testdata/corpus. The
// condition [root] holds when the tests run as root (device nodes, owners),
// [xattr] when their temporary folder keeps user extended attributes.
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
			if cond == "xattr" {
				return userXattrs(), nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
	})
}

// userXattrs reports whether files in the temporary folder keep user
// extended attributes (pitool's mark of its own writes lives in one).
func userXattrs() bool {
	f, err := os.CreateTemp("", "xattr-probe")
	if err != nil {
		return false
	}
	defer os.Remove(f.Name())
	defer f.Close()
	return unix.Fsetxattr(int(f.Fd()), "user.probe", []byte("1"), 0) == nil
}
