package e2e

import (
	"testing"
	"time"
)

// BenchmarkSceneEditHeadless measures headless scene edits end to end: MCP
// tools/call over stdio → host → scene_edit plugin → workspace Read → parse
// the 20 KB csg.tscn of the corpus → edit → render → workspace Commit (CAS,
// temp file, rename, journal) → result, i.e. from the call to the file on
// disk. Interleaved in the same loop as the baseline: the core
// godot_health_check on the same connection (no plugin). set_node_property
// alternates two values so every iteration really writes; create_node adds
// a node each time (the scene grows by about 60 bytes per iteration).
//
//	go test ./host/e2e -run '^$' -bench SceneEditHeadless -benchtime 300x
func BenchmarkSceneEditHeadless(b *testing.B) {
	for _, mode := range []string{"file", "none"} {
		b.Run("sync="+mode, func(b *testing.B) { benchSceneEdit(b, mode) })
	}
}

func benchSceneEdit(b *testing.B, sync string) {
	dir := copyFixture(b, "3d-csg")
	env := []string{"GODOT_MCP_WORKSPACE_SYNC=" + sync}
	s := stdioHostEnv(b, legacy, env, "--project", dir, "--plugins-dir", projectPluginsDir, "--log-level", "warn")
	s.ok(b, "godot_enable_toolset", map[string]any{"toolsets": []string{"scene_edit"}}, nil)
	s.ok(b, "godot_scene_edit_open_scene", map[string]any{"scene_path": "res://csg.tscn"}, nil)
	var set, create, health []time.Duration
	steps := []func(i int){
		func(i int) {
			t0 := time.Now()
			s.ok(b, "godot_scene_edit_set_node_property", map[string]any{"node_path": "CameraHolder/RotationX", "property": "position",
				"value": map[string]any{"x": i % 2, "y": 1, "z": 2}}, nil)
			set = append(set, time.Since(t0))
		},
		func(int) {
			t0 := time.Now()
			s.ok(b, "godot_scene_edit_create_node", map[string]any{"node_type": "Node3D", "node_name": "Bench"}, nil)
			create = append(create, time.Since(t0))
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
	b.ReportMetric(us(percentile(set, 50)), "set-p50-µs")
	b.ReportMetric(us(percentile(set, 90)), "set-p90-µs")
	b.ReportMetric(us(percentile(create, 50)), "create-p50-µs")
	b.ReportMetric(us(percentile(create, 90)), "create-p90-µs")
	b.ReportMetric(us(percentile(health, 50)), "health-p50-µs")
	b.ReportMetric(0, "ns/op")
}
