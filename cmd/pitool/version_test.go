package main

import (
	"runtime/debug"
	"testing"
)

// TestBuildVersion covers each way pitool is built: the module version and
// the stamped commit come out as the go command recorded them.
func TestBuildVersion(t *testing.T) {
	stamped := []debug.BuildSetting{
		{Key: "-buildmode", Value: "exe"},
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "0e74b2d4e11a2ad45fdb0f883dc95f9bf7ca8c5a"},
		{Key: "vcs.time", Value: "2026-12-01T20:19:43Z"},
		{Key: "vcs.modified", Value: "false"},
	}
	dirty := append(append([]debug.BuildSetting{}, stamped[:4]...), debug.BuildSetting{Key: "vcs.modified", Value: "true"})
	tests := []struct {
		name     string
		version  string
		settings []debug.BuildSetting
		want     string
	}{
		{"go install @version", "v1.2.3", nil, "v1.2.3 (go1.26.8)"},
		{"go build in a clone", "v0.0.0-20261201201943-0e74b2d4e11a", stamped,
			"v0.0.0-20261201201943-0e74b2d4e11a (commit 0e74b2d4e11a, 2026-12-01T20:19:43Z; go1.26.8)"},
		{"go build in a modified clone", "v0.0.0-20261201201943-0e74b2d4e11a+dirty", dirty,
			"v0.0.0-20261201201943-0e74b2d4e11a+dirty (commit 0e74b2d4e11a, 2026-12-01T20:19:43Z, modified; go1.26.8)"},
		{"go run", "(devel)", nil, "devel (no commit stamped: go run, or built with -buildvcs=false; go1.26.8)"},
		{"an older go build in a clone", "(devel)", stamped, "devel (commit 0e74b2d4e11a, 2026-12-01T20:19:43Z; go1.26.8)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/pitool/pitool", Version: tt.version}, Settings: tt.settings}
			if got := buildVersion(info, true); got != tt.want {
				t.Errorf("buildVersion = %q, want %q", got, tt.want)
			}
		})
	}
	if got := buildVersion(nil, false); got != "unknown (no build info)" {
		t.Errorf("without build info: %q", got)
	}
}
