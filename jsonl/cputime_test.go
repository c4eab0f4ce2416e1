package jsonl

import (
	"syscall"
	"testing"
	"time"
)

// reportCPUThroughput starts a "cpu-MB/s" metric of bytesPerOp, which the
// function it returns reports: bytes per CPU-second of the whole process (GC
// included). On a shared machine wall time moves with other work; CPU time
// much less so.
func reportCPUThroughput(b *testing.B, bytesPerOp int64) (report func()) {
	start := cpuTime(b)
	return func() {
		if used := cpuTime(b) - start; used > 0 {
			b.ReportMetric(float64(bytesPerOp)*float64(b.N)/used.Seconds()/1e6, "cpu-MB/s")
		}
	}
}

// cpuTime returns the CPU time (user and system) the process has used.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
