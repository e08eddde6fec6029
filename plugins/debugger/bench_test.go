package main

import (
	"context"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// BenchmarkGodot3StepOver: one step_over through the SDK's call path
// against the real Godot 3.2, from the command to the answer naming the
// new location (a step, a debug_enter and a stack dump).
func BenchmarkGodot3StepOver(b *testing.B) {
	needGodot3b(b)
	h := sdktest.New(b, Toolset(), sdktest.Options{ProjectDir: godot3ProjectTB(b), GodotVersion: "3"})
	defer func() {
		state.mu.Lock()
		s := state.sess
		state.sess = nil
		state.mu.Unlock()
		if s != nil {
			s.close()
		}
		state.bps.clear()
	}()
	start := time.Now()
	res := h.Call(context.Background(), "run", map[string]any{"breakpoints": []any{map[string]any{"path": "res://main.gd", "line": lineCount}}})
	if res.Err != nil || res.IsError {
		b.Fatal(res.Err, res.Text())
	}
	first := time.Since(start)
	b.ResetTimer()
	for b.Loop() {
		res := h.Call(context.Background(), "step_over", map[string]any{})
		if res.Err != nil || res.IsError {
			b.Fatal(res.Err, res.Text())
		}
	}
	b.ReportMetric(float64(first.Milliseconds()), "ms/run-to-first-break")
}
