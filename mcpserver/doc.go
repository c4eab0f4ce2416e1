// Package mcpserver serves Pi's sessions to a coding agent over the Model
// Context Protocol (the official Go SDK): tools to search, list and read
// sessions and to total their usage, read-only, every answer bounded in size
// and passed through redact's rules.
//
// It is a composition layer, as cmd/pitool is: it wires jsonl (listing,
// indexing), search, stats, redact and exporter (the transcript) and owns no
// knowledge of the format. Sessions are only ever opened through jsonl's and
// search's readers; nothing here opens a file for writing.
package mcpserver
