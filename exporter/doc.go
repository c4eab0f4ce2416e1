// Package exporter turns a session into something to read or to continue
// from: a self-contained HTML page or Markdown of a branch, and Pi-compatible
// clones and forks of a session file. Both formats lay out one Transcript,
// which decides what each entry shows.
package exporter
