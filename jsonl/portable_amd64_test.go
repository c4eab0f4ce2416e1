package jsonl

// portable makes the string map take its portable path, as on a processor
// without AVX2, until the function it returns is called.
func portable() (restore func()) {
	saved := haveBlockAsm
	haveBlockAsm = false
	return func() { haveBlockAsm = saved }
}

// eachPath calls f on each path of the string map this processor can run:
// AVX2 where it has it, then the portable one.
func eachPath(f func(path string)) {
	if haveBlockAsm {
		f("AVX2")
	}
	defer portable()()
	f("portable")
}
