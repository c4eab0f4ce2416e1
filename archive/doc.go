// Package archive owns a Pi session's archive: X.jsonl compressed to
// X.jsonl.zst beside it (what nightly --archive-after does), its undoing
// (unarchive), and the recovery of an archive a killed run left half done.
// Every step goes through internal/safefile's folder handles and locks; it
// imports jsonl to read sessions and nothing of pitool's capabilities.
package archive
