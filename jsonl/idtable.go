package jsonl

import (
	"hash/maphash"
	"math/bits"
	"slices"
	"unsafe"
)

// idChunkBytes is the size of each block of id text. Blocks never move once
// allocated, so the strings handed out point into them safely.
const idChunkBytes = 1 << 20

// idTable maps entry ids to entry numbers with open addressing over a slice of
// words, and keeps the id text in large pointer-free blocks: a few bytes per
// entry and nothing for the garbage collector to trace, instead of a Go map of
// strings (about 60 bytes per entry). An entry's id is a 4-byte reference
// and two flag bits: an id as Pi makes them, 8 lowercase hex digits, is kept
// as its value, with no text; other ids are kept as text, the reference
// naming its place (issue 16).
//
// A slot is 4 bytes: the entry number + 1 in its low bits (entryMask: the
// table has more slots than entries, duplicates and hidden ones included, so
// it fits), and bits of the id's hash in the others, so a probe reads the
// entry's id only when they agree. The slot is chosen by the top half of the
// hash, scaled to the table's size, which need not be a power of two: a
// table reserved for a file's entries is sized to them. The tag is the
// hash's low bits, so on growth each id is hashed again.
type idTable struct {
	seed   maphash.Seed
	slots  []uint32 // hash tag | entry number + 1; 0 is an empty slot
	mask   uint32   // the bits of a slot that hold its entry number + 1
	refs   []uint32 // each entry's id: its value when it packs, else 0 for "" or 1 + its place in texts
	flags  []uint64 // flagBits per entry: whether it is hidden, whether its id packs
	texts  []uint64 // the ids that do not pack: block << 44 | position << 24 | length
	chunks [][]byte

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
)

// The flags of an entry, flagBits of them per entry in idTable.flags.
const (
	// flagHidden marks an entry its id must never name: one without a
	// string id, or one that is not a node of the tree.
	flagHidden = 1 << iota
	flagPacked // its reference is its id's value
	flagBits   = iota
)

// keyPacked marks a packed id in an idKey: its value is the low 32 bits.
const keyPacked = 1 << 32

// packedIDLen is the length of the ids kept as their value: 8 hex digits,
// the first 8 of a random UUID, as Pi's generateId makes them.
const packedIDLen = 8

// idKey is an id as the table compares it: its value when it packs, its text
// otherwise. Two ids are equal exactly when their keys are, since an id
// packs or not by its text alone.
type idKey struct {
	packed uint64 // keyPacked | value when the id packs, 0 otherwise
	text   string // the id when it does not pack
}

// keyOf returns id's key; its text still points into id.
func keyOf(id []byte) idKey {
	if v, ok := packID(id); ok {
		return idKey{packed: keyPacked | uint64(v)}
	}
	return idKey{text: unsafe.String(unsafe.SliceData(id), len(id))}
}

// packID returns the value of an id of 8 lowercase hex digits (only
// lowercase ones pack, so that an id and its packed value are one to one).
func packID(id []byte) (uint32, bool) {
	if len(id) != packedIDLen {
		return 0, false
	}
	var v uint32
	for _, c := range id {
		var d byte
		switch {
		case '0' <= c && c <= '9':
			d = c - '0'
		case 'a' <= c && c <= 'f':
			d = c - 'a' + 10
		default:
			return 0, false
		}
		v = v<<4 | uint32(d)
	}
	return v, true
}

// appendPacked appends the text of a packed id's value.
func appendPacked(dst []byte, v uint32) []byte {
	for shift := 4 * (packedIDLen - 1); shift >= 0; shift -= 4 {
		dst = append(dst, hexDigits[v>>shift&0xf])
	}
	return dst
}

// The table grows when it has more than maxLoadNum/maxLoadDen entries per
// slot (so at most that many slots are full): at 3/4 a linear probe is
// still short (each slot's hash tag spares most id compares), and a session
// of 4.6 M entries reserved for takes 6.4 M slots (26 MB, issue 16).
const maxLoadNum, maxLoadDen = 3, 4

// placeBatch is how many added entries wait before place puts them in the
// slots together.
const placeBatch = 256

func newIDTable() *idTable {
	t := &idTable{seed: maphash.MakeSeed()}
	t.resize(1 << 10)
	return t
}

