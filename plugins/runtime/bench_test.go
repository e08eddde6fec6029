package main

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// BenchmarkGameTools measures the game tools as a plugin answers them
// (argument decoding, the probe call, the result), headless, on the test
// game of internal/webgodot/testdata/game (320x240) once it has run for a
// second:
//
//   - ms/read_property: one read_property call;
//   - ms/capture_game_screenshot: one screenshot call (PNG, file written).
//
// Medians over b.N calls of each.
//
//	go test -run '^$' -bench BenchmarkGameTools -benchtime 20x ./plugins/runtime/
func BenchmarkGameTools(b *testing.B) {
	requireWeb(b)
	dir := testGame(b)
	h := sdktest.New(b, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if res := h.Call(ctx, "play_scene", map[string]any{}); res.Err != nil || res.IsError {
		b.Fatalf("play_scene: %v %s", res.Err, res.Text())
	}
	time.Sleep(time.Second)
	var reads, shots []time.Duration
	for b.Loop() {
		start := time.Now()
		if res := h.Call(ctx, "read_property", map[string]any{"node_path": "Player", "property": "position"}); res.Err != nil || res.IsError {
			b.Fatalf("read_property: %v %s", res.Err, res.Text())
		}
		reads = append(reads, time.Since(start))
		start = time.Now()
		if res := h.Call(ctx, "capture_game_screenshot", map[string]any{}); res.Err != nil || res.IsError {
			b.Fatalf("capture_game_screenshot: %v %s", res.Err, res.Text())
		}
		shots = append(shots, time.Since(start))
	}
	b.ReportMetric(medianMs(reads), "ms/read_property")
	b.ReportMetric(medianMs(shots), "ms/capture_game_screenshot")
}

func medianMs(d []time.Duration) float64 {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return float64(s[len(s)/2].Microseconds()) / 1000
}
