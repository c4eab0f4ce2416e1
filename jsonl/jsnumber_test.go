package jsonl

import (
	"os/exec"
	"strings"
	"testing"
)

// TestJSNumbersAsNode compares JSNumbers with JSON.stringify(JSON.parse(x)).
func TestJSNumbersAsNode(t *testing.T) {
	doc := `[0,-0,1,-1,123456789012345,1234567890123456,9007199254740993,9223372036854775808,12345678901234567890,` +
		`1.0,1.5,-2.50,1e2,1E21,1e21,1e-7,1e-6,0.000001,1.00000000000000000001,1E400,-1e400,5e-324,0.1,123.456e5,` +
		`1.7976931348623157e308,100000000000000000000,1000000000000000000000,{"a":"9223372036854775808","b\"":1.0}]`
	want := strings.TrimSpace(`[0,0,1,-1,123456789012345,1234567890123456,9007199254740992,9223372036854776000,12345678901234567000,` +
		`1,1.5,-2.5,100,1e+21,1e+21,1e-7,0.000001,0.000001,1,null,null,5e-324,0.1,12345600,` +
		`1.7976931348623157e+308,100000000000000000000,1e+21,{"a":"9223372036854775808","b\"":1}]`)
	if out, err := exec.Command("node", "-e", "process.stdout.write(JSON.stringify(JSON.parse(process.argv[1])))", doc).Output(); err == nil && string(out) != want {
		t.Fatalf("node says %s", out)
	}
	if got := string(JSNumbers([]byte(doc))); got != want {
		t.Errorf("JSNumbers\n got  %s\n want %s", got, want)
	}
	plain := []byte(`{"a":[1,2,-3],"b":"1.0","c":123456789012345}`)
	if got := JSNumbers(plain); &got[0] != &plain[0] {
		t.Errorf("a text whose numbers are all JavaScript's own is copied")
	}
}
