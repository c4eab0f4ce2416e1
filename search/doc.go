// Package search finds a pattern in what people and the model saw in Pi
// sessions, with no index of its own: user and assistant text, thinking,
// tool-call arguments, tool results, bash commands and their output,
// compaction and branch summaries, and custom messages.
//
// Matching is on decoded text: a quote, a newline or a \u escape in the file
// never hides a match, as it does for grep or rg on the raw JSONL. A file is
// read line by line, in bounded memory, and a byte prefilter on each raw line
// (Matcher.Candidate) passes only the lines that may hold a match to the
// decoder (jsonl's Reader and string decoder). The prefilter never drops a
// line that holds a match: see Matcher for why, and TestPrefilterKeepsMatches
// for the property.
//
// Run searches many files in parallel and hands each file's matches over in
// the order the files were given. With Options.Copies, a match that clones,
// forks and copies of a session share is handed over once, at the session
// with the earliest header, naming the others; the session headers tell
// which files share history (the same id, or parentSession links), and a
// first pass over those files only finds the copies (copies.go).
package search
