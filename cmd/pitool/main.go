// Command pitool validates, repairs, compacts, redacts and exports the session
// files of the Pi coding agent.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
)

// memoryLimit is pitool's default soft memory limit (GOMEMLIMIT). A session's
// index is a few pointer-free arrays, so collecting harder near the limit costs
// little, and it keeps a 1.5 GB session's peak near 215 MB; small files never
// reach it and run with Go's default GOGC. GOMEMLIMIT still overrides it.
const memoryLimit = 200 << 20

func main() { os.Exit(mainCode()) }

// mainCode is main up to the exit: the memory limit, SIGINT and SIGTERM
// cancelling the run, and run itself. Tests run it as the pitool command.
func mainCode() int {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return run(ctx, os.Args, os.Stdin, os.Stdout, os.Stderr)
}
