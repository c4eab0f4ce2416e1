//go:build !amd64

package jsonl

// mapBlocks writes, for each 64-byte block of src (whose length is a multiple
// of 64), the quotes that delimit strings and the bytes that follow an
// escaping backslash, carrying st from block to block.
func mapBlocks(src []byte, delims, escaped []uint64, st *blockState) {
	mapBlocksGeneric(src, delims, escaped, st)
}
