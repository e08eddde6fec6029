package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// BenchmarkSetPropertyHuge measures batch set_property on generated scenes
// of 10,000 and 100,000 Node2D nodes (each with a position), every node
// changed by type, in-process (sdktest: real gRPC and workspace, no MCP or
// process boundary): the call the hardening audit saw run past 60 s at
// 961 MB over 305k nodes. It reports, per call, the bytes allocated
// (bytes/call and B/node, both sides of the harness: the workspace read,
// the edit, the answer listing every change, the journaled commit) and
// the highest heap seen while the calls ran above the heap before them
// (peak-heap-MB, sampled every millisecond, so a lower bound).
func BenchmarkSetPropertyHuge(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			var sb strings.Builder
			sb.WriteString("[gd_scene format=3]\n\n[node name=\"Root\" type=\"Node2D\"]\n")
			for i := range n {
				fmt.Fprintf(&sb, "\n[node name=\"W%d\" type=\"Node2D\" parent=\".\"]\nposition = Vector2(%d, 0)\n", i, i)
			}
			for name, text := range map[string]string{"project.godot": "config_version=5\n", "huge.tscn": sb.String()} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					b.Fatal(err)
				}
			}
			h := sdktest.New(b, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.4"})
			defer h.Close()
			b.SetBytes(int64(sb.Len()))

			runtime.GC()
			base := heapBytes()
			stop := samplePeak()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			calls := 0
			for b.Loop() {
				calls++
				// A new value every call, so every call changes every node.
				args := map[string]any{"scene": "res://huge.tscn", "node_type": "Node2D", "property": "position", "value": []any{calls, calls}}
				if res := h.Call(b.Context(), "set_property", args); res.IsError || res.Err != nil {
					b.Fatal(res.Text(), res.Err)
				}
			}
			runtime.ReadMemStats(&after)
			peak := stop()
			perCall := float64(after.TotalAlloc-before.TotalAlloc) / float64(calls)
			b.ReportMetric(perCall, "bytes/call")
			b.ReportMetric(perCall/float64(n+1), "B/node")
			b.ReportMetric(float64(max(peak, base)-base)/(1<<20), "peak-heap-MB")
		})
	}
}

// heapBytes is the memory occupied by heap objects, live or not yet
// swept.
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// samplePeak samples heapBytes every millisecond until the returned stop
// is called, which answers the highest sample.
func samplePeak() (stop func() uint64) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	var peak uint64
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			peak = max(peak, heapBytes())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		wg.Wait()
		return peak
	}
}
