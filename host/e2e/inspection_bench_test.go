package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkInspectionHeadless measures headless reads end to end: MCP
// tools/call over stdio → host → the inspection plugin process → its
// workspace Read on the host's broker service → parse of the scene with
// sdk/godot, class database lookups → JSON result. The scene is the
// corpus's 3d-csg/csg.tscn (20 KB, 66 nodes): the whole tree (7 KB of
// structured JSON plus 15 KB of indented text), the tree one level deep and lightweight, and one node's
// properties. Interleaved in the same loop and on the same connection, as
// baselines: get_active_scene (the same hops with no file and a tiny
// answer) and the core godot_health_check (no plugin at all).
//
//	go test ./host/e2e -run '^$' -bench InspectionHeadless -benchtime 300x
func BenchmarkInspectionHeadless(b *testing.B) {
	dir := corpusProject(b, "3d-csg")
	st, err := os.Stat(filepath.Join(dir, "csg.tscn"))
	if err != nil {
		b.Fatal(err)
	}
	s := stdioHost(b, legacy, "--plugins-dir", projectPluginsDir, "--project", dir, "--log-level", "warn")
	tree := map[string]any{"scene": "res://csg.tscn"}
	light := map[string]any{"scene": "res://csg.tscn", "lightweight": true, "max_depth": 1}
	props := map[string]any{"scene": "res://csg.tscn", "node_path": "CameraHolder/RotationX/Camera3D"}
	s.ok(b, "godot_inspection_get_scene_tree", tree, nil) // start-up and first parse out of the figures
	var treeT, lightT, propsT, active, health []time.Duration
	steps := []func(){
		func() {
			t0 := time.Now()
			s.ok(b, "godot_inspection_get_scene_tree", tree, nil)
			treeT = append(treeT, time.Since(t0))
		},
		func() {
			t0 := time.Now()
			s.ok(b, "godot_inspection_get_node_properties", props, nil)
			propsT = append(propsT, time.Since(t0))
		},
		func() {
			t0 := time.Now()
			s.ok(b, "godot_inspection_get_scene_tree", light, nil)
			lightT = append(lightT, time.Since(t0))
		},
		func() {
			t0 := time.Now()
			s.ok(b, "godot_inspection_get_active_scene", nil, nil)
			active = append(active, time.Since(t0))
		},
		func() {
			t0 := time.Now()
			s.ok(b, "godot_health_check", nil, nil)
			health = append(health, time.Since(t0))
		},
	}
	b.ResetTimer()
	for i := range b.N {
		for j := range steps {
			steps[(i+j)%len(steps)]()
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(st.Size()), "scene-bytes")
	b.ReportMetric(us(percentile(treeT, 50)), "tree-p50-µs")
	b.ReportMetric(us(percentile(treeT, 90)), "tree-p90-µs")
	b.ReportMetric(us(percentile(lightT, 50)), "tree-depth1-p50-µs")
	b.ReportMetric(us(percentile(propsT, 50)), "props-p50-µs")
	b.ReportMetric(us(percentile(propsT, 90)), "props-p90-µs")
	b.ReportMetric(us(percentile(active, 50)), "active-scene-p50-µs")
	b.ReportMetric(us(percentile(health, 50)), "health-p50-µs")
	b.ReportMetric(0, "ns/op")
}
