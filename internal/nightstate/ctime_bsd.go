//go:build darwin || freebsd || netbsd

package nightstate

import "syscall"

// ctimeNs is a stat's change time (of content or metadata) in nanoseconds.
func ctimeNs(st *syscall.Stat_t) int64 { return st.Ctimespec.Nano() }
