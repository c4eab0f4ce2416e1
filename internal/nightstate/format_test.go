package nightstate

import (
	"errors"
	"math"
	"reflect"
	"strconv"
	"testing"
)

// TestFormatRoundTrips: every entry comes back as it was written, whatever
// bytes its path and detail hold and however large its numbers.
func TestFormatRoundTrips(t *testing.T) {
	sf := &file{Version: version, Settings: `pitool v1; window 0, {"a b"}`, Files: []Entry{
		{File: "/s/a.jsonl", Stamp: Stamp{Size: 1, MtimeNs: 2, CtimeNs: 3, Ino: 4, Dev: 5}, Action: "not-due", TokensBefore: 6},
		{File: "/s/sp ace\t\"q\"\\\n\xff\xfeé.jsonl", Stamp: Stamp{Size: math.MaxInt64, MtimeNs: -1, Ino: math.MaxUint64, Dev: 1 << 63},
			Action: "not-due", Detail: "below 80% of the window \"x\"\r\n"},
		{File: "", Action: ""},
	}}
	got, err := decode(string(encode(nil, sf)))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, sf) {
		t.Errorf("got  %+v\nwant %+v", got, sf)
	}
}

// TestFormatRefuses: a file of another kind, or cut short, is an error; a
// file of another version gives no entries and no error.
func TestFormatRefuses(t *testing.T) {
	whole := encode(nil, &file{Version: version, Settings: "s", Files: []Entry{{File: "/a.jsonl", Action: "not-due"}}})
	for name, data := range map[string]string{
		"JSON, the first layout": `{"version":1,"settings":"s","files":[]}` + "\n",
		"empty":                  "",
		"cut in the first line":  string(whole[:10]),
		"cut in an entry":        string(whole[:len(whole)-5]),
		"a line without its end": string(whole[:len(whole)-1]),
		"a word for a number":    magic + " 2 \"s\"\n1 2 x 4 5 6 \"a\" \"\" \"/f\"\n",
		"a field too many":       magic + " 2 \"s\"\n1 2 3 4 5 6 \"a\" \"\" \"/f\" \"x\"\n",
	} {
		if _, err := decode(data); !errors.Is(err, errLayout) {
			t.Errorf("%s: %v, want %v", name, err, errLayout)
		}
	}
	sf, err := decode(magic + " 3 \"s\"\nanything\n")
	if err != nil || sf.Version != 3 || len(sf.Files) != 0 {
		t.Errorf("another version: %+v, %v", sf, err)
	}
}

// TestParseInt: parseInt reads what strconv.ParseInt reads, and refuses
// what it refuses.
func TestParseInt(t *testing.T) {
	for _, s := range []string{"0", "7", "-1", "123456789012345678", "-123456789012345678", "1234567890123456789",
		"9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809", "9999999999999999999", "12345678901234567890", "", "-", "+1", "1x", "x1", "1 2", "--1", "0x10"} {
		got, err := parseInt(s)
		want, werr := strconv.ParseInt(s, 10, 64)
		if (err == nil) != (werr == nil) || err == nil && got != want {
			t.Errorf("parseInt(%q) = %d, %v; ParseInt: %d, %v", s, got, err, want, werr)
		}
	}
}
