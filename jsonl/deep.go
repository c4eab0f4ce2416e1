package jsonl

import (
	"reflect"
	"strings"

	json "github.com/goccy/go-json"
)

// goccyDepth is how deep the decoder (goccy/go-json) reads: it refuses a value
// nested deeper, even one it only skips or keeps raw, although JSON.parse, and
// so Pi, reads any depth.
const goccyDepth = 10000

// deepMember is how deeply a member's value must nest for Unmarshal to keep it
// away from the decoder: well under goccyDepth, so that the rest decodes.
const deepMember = goccyDepth / 2

// Unmarshal decodes raw, a valid JSON value, into v (a pointer) as
// goccy/go-json does, and also when a value in it is nested deeper than that
// decoder reads. Then an object's members that nest that deep are kept from the
// decoder: each goes, as its exact bytes, into the RawMessage field its key
// names, or is unmarshalled in the same way into the struct, slice or pointer
// field it names. A deep value for a key no field names is ignored, and one
// for a field of any other type is an error, as with the decoder. Nothing
// recurses with the depth of the input.
//
// raw is read as Pi reads a session, as UTF-8 first: bytes that are not
// UTF-8 are U+FFFD, one per maximal subpart (ToValidUTF8), in the strings
// and RawMessages decoded alike.
func Unmarshal(raw []byte, v any) error {
	raw = ToValidUTF8(raw)
	err := json.Unmarshal(raw, v)
	if err == nil || nesting(raw) <= deepMember {
		return err
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return err
	}
	rv = rv.Elem()
	rv.SetZero()
	return unmarshalDeep(raw, rv, err)
}

var rawType = reflect.TypeOf(RawMessage(nil))

// unmarshalDeep is Unmarshal into the settable rv, after the decoder failed
// with err on raw.
func unmarshalDeep(raw []byte, rv reflect.Value, err error) error {
	switch {
	case rv.Type() == rawType:
		rv.SetBytes(append([]byte(nil), raw...))
		return nil
	case rv.Kind() == reflect.Pointer:
		rv.Set(reflect.New(rv.Type().Elem()))
		return Unmarshal(raw, rv.Interface())
	case rv.Kind() == reflect.Slice:
		return unmarshalSlice(raw, rv)
	case rv.Kind() == reflect.Struct:
		return unmarshalStruct(raw, rv)
	}
	return err
}

// unmarshalSlice decodes the array raw element by element.
func unmarshalSlice(raw []byte, rv reflect.Value) error {
	elems, err := ParseArray(raw)
	if err != nil {
		return err
	}
	rv.Set(reflect.MakeSlice(rv.Type(), len(elems), len(elems)))
	for i, e := range elems {
		if err := Unmarshal(e, rv.Index(i).Addr().Interface()); err != nil {
			return err
		}
	}
	return nil
}

// unmarshalStruct decodes the object raw: its shallow members with the
// decoder, then each deep one into the field its key names.
func unmarshalStruct(raw []byte, rv reflect.Value) error {
	o, err := ParseObject(raw)
	if err != nil {
		return err
	}
	var shallow, deep Object
	for i, k := range o.Keys {
		if nesting(o.Vals[i]) > deepMember {
			deep.Keys, deep.Vals = append(deep.Keys, k), append(deep.Vals, o.Vals[i])
		} else {
			shallow.Keys, shallow.Vals = append(shallow.Keys, k), append(shallow.Vals, o.Vals[i])
		}
	}
	if err := json.Unmarshal(shallow.AppendJSON(nil), rv.Addr().Interface()); err != nil {
		return err
	}
	for i, k := range deep.Keys {
		if f, ok := fieldNamed(rv, k); ok {
			if err := Unmarshal(deep.Vals[i], f.Addr().Interface()); err != nil {
				return err
			}
		}
	}
	return nil
}

// fieldNamed returns the field of the struct rv that the key names exactly:
// by its json tag, else by its Go name. (The decoder also matches some keys
// without regard to case; Pi writes every key as its types spell it.)
func fieldNamed(rv reflect.Value, key string) (reflect.Value, bool) {
	t := rv.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" {
			name = f.Name
		}
		if name == key && name != "-" && f.IsExported() {
			return rv.Field(i), true
		}
	}
	return reflect.Value{}, false
}

// nesting returns how deeply the valid JSON value b nests: 0 for a scalar, 1
// for a flat array or object. It counts brackets outside strings, so it costs
// one pass and no stack.
func nesting(b []byte) int {
	depth, deepest := 0, 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			end, err := skipString(b, i)
			if err != nil {
				return deepest
			}
			i = end - 1
		case '{', '[':
			depth++
			deepest = max(deepest, depth)
		case '}', ']':
			depth--
		}
	}
	return deepest
}
