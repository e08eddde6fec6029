package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkSceneEditHeadless measures headless scene edits end to end: MCP
// tools/call over stdio → host → scene_edit plugin → workspace (broker) →
// edit of the 20 KB csg.tscn of the corpus → render → commit (CAS, temp
// file, fsync per mode, rename, journal on disk) → result, i.e. from the
// call to the file on disk. Interleaved in the same loop, in rotated order,
// the baseline: the core godot_health_check on the same connection (no
// plugin). set_node_property alternates two values so every call writes;
// create_node adds a node and delete_node (timed on its own) removes it, so
// the scene stays at 20 KB however long the run.
//
// Reported: p50/p90 per tool in µs and each p50 as a multiple of the
// health check's p50 (the ratios are what compare across runs on a shared
// machine).
//
//	go test ./host/e2e -run '^$' -bench SceneEditHeadless -benchtime 300x
func BenchmarkSceneEditHeadless(b *testing.B) {
	for _, mode := range []string{"file", "full", "none"} {
		b.Run("sync="+mode, func(b *testing.B) { benchSceneEdit(b, mode) })
	}
}

func benchSceneEdit(b *testing.B, sync string) {
	dir := copyFixture(b, "3d-csg")
	env := append([]string{"GODOT_MCP_WORKSPACE_SYNC=" + sync}, strings.Fields(os.Getenv(benchHostEnv))...)
	s := stdioHostEnv(b, legacy, env, "--project", dir, "--plugins-dir", projectPluginsDir, "--log-level", "warn")
	s.ok(b, "godot_enable_toolset", map[string]any{"toolsets": []string{"scene_edit"}}, nil)
	s.ok(b, "godot_scene_edit_open_scene", map[string]any{"scene_path": "res://csg.tscn"}, nil)
	var set, create, del, health []time.Duration
	timed := func(into *[]time.Duration, tool string, args any) {
		t0 := time.Now()
		s.ok(b, tool, args, nil)
		*into = append(*into, time.Since(t0))
	}
	steps := []func(i int){
		func(i int) {
			timed(&set, "godot_scene_edit_set_node_property", map[string]any{"node_path": "CameraHolder/RotationX",
				"property": "position", "value": map[string]any{"x": i % 2, "y": 1, "z": 2}})
		},
		func(int) {
			timed(&create, "godot_scene_edit_create_node", map[string]any{"node_type": "Node3D", "node_name": "Bench"})
			timed(&del, "godot_scene_edit_delete_node", map[string]any{"node_path": "Bench", "confirm": true})
		},
		func(int) { timed(&health, "godot_health_check", nil) },
	}
	b.ResetTimer()
	for i := range b.N {
		for j := range steps {
			steps[(i+j)%len(steps)](i)
		}
	}
	b.StopTimer()
	h := percentile(health, 50)
	for _, m := range []struct {
		name string
		ds   []time.Duration
	}{{"set", set}, {"create", create}, {"delete", del}} {
		p50 := percentile(m.ds, 50)
		b.ReportMetric(us(p50), m.name+"-p50-µs")
		b.ReportMetric(us(percentile(m.ds, 90)), m.name+"-p90-µs")
		b.ReportMetric(float64(p50)/float64(h), m.name+"/health")
	}
	b.ReportMetric(us(h), "health-p50-µs")
	if fi, err := os.Stat(filepath.Join(dir, "csg.tscn")); err == nil {
		b.ReportMetric(float64(fi.Size()), "scene-bytes")
	}
	b.ReportMetric(0, "ns/op")
}
