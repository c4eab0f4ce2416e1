// Command pitool validates, repairs, compacts, redacts and exports the session
// files of the Pi coding agent.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
)

// gcPercent is pitool's default GOGC. A session's index is a few pointer-free
// arrays, so collecting at 50% growth costs little CPU and keeps the peak memory
// of a 1.5 GB session near 250 MB instead of 310 MB. GOGC still overrides it.
const gcPercent = 50

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
