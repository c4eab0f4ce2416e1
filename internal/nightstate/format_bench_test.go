package nightstate

import (
	"fmt"
	"testing"
)

// BenchmarkDecode: the state file of 10,000 files remembered (1.6 MB),
// decoded as a second run over them decodes it.
func BenchmarkDecode(b *testing.B) {
	sf := &file{Version: version, Settings: "pitool v1; window 200000"}
	for i := range 10000 {
		sf.Files = append(sf.Files, Entry{File: fmt.Sprintf("/home/user/.pi/agent/sessions/--home-user-p%d--/2026-01-01T00-00-00-000Z_s%d.jsonl", i%100, i),
			Stamp:  Stamp{Size: 1234, MtimeNs: 1764900000123456789, CtimeNs: 1764900000123456789, Ino: uint64(4000000 + i), Dev: 64769},
			Action: "not-due", Detail: "0 tokens, compaction starts above 183616"})
	}
	text := string(encode(nil, sf))
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decode(text); err != nil {
			b.Fatal(err)
		}
	}
}