// add records the id of the next entry (number len(ids)), which becomes the
// one the id resolves to, as the later duplicate wins in Pi, unless the
// entry is hidden: then its id is kept but names nothing. The entry waits
// for the next batch before it is placed in the slots.
func (t *idTable) add(id []byte, hidden bool) {
	ref, packed := t.intern(id)
	var f uint64
	if hidden {
		f |= flagHidden
	}
	if packed {
		f |= flagPacked
	}
	e := len(t.refs)
	if e%idsPerFlagWord == 0 {
		t.flags = append(t.flags, 0)
	}
	t.flags[e/idsPerFlagWord] |= f << (e % idsPerFlagWord * flagBits)
	t.refs = append(t.refs, ref)
	if len(t.refs)-t.placed >= placeBatch {
		t.place()
	}
}

// place puts the entries added since the last call in the slots. A large
// table's slots are cache misses; reading the first slot of every entry in
// one loop lets the processor wait for them together, not one per line.
func (t *idTable) place() {
	for maxLoadDen*len(t.refs) > maxLoadNum*len(t.slots) {
		t.grow()
	}
	hashes := t.hashes[:0]
	for e := t.placed; e < len(t.refs); e++ {
		h := t.hash(t.keyAt(int32(e)))
		hashes = append(hashes, h)
		t.touched += uint64(t.slots[t.home(h)])
	}
	for k, h := range hashes {
		if entry := int32(t.placed + k); !t.hidden(entry) {
			t.placeOne(entry, h)
		}
	}
	t.placed, t.hashes = len(t.refs), hashes
}

// placeOne makes entry's id, whose hash is h, name it, unless it repeats the
// entry the id names already.
func (t *idTable) placeOne(entry int32, h uint64) {
	slot, found := t.find(t.keyAt(entry), h)
	if !found {
		t.slots[slot] = t.slotWord(h, entry)
		return
	}
	earlier := t.slotEntry(t.slots[slot])
	repeat := t.same != nil && t.same(earlier, entry)
	t.dupes = append(t.dupes, duplicate{earlier: earlier, entry: entry, repeat: repeat})
	if !repeat {
		t.slots[slot] = t.slotWord(h, entry)
	}
}

// duplicates returns the entries placed while their id named an earlier
// entry, in entry order.
func (t *idTable) duplicates() []duplicate {
	t.place()
	return t.dupes
}

// hidden reports whether entry i's id names nothing (see add).
func (t *idTable) hidden(i int32) bool { return t.flagsOf(i)&flagHidden != 0 }

// packed reports whether entry i's reference is its id's value.
func (t *idTable) packed(i int32) bool { return t.flagsOf(i)&flagPacked != 0 }

// idsPerFlagWord is how many entries' flags a word of idTable.flags holds.
const idsPerFlagWord = 64 / flagBits

// flagsOf returns entry i's flags.
func (t *idTable) flagsOf(i int32) uint64 {
	return t.flags[i/idsPerFlagWord] >> (i % idsPerFlagWord * flagBits) & (1<<flagBits - 1)
}

// home is the slot where a probe for an id whose hash is h starts.
func (t *idTable) home(h uint64) int { return int((h >> 32) * uint64(len(t.slots)) >> 32) }

// slotWord is what a slot holds for entry, whose id hashes to h.
func (t *idTable) slotWord(h uint64, entry int32) uint32 {
	return uint32(h)&^t.mask | uint32(entry+1)
}

// slotEntry returns the entry number a full slot holds.
func (t *idTable) slotEntry(word uint32) int32 { return int32(word&t.mask) - 1 }

// lookup returns the entry an id resolves to.
func (t *idTable) lookup(id []byte) (int32, bool) {
	if t.placed < len(t.refs) {
		t.place()
	}
	return t.resolve(keyOf(id))
}

// latest returns the entry entry's id resolves to: the last entry with it.
func (t *idTable) latest(entry int32) (int32, bool) {
	if t.placed < len(t.refs) {
		t.place()
	}
	return t.resolve(t.keyAt(entry))
}

// resolve returns the entry the id with key k names.
func (t *idTable) resolve(k idKey) (int32, bool) {
	slot, found := t.find(k, t.hash(k))
	if !found {
		return 0, false
	}
	return t.slotEntry(t.slots[slot]), true
}

