// Package bitset is a set of entry numbers at one bit per entry: what the
// index's walks, the tree and repair's path check mark entries with, where a
// bool, an int or a map per entry would cost 8 to 64 times more on a session
// of millions of entries.
package bitset

// Set holds entry numbers below the size it was made with.
type Set []uint64

// New returns an empty set of the numbers below n.
func New(n int) Set { return make(Set, (n+63)/64) }

// Add puts i in the set.
func (s Set) Add(i int) { s[i/64] |= 1 << (i % 64) }

// Remove takes i out of the set.
func (s Set) Remove(i int) { s[i/64] &^= 1 << (i % 64) }

// Has reports whether i is in the set.
func (s Set) Has(i int) bool { return s[i/64]&(1<<(i%64)) != 0 }
