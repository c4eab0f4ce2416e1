package jsonl

import (
	"hash/maphash"
	"slices"
	"unsafe"
)

// idChunkBytes is the size of each block of id text. Blocks never move once
// allocated, so the strings handed out point into them safely.
const idChunkBytes = 1 << 20

// idTable maps entry ids to entry numbers with open addressing over a slice of
// words, and keeps the id text in large pointer-free blocks: a few bytes per
// entry and nothing for the garbage collector to trace, instead of a Go map of
// strings (about 60 bytes per entry). Each slot also holds the top half of its
// id's hash, so a probe compares id text only when the hashes agree, and
// since a slot is chosen by the top bits of the hash, the table grows
// without hashing any id again.
type idTable struct {
	seed   maphash.Seed
	slots  []uint64 // hash tag << 32 | entry number + 1; 0 is an empty slot
	shift  uint     // 64 - log2(len(slots)): a hash's slot is its top bits
	refs   []uint64 // each entry's id: hidden bit | block << 44 | position << 24 | length
	chunks [][]byte
	count  int // distinct ids in slots

	// same, when set, says whether a later entry with an earlier one's id
	// is that entry written twice (a repeat): the id then keeps naming the
	// earlier one.
	same    func(earlier, later int32) bool
	dupes   []duplicate // entries placed while their id named an earlier entry
	placed  int         // entries before this one are in slots; place puts the rest
	hashes  []uint64    // place's scratch
	touched uint64      // place's first reads of the slots, kept so they are done
}

// duplicate is an entry whose id named an earlier entry when it was placed.
type duplicate struct {
	earlier, entry int32
	repeat         bool // same said so: the id still names earlier
}

const (
	refLenBits = 24
	refPosBits = 20
	// refHidden marks an entry its id must never name: one without a string
	// id, or one that is not a node of the tree.
	refHidden = 1 << 63
)

// The table grows when more than maxLoadNum/maxLoadDen of its slots would be
// full: at 3/4 a linear probe is still short (each slot's hash tag spares
// most id compares), and a session of 4.6 M entries fits 2^23 slots (64 MiB)
// where a half-full limit needs 2^24 (128 MiB, issue 16).
const maxLoadNum, maxLoadDen = 3, 4

// placeBatch is how many added entries wait before place puts them in the
// slots together.
const placeBatch = 256

func newIDTable() *idTable {
	return &idTable{seed: maphash.MakeSeed(), slots: make([]uint64, 1<<10), shift: 64 - 10}
}

// add records the id of the next entry (number len(ids)), which becomes the
// one the id resolves to, as the later duplicate wins in Pi, unless the
// entry is hidden: then its id is kept but names nothing. The entry waits
// for the next batch before it is placed in the slots.
func (t *idTable) add(id []byte, hidden bool) {
	ref := t.intern(id)
	if hidden {
		ref |= refHidden
	}
	t.refs = append(t.refs, ref)
	if len(t.refs)-t.placed >= placeBatch {
		t.place()
	}
}

// place puts the entries added since the last call in the slots. A large
// table's slots are cache misses; reading the first slot of every entry in
// one loop lets the processor wait for them together, not one per line.
func (t *idTable) place() {
	for maxLoadDen*(t.count+len(t.refs)-t.placed) > maxLoadNum*len(t.slots) {
		t.grow()
	}
	hashes := t.hashes[:0]
	for e := t.placed; e < len(t.refs); e++ {
		h := maphash.String(t.seed, t.id(int32(e)))
		hashes = append(hashes, h)
		t.touched += t.slots[h>>t.shift]
	}
	for k, h := range hashes {
		if entry := int32(t.placed + k); t.refs[entry]&refHidden == 0 {
			t.placeOne(entry, h)
		}
	}
	t.placed, t.hashes = len(t.refs), hashes
}

// placeOne makes entry's id, whose hash is h, name it, unless it repeats the
// entry the id names already.
func (t *idTable) placeOne(entry int32, h uint64) {
	slot, found := t.find(t.id(entry), h)
	if !found {
		t.count++
		t.slots[slot] = slotWord(h, entry)
		return
	}
	earlier := slotEntry(t.slots[slot])
	repeat := t.same != nil && t.same(earlier, entry)
	t.dupes = append(t.dupes, duplicate{earlier: earlier, entry: entry, repeat: repeat})
	if !repeat {
		t.slots[slot] = slotWord(h, entry)
	}
}

