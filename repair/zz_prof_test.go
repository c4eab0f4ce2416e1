package repair_test

import (
	"context"
	"testing"

	"github.com/pitool/pitool/repair"
)

func TestZZProf(t *testing.T) {
	for i := 0; i < 6; i++ {
		repair.ValidateFile(context.Background(), "/tmp/vb/d100.jsonl", nil, repair.ValidateOptions{})
	}
}
