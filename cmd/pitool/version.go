package main

import (
	"runtime/debug"
	"strings"
)

// buildVersion describes the running binary from its build info: the module
// version (the tag for `go install …@vX.Y.Z`, a pseudo-version for `go build`
// in a clone, "devel" for `go run`), then the commit, its time and whether
// the work tree was modified, as the go command stamped them, and the Go
// release that built it.
func buildVersion(info *debug.BuildInfo, ok bool) string {
	if !ok {
		return "unknown (no build info)"
	}
	version := strings.Trim(info.Main.Version, "()")
	if version == "" {
		version = "devel"
	}
	details := vcsDetails(info.Settings)
	if len(details) == 0 && version == "devel" {
		details = []string{"no commit stamped: go run, or built with -buildvcs=false"}
	}
	return version + " (" + strings.Join(append(details, info.GoVersion), "; ") + ")"
}

// vcsDetails is "commit C, TIME[, modified]" from the vcs.* build settings,
// or nothing when the go command stamped none.
func vcsDetails(settings []debug.BuildSetting) []string {
	vcs := map[string]string{}
	for _, s := range settings {
		vcs[s.Key] = s.Value
	}
	rev := vcs["vcs.revision"]
	if rev == "" {
		return nil
	}
	parts := []string{"commit " + rev[:min(len(rev), 12)]}
	if t := vcs["vcs.time"]; t != "" {
		parts = append(parts, t)
	}
	if vcs["vcs.modified"] == "true" {
		parts = append(parts, "modified")
	}
	return []string{strings.Join(parts, ", ")}
}
