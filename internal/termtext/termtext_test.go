package termtext

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestVisible(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain text, ünïcödé ✓", "plain text, ünïcödé ✓"},
		{"red \x1b[31mRED\x1b[0m", `red \x1b[31mRED\x1b[0m`},
		{"\x1b]8;;https://evil.example/\x07click\x1b]8;;\x07", `\x1b]8;;https://evil.example/\x07click\x1b]8;;\x07`},
		{"wipe\x1b[2J\x1b[H", `wipe\x1b[2J\x1b[H`},
		{"over\rwrite", `over\rwrite`},
		{"a\nb\tc\x00d\x7fe", `a\nb\tc\x00d\x7fe`},
		{"c1 \u009b31m csi", `c1 \u009b31m csi`},
		{"invoice\u202Efdp.exe", `invoice\u202efdp.exe`},
		{"\u2066iso\u2069 \u200f \u2028", `\u2066iso\u2069 \u200f \u2028`},
		{"bad \x9b31m \xff byte", `bad \x9b31m \xff byte`},
		{"real \uFFFD kept", "real \uFFFD kept"},
		{`back\slash`, `back\slash`},
	}
	for _, c := range cases {
		if got := Visible(c.in); got != c.want {
			t.Errorf("Visible(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestVisibleLeavesNothingToObey checks the property every caller relies on
// over every rune and every byte: the result is valid UTF-8 and holds no
// character a terminal acts on, and printable text comes back unchanged.
func TestVisibleLeavesNothingToObey(t *testing.T) {
	var all strings.Builder
	for r := rune(0); r < 0x3000; r++ {
		all.WriteRune(r)
	}
	for b := 0x80; b < 0x100; b++ {
		all.WriteByte(byte(b))
	}
	out := Visible(all.String())
	if !utf8.ValidString(out) {
		t.Fatal("result is not UTF-8")
	}
	for _, r := range out {
		if acts(r) {
			t.Fatalf("result holds %U", r)
		}
	}
	for r := rune(0x20); r < 0x3000; r++ {
		if s := string(r); !acts(r) && Visible(s) != s {
			t.Errorf("%U changed to %q", r, Visible(s))
		}
	}
}

func TestVisibleText(t *testing.T) {
	for in, want := range map[string]string{
		"two\nlines\tand a tab":    "two\nlines\tand a tab",
		"osc52 \x1b]52;c;aGk=\x07": `osc52 \x1b]52;c;aGk=\x07`,
		"clear \x1b[2J\nnext":      "clear \\x1b[2J\nnext",
		"over\rwrite":              `over\rwrite`,
		"csi \u009b2J, rlo \u202e": `csi \u009b2J, rlo \u202e`,
	} {
		if got := VisibleText(in); got != want {
			t.Errorf("VisibleText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWriterShowsControlsSplitAcrossWrites(t *testing.T) {
	var out strings.Builder
	w := NewWriter(&out)
	for _, piece := range []string{"a \x1b", "]52;c;aGk=\x07 b\n\x1b[", "2J\nlast"} {
		if _, err := w.Write([]byte(piece)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if want := "a \\x1b]52;c;aGk=\\x07 b\n\\x1b[2J\nlast"; out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}
