package e2e

import (
	"strings"
	"testing"
	"time"
)

// BenchmarkWorkspaceWrite measures a small-file write transaction end to
// end: MCP tools/call over stdio → host → plugin process (wsedit) → its
// Stat and Commit on the host's HostWorkspace broker service → CAS, temp
// file, fsync, rename, journal → result. Interleaved in the same loop, as
// baselines: wsedit's read tool (the same hops, one broker Read, no write)
// and the core godot_health_check (no plugin at all). The write alternates
// between two 1 KB contents so that every iteration really writes.
//
//	go test ./host/e2e -run '^$' -bench WorkspaceWrite -benchtime 300x
func BenchmarkWorkspaceWrite(b *testing.B) {
	for _, mode := range []string{"file", "none"} {
		for _, journal := range []string{"disk", "memory"} {
			b.Run("sync="+mode+"/journal="+journal, func(b *testing.B) { benchWorkspaceWrite(b, mode, journal) })
		}
	}
}

func benchWorkspaceWrite(b *testing.B, mode, journal string) {
	dir := b.TempDir()
	writeFile(b, dir+"/project.godot", "config_version=5\n")
	env := []string{"GODOT_MCP_WORKSPACE_SYNC=" + mode}
	if journal == "memory" {
		env = append(env, "GODOT_MCP_WORKSPACE_JOURNAL=memory")
	}
	s := stdioHostEnv(b, legacy, env, "--project", dir, "--plugins-dir", wsDir, "--log-level", "warn")
	s.ok(b, "godot_enable_toolset", map[string]any{"toolsets": []string{"wsedit"}}, nil)
	bodies := [2]string{strings.Repeat("a", 1023) + "\n", strings.Repeat("b", 1023) + "\n"}
	s.ok(b, "godot_wsedit_write", map[string]any{"name": "seed", "files": []map[string]any{{"path": "res://bench.txt", "content": bodies[1]}}}, nil)
	var write, read, health []time.Duration
	steps := []func(i int){
		func(i int) {
			t0 := time.Now()
			s.ok(b, "godot_wsedit_write", map[string]any{"name": "bench", "files": []map[string]any{{"path": "res://bench.txt", "content": bodies[i%2]}}}, nil)
			write = append(write, time.Since(t0))
		},
		func(int) {
			t0 := time.Now()
			s.ok(b, "godot_wsedit_read", map[string]any{"path": "res://bench.txt"}, nil)
			read = append(read, time.Since(t0))
		},
		func(int) {
			t0 := time.Now()
			s.ok(b, "godot_health_check", nil, nil)
			health = append(health, time.Since(t0))
		},
	}
	b.ResetTimer()
	for i := range b.N {
		for j := range steps {
			steps[(i+j)%len(steps)](i)
		}
	}
	b.StopTimer()
	b.ReportMetric(us(percentile(write, 50)), "write-p50-µs")
	b.ReportMetric(us(percentile(write, 90)), "write-p90-µs")
	b.ReportMetric(us(percentile(read, 50)), "read-p50-µs")
	b.ReportMetric(us(percentile(health, 50)), "health-p50-µs")
	b.ReportMetric(0, "ns/op")
}
