package main

import (
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
)

// BenchmarkInputToEffect: one key press through the tool, one stepped
// tick, and the moved player read back: the round trip an agent pays to
// see what its input did.
func BenchmarkInputToEffect(b *testing.B) {
	e := newEngine(b)
	dir := playground(b)
	s := e.play(b, dir, 60)
	h := host(b, dir)
	plugintest.Call(b, h, "pause", map[string]any{})
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		x0 := x(b, s)
		plugintest.Call(b, h, "simulate_key", map[string]any{"key": "D", "pressed": i%2 == 0})
		plugintest.Call(b, h, "step_frames", map[string]any{"frames": 1})
		if moved := x(b, s) != x0; moved != (i%2 == 0) {
			b.Fatalf("iteration %d: moved=%v", i, moved)
		}
	}
	b.ReportMetric(float64(time.Since(start).Milliseconds())/float64(b.N), "ms/effect")
}

// BenchmarkStepFrames: physics ticks stepped per second of wall time, in
// steps of 60 (one second of game time at 60 ticks/s).
func BenchmarkStepFrames(b *testing.B) {
	e := newEngine(b)
	dir := playground(b)
	e.play(b, dir, 60)
	h := host(b, dir)
	plugintest.Call(b, h, "pause", map[string]any{})
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		plugintest.Call(b, h, "step_frames", map[string]any{"frames": 60, "timeout_seconds": 600})
	}
	b.ReportMetric(float64(60*b.N)/time.Since(start).Seconds(), "frames/s")
}