// duplicates returns the entries placed while their id named an earlier
// entry, in entry order.
func (t *idTable) duplicates() []duplicate {
	t.place()
	return t.dupes
}

// hidden reports whether entry i's id names nothing (see add).
func (t *idTable) hidden(i int32) bool { return t.refs[i]&refHidden != 0 }

// slotWord is what a slot holds for entry, whose id hashes to h.
func slotWord(h uint64, entry int32) uint64 { return h&^(1<<32-1) | uint64(entry+1) }

// slotEntry returns the entry number a full slot holds.
func slotEntry(word uint64) int32 { return int32(uint32(word)) - 1 }

// lookup returns the entry an id resolves to.
func (t *idTable) lookup(id []byte) (int32, bool) {
	if t.placed < len(t.refs) {
		t.place()
	}
	key := unsafe.String(unsafe.SliceData(id), len(id)) // only read during the call
	slot, found := t.find(key, maphash.String(t.seed, key))
	if !found {
		return 0, false
	}
	return slotEntry(t.slots[slot]), true
}

// find returns the slot holding id, whose hash is h, or the empty slot where
// it would go.
func (t *idTable) find(id string, h uint64) (int, bool) {
	mask := len(t.slots) - 1
	tag := h &^ (1<<32 - 1)
	for slot := int(h >> t.shift); ; slot = (slot + 1) & mask {
		word := t.slots[slot]
		if word == 0 {
			return slot, false
		}
		if word&^(1<<32-1) == tag && t.id(slotEntry(word)) == id {
			return slot, true
		}
	}
}

// reserve makes room for n entries in all: their refs, and slots enough
// that placing them never grows the table.
func (t *idTable) reserve(n int) {
	t.refs = slices.Grow(t.refs, n-len(t.refs))
	for maxLoadDen*n > maxLoadNum*len(t.slots) {
		t.grow()
	}
}

func (t *idTable) grow() {
	old := t.slots
	t.slots, t.shift = make([]uint64, 2*len(old)), t.shift-1
	mask := len(t.slots) - 1
	for _, word := range old {
		if word == 0 {
			continue
		}
		slot := int(word >> t.shift) // the tag is the hash's top half
		for t.slots[slot] != 0 {
			slot = (slot + 1) & mask
		}
		t.slots[slot] = word
	}
}

// id returns entry i's id as a string over its block, without copying.
func (t *idTable) id(i int32) string {
	ref := t.refs[i] &^ refHidden
	n := int(ref & (1<<refLenBits - 1))
	if n == 0 {
		return ""
	}
	pos := int(ref >> refLenBits & (1<<refPosBits - 1))
	return unsafe.String(&t.chunks[ref>>(refLenBits+refPosBits)][pos], n)
}

// intern copies id into a block and returns its reference. An id too long for
// a shared block gets a block of its own.
func (t *idTable) intern(id []byte) uint64 {
	if len(id) == 0 {
		return 0
	}
	if len(id) >= 1<<refLenBits {
		id = id[:1<<refLenBits-1] // ids this long are not ids; keep what fits
	}
	n := len(t.chunks)
	if len(id) > idChunkBytes/16 {
		t.chunks = append(t.chunks, append([]byte(nil), id...))
		return uint64(n)<<(refLenBits+refPosBits) | uint64(len(id))
	}
	if n == 0 || cap(t.chunks[n-1])-len(t.chunks[n-1]) < len(id) {
		t.chunks = append(t.chunks, make([]byte, 0, max(t.nextChunkBytes(), len(id))))
		n++
	}
	c := t.chunks[n-1]
	pos := len(c)
	t.chunks[n-1] = append(c, id...)
	return uint64(n-1)<<(refLenBits+refPosBits) | uint64(pos)<<refLenBits | uint64(len(id))
}

// firstChunkBytes is the first shared block's size: the blocks double up to
// idChunkBytes, so a small session allocates a few KB of ids, not a megabyte
// (issue 16: nightly over 10,000 small sessions zeroed a megabyte each).
const firstChunkBytes = 4 << 10

// nextChunkBytes is the size of the next shared block.
func (t *idTable) nextChunkBytes() int {
	if n := len(t.chunks); n > 0 {
		return min(2*cap(t.chunks[n-1]), idChunkBytes)
	}
	return firstChunkBytes
}