// hash returns the hash of the id with key k.
func (t *idTable) hash(k idKey) uint64 {
	if k.packed != 0 {
		return maphash.Comparable(t.seed, uint32(k.packed))
	}
	return maphash.String(t.seed, k.text)
}

// keyAt returns entry i's key; its text points into its block.
func (t *idTable) keyAt(i int32) idKey {
	if t.packed(i) {
		return idKey{packed: keyPacked | uint64(t.refs[i])}
	}
	return idKey{text: t.text(i)}
}

// holds reports whether entry i's id has key k.
func (t *idTable) holds(i int32, k idKey) bool {
	if packed := t.packed(i); packed || k.packed != 0 {
		return packed && keyPacked|uint64(t.refs[i]) == k.packed
	}
	return t.text(i) == k.text
}

// is reports whether entry i's id is id, without making its text.
func (t *idTable) is(i int32, id []byte) bool { return t.holds(i, keyOf(id)) }

// find returns the slot holding the id with key k, whose hash is h, or the
// empty slot where it would go.
func (t *idTable) find(k idKey, h uint64) (int, bool) {
	tag := uint32(h) &^ t.mask
	for slot := t.home(h); ; slot = t.next(slot) {
		word := t.slots[slot]
		if word == 0 {
			return slot, false
		}
		if word&^t.mask == tag && t.holds(t.slotEntry(word), k) {
			return slot, true
		}
	}
}

// next is the slot a probe reads after slot.
func (t *idTable) next(slot int) int {
	if slot++; slot == len(t.slots) {
		return 0
	}
	return slot
}

// reserve makes room for n entries in all: their refs, and slots enough
// that placing them never grows the table.
func (t *idTable) reserve(n int) {
	t.refs = slices.Grow(t.refs, n-len(t.refs))
	t.flags = slices.Grow(t.flags, n/idsPerFlagWord+1-len(t.flags))
	if size := n*maxLoadDen/maxLoadNum + 1; size > len(t.slots) {
		t.resize(size)
	}
}

// grow doubles the slots.
func (t *idTable) grow() { t.resize(2 * len(t.slots)) }

// resize moves the ids to size slots.
func (t *idTable) resize(size int) {
	old, oldMask := t.slots, t.mask
	t.slots, t.mask = make([]uint32, size), uint32(1<<bits.Len(uint(size))-1)
	for _, word := range old {
		if word == 0 {
			continue
		}
		entry := int32(word&oldMask) - 1
		h := t.hash(t.keyAt(entry))
		slot := t.home(h)
		for t.slots[slot] != 0 {
			slot = t.next(slot)
		}
		t.slots[slot] = t.slotWord(h, entry)
	}
}

// id returns entry i's id: a string over its block, or for a packed id its
// text, made anew (see view and is, which make none).
func (t *idTable) id(i int32) string {
	if t.packed(i) {
		return string(appendPacked(make([]byte, 0, packedIDLen), t.refs[i]))
	}
	return t.text(i)
}

// view returns entry i's id as bytes to read during the caller's call:
// written into buf for a packed id, over its block otherwise.
func (t *idTable) view(i int32, buf *[packedIDLen]byte) []byte {
	if t.packed(i) {
		return appendPacked(buf[:0], t.refs[i])
	}
	return viewBytes(t.text(i))
}

// text returns the id of entry i, which does not pack, as a string over its
// block, without copying.
func (t *idTable) text(i int32) string {
	r := t.refs[i]
	if r == 0 {
		return ""
	}
	ref := t.texts[r-1]
	n := int(ref & (1<<refLenBits - 1))
	pos := int(ref >> refLenBits & (1<<refPosBits - 1))
	return unsafe.String(&t.chunks[ref>>(refLenBits+refPosBits)][pos], n)
}

// intern returns id's reference and whether it packs: its value when it
// does, or 1 + the place in texts of where in the blocks it copies it (0 for
// "").
func (t *idTable) intern(id []byte) (ref uint32, packed bool) {
	if len(id) == 0 {
		return 0, false
	}
	if v, ok := packID(id); ok {
		return v, true
	}
	t.texts = append(t.texts, t.copyText(id))
	return uint32(len(t.texts)), false
}

// copyText copies id into a block and returns where it is. An id too long
// for a shared block gets a block of its own.
func (t *idTable) copyText(id []byte) uint64 {
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
