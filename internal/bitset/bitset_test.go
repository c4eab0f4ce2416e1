package bitset

import "testing"

// TestSetAgreesWithMap: after any run of adds and removes, Has answers as a
// map of the same numbers does, across word boundaries.
func TestSetAgreesWithMap(t *testing.T) {
	const n = 200
	s, want := New(n), map[int]bool{}
	for step := 0; step < 5000; step++ {
		i := (step*7919 + step/3) % n
		if step%3 == 2 {
			s.Remove(i)
			delete(want, i)
		} else {
			s.Add(i)
			want[i] = true
		}
	}
	for i := 0; i < n; i++ {
		if s.Has(i) != want[i] {
			t.Fatalf("Has(%d) = %v, want %v", i, s.Has(i), want[i])
		}
	}
	if len(New(0)) != 0 || len(New(64)) != 1 || len(New(65)) != 2 {
		t.Fatal("New sizes its words wrong")
	}
}
