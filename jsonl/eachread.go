package jsonl

// The walks below read the containers of the value a Reader parsed last
// with the string map it built for the parse: a string is stepped over by
// the map, from its opening quote to its closing one, without reading its
// bytes again as EachElement and EachMember do. A search reads the content
// of most lines of a file this way, and the texts in it are most of the
// line's bytes (issue 28).

// parsed returns where raw starts in the text Read parsed last, and whether
// raw is a slice of the value it parsed, starting at a value.
func (r *Reader) parsed(raw []byte) (int, bool) {
	if len(raw) == 0 || r.end == 0 || cap(raw) > cap(r.text) {
		return 0, false
	}
	at := cap(r.text) - cap(raw)
	if at+len(raw) > r.end || &r.text[at] != &raw[0] {
		return 0, false
	}
	return at, true
}

// EachObject walks the objects of an array in the value Read parsed last,
// such as a message's content blocks, in one walk of each: member gets the
// members of one object as EachMember gives them (but a key of invalid
// UTF-8 as written, not decoded), then done is called,
// which returns false to stop. Elements that are not objects are stepped
// over. Any other raw is walked by EachElement and EachMember.
func (r *Reader) EachObject(raw []byte, member func(key, val []byte), done func() bool) {
	at, ok := r.parsed(raw)
	if !ok || raw[0] != '[' {
		EachElement(raw, func(elem []byte) bool {
			isObject := EachMember(elem, func(key string, val []byte) bool { member([]byte(key), val); return true }) == nil
			return !isObject || done()
		})
		return
	}
	if r.ls.content.at == at {
		r.eachRecorded(member, done)
		return
	}
	p := r.walker()
	b := p.b
	for i := skipSpace(b, at+1); b[i] != ']'; { // at an element: the value parsed
		if b[i] != '{' {
			p.i = i
			p.value()
		} else if p.walkMembers(i, func(key, val []byte) bool { member(key, val); return true }); !done() {
			return
		}
		if i = skipSpace(b, p.i); b[i] == ',' {
			i = skipSpace(b, i+1)
		}
	}
}

// EachMember walks the members of an object in the value Read parsed
// last by its string map, calling fn with each key (its escapes undone, as
// JSON.parse reads it, but invalid UTF-8 left as written) and its raw
// value until fn returns false, as EachMember does; any other raw is
// walked by EachMember.
func (r *Reader) EachMember(raw []byte, fn func(key, val []byte) bool) {
	at, ok := r.parsed(raw)
	if !ok || raw[0] != '{' {
		EachMember(raw, func(key string, val []byte) bool { return fn([]byte(key), val) })
		return
	}
	p := r.walker()
	p.walkMembers(at, fn)
}

// eachRecorded is EachObject over the content array Read recorded as it
// parsed it.
func (r *Reader) eachRecorded(member func(key, val []byte), done func() bool) {
	rec, b := &r.ls.content, r.text
	from := 0
	for _, end := range rec.ends {
		for _, m := range rec.members[from:end] {
			key := unescapedKey(b[m.key:m.keyEnd])
			member(key[1:len(key)-1], b[m.val:m.valEnd])
		}
		if from = end; !done() {
			return
		}
	}
}

// walkMembers walks the members of the object at b[i], of a value that
// parsed, calling fn with each key (as JSON.parse reads it) and its raw
// value until fn returns false; a walk to the end leaves p.i past the
// object.
func (p *skimmer) walkMembers(i int, fn func(key, val []byte) bool) {
	b := p.b
	for i = skipSpace(b, i+1); b[i] == '"'; { // at a key
		q := closingQuote(p.delims, i)
		key := unescapedKey(b[i : q+1])            // keys are short: looked through for an escape
		start := skipSpace(b, skipSpace(b, q+1)+1) // past the colon
		p.i = start
		p.value()
		if !fn(key[1:len(key)-1], b[start:p.i]) {
			return
		}
		if i = skipSpace(b, p.i); b[i] == ',' {
			i = skipSpace(b, i+1)
		}
	}
	p.i = i + 1
}

// EachString calls fn with each string value (not key) in raw, at any
// depth, in order, until fn returns false. When raw is a slice of the value
// Read parsed last, the strings are read off its string map alone, pair by
// pair of delimiting quotes, a string followed by a colon being a key;
// any other raw is walked token by token.
func (r *Reader) EachString(raw []byte, fn func(s []byte) bool) {
	at, ok := r.parsed(raw)
	if !ok {
		EachString(raw, fn)
		return
	}
	b, delims, end := r.text[:r.end], r.ls.strings.delims, at+len(raw)
	for i := at - 1; ; { // raw starts outside a string: the next quote opens one
		open := closingQuote(delims, i)
		if open < 0 || open >= end {
			return
		}
		i = closingQuote(delims, open)
		if j := skipSpace(b, i+1); (j >= len(b) || b[j] != ':') && !fn(b[open:i+1]) {
			return
		}
	}
}

// EachString calls fn with each string value (not key) of the JSON value
// raw, at any depth, in order, until fn returns false or raw ends or
// breaks.
func EachString(raw []byte, fn func(s []byte) bool) {
	var w Walker
	w.Reset(raw, 0)
	for {
		tok, err := w.Next()
		if err != nil || tok == TokenEnd {
			return
		}
		if tok == TokenString && !fn(raw[w.Start:w.End]) {
			return
		}
	}
}

// UnicodeEscapes reports whether a string of the text Read parsed last
// holds a \u escape; when it does not, every string of it decodes to its
// bytes with the short escapes undone.
func (r *Reader) UnicodeEscapes() bool { return r.ls.strings.unicode }

// walker is a parse of the text Read parsed last, with its string map.
func (r *Reader) walker() skimmer {
	return skimmer{b: r.text[:r.end], ls: &r.ls, delims: r.ls.strings.delims}
}
