// Package deploy holds what an operator copies to run pitool nightly: a
// systemd user service and timer, the administrator's system-wide service
// and timer over every user's sessions (systemd/), and Kubernetes manifests
// (kubernetes/), described in docs/fleet.md. The package has no code; its
// tests check the files with systemd-analyze, by decoding them strictly into
// Kubernetes' own types, and by running their pitool command lines, so that
// Kubernetes stays a test-only dependency.
package deploy
