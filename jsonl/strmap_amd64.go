package jsonl

import "golang.org/x/sys/cpu"

// haveBlockAsm reports whether mapBlocksAVX2 can run here: it needs AVX2 and
// carry-less multiplication, which x86-64 processors have had since 2013.
var haveBlockAsm = cpu.X86.HasAVX2 && cpu.X86.HasPCLMULQDQ

// mapBlocks writes, for each 64-byte block of src (whose length is a multiple
// of 64), the quotes that delimit strings and the letters u that follow an
// escaping backslash, carrying st from block to block. Control bytes inside
// strings and escapes that are not valid are noted in st.errors, the
// escaped letters u of all blocks in st.unicode.
func mapBlocks(src []byte, delims, unicodeEscapes []uint64, st *blockState) {
	if haveBlockAsm {
		mapBlocksAVX2(src, delims, unicodeEscapes, st)
		return
	}
	mapBlocksGeneric(src, delims, unicodeEscapes, st)
}

// mapBlocksAVX2 is mapBlocksGeneric with AVX2 compares for the byte classes,
// nibble tables for the escapes and a carry-less multiply for the prefix xor.
//
//go:noescape
func mapBlocksAVX2(src []byte, delims, unicodeEscapes []uint64, st *blockState)
