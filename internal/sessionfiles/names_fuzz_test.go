package sessionfiles

import (
	"path/filepath"
	"strings"
	"testing"
)

// FuzzNames checks the names pitool builds from session content (a clone's
// or fork's folder from the header's cwd, its file from the timestamp and
// id): the folder is one path element inside the sessions folder whatever
// the cwd, and reads back as the cwd Pi's name stands for (but "----", of
// the cwd "/", which repair takes for no cwd: TestCwdFromFolderName); a
// file name with an id Pi accepts is one path element too, and gives the id
// back when the id holds no '_' (IDFromFileName reads after the last one,
// so "a_b" comes back as "b": left as it is, Pi's own ids have none) and
// the timestamp is an ISO time as Pi writes it (any other name holds no id).
func FuzzNames(f *testing.F) {
	f.Add("/home/dev/proj", "2026-01-01T00:00:00.000Z", "0196f2c1-7a2b-7c3d-8e4f-0123456789ab")
	f.Add("../../etc", "../..", "a_b")
	f.Add(`C:\Users\x:y`, "t/../u", "x.y-z")
	f.Add("/", "", "..")
	f.Fuzz(func(t *testing.T, cwd, timestamp, id string) {
		dir := CwdFolderName(cwd)
		if joined := filepath.Join("/sessions", dir); filepath.Dir(joined) != "/sessions" || filepath.Base(joined) != dir {
			t.Fatalf("cwd %q: folder %q leaves the sessions folder (%s)", cwd, dir, joined)
		}
		back, ok := CwdFromFolderName(dir)
		want := strings.NewReplacer("-", "/", `\`, "/", ":", "/").Replace(cwd)
		if dir != "----" && (!ok || (strings.HasPrefix(cwd, "/") && back != want)) {
			t.Fatalf("cwd %q: folder %q reads back as %q %v", cwd, dir, back, ok)
		}
		if !sessionIDPattern.MatchString(id) || strings.ContainsAny(timestamp, `/\`) || strings.Contains(id, "_") {
			return
		}
		name := FileName(timestamp, id)
		if filepath.Base(name) != name || name == ".." {
			t.Fatalf("timestamp %q, id %q: file name %q is no single path element", timestamp, id, name)
		}
		if !fileTimePattern.MatchString(strings.TrimSuffix(name, "_"+id+".jsonl")) {
			return
		}
		if got, ok := IDFromFileName(name); !ok || got != id {
			t.Fatalf("timestamp %q, id %q: %q gives the id %q %v", timestamp, id, name, got, ok)
		}
	})
}
