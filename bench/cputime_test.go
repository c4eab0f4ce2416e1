package bench

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime returns the CPU time (user and system) the process has used.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPUThroughput adds a "cpu-MB/s" metric: bytes per op over the CPU
// time the process used since start. On a shared machine wall time drifts
// with other work; CPU time much less so (GC and every thread included).
func reportCPUThroughput(b *testing.B, start time.Duration, bytesPerOp int64) {
	used := cpuTime(b) - start
	if used > 0 {
		b.ReportMetric(float64(bytesPerOp)*float64(b.N)/used.Seconds()/1e6, "cpu-MB/s")
	}
}
