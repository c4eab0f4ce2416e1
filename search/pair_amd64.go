package search

import "golang.org/x/sys/cpu"

// havePairAsm reports whether pairBlocks can run here.
var havePairAsm = cpu.X86.HasAVX2

// pairBlocks compares a and b 32 bytes at a time, for at most blocks blocks
// (each slice holds at least 32*blocks bytes): it returns the first block
// where some a[i] is c1 and b[i] is c2, with the bit i%32 set in mask for
// each such i, or blocks and mask 0 when there is none.
//
//go:noescape
func pairBlocks(a, b []byte, c1, c2 byte, blocks int) (block int, mask uint32)
