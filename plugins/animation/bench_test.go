package main

import (
	"context"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
)

// BenchmarkInsertKeyframe is a whole headless insert_keyframe call on the
// 2d-skeleton player (a 1,900-line scene with 15 animations of up to 16
// tracks): the workspace read, parse, the library chain, the class
// database check of the track's property, the key's conversion and
// sorted insert, the render and the journaled atomic commit.
// BenchmarkGetAnimation reads one animation back.
func BenchmarkInsertKeyframe(b *testing.B) {
	dir := plugintest.CorpusProject(b, "2d-skeleton")
	h := headless(b, dir)
	args := map[string]any{"scene": "res://player/player.tscn", "node_path": "AnimationPlayer", "animation": "run", "track": 0, "time": 0.05}
	v := 0.0
	for b.Loop() {
		v++ // a new value every call, so every call writes
		args["value"] = []float64{v, 0}
		if res := h.Call(context.Background(), "insert_keyframe", args); res.IsError {
			b.Fatal(res.Text())
		}
	}
}

func BenchmarkGetAnimation(b *testing.B) {
	dir := plugintest.CorpusProject(b, "2d-skeleton")
	h := headless(b, dir)
	args := map[string]any{"scene": "res://player/player.tscn", "node_path": "AnimationPlayer", "animation_name": "run"}
	plugintest.Call(b, h, "get", args)
	for b.Loop() {
		if res := h.Call(context.Background(), "get", args); res.IsError {
			b.Fatal(res.Text())
		}
	}
}
