package main

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestTuneGC(t *testing.T) {
	percent := debug.SetGCPercent(100)
	limit := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
	env := func(kv map[string]string) func(string) string {
		return func(k string) string { return kv[k] }
	}

	// The operator's choice wins.
	tuneGC(env(map[string]string{"GOGC": "100"}))
	tuneGC(env(map[string]string{"GOMEMLIMIT": "1GiB"}))
	if p, l := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64); p != 100 || l != math.MaxInt64 {
		t.Fatalf("with GOGC or GOMEMLIMIT set: percent %d, limit %d changed", p, l)
	}

	tuneGC(env(nil))
	if p, l := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64); p != serveGCPercent || l != serveMemoryLimit {
		t.Fatalf("percent %d, limit %d; want %d, %d", p, l, serveGCPercent, serveMemoryLimit)
	}
}
