//go:build !amd64

package jsonl

// classify writes, for each 64-byte block of src (whose length is a multiple
// of 64), three words to masks: the bits of its quotes, of its backslashes
// and of its bytes below 0x20.
func classify(src []byte, masks []uint64) { classifyGeneric(src, masks) }
