//go:build !amd64

package search

// havePairAsm reports whether pairBlocks can run here: it cannot.
const havePairAsm = false

// pairBlocks is never called where havePairAsm is false.
func pairBlocks(a, b []byte, c1, c2 byte, blocks int) (block int, mask uint32) {
	panic("search: pairBlocks without vector instructions")
}
