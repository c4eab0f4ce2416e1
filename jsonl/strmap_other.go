//go:build !amd64

package jsonl

// mapBlocks writes, for each 64-byte block of src (whose length is a multiple
// of 64), the quotes that delimit strings and the letters u that follow an
// escaping backslash, carrying st from block to block. Control bytes inside
// strings and escapes that are not valid are noted in st.errors, the
// escaped letters u of all blocks in st.unicode.
func mapBlocks(src []byte, delims, unicodeEscapes []uint64, st *blockState) {
	mapBlocksGeneric(src, delims, unicodeEscapes, st)
}
