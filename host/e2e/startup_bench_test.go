package e2e

import (
	"testing"
	"time"
)

// BenchmarkStartup measures the host from exec to an MCP session that has
// listed its tools, with every first-party toolset installed (and the
// default inspection toolset started): what an agent waits for when its
// client launches the host.
//
//	go test ./host/e2e -run '^$' -bench Startup -benchtime 10x
func BenchmarkStartup(b *testing.B) {
	var lat []time.Duration
	for range b.N {
		t0 := time.Now()
		s := stdioHost(b, legacy, "--plugins-dir", projectPluginsDir, "--godot-version", "4.5", "--log-level", "warn")
		s.names(b)
		lat = append(lat, time.Since(t0))
		b.StopTimer()
		s.Close()
		b.StartTimer()
	}
	b.ReportMetric(ms(percentile(lat, 50)), "p50-ms/start")
}

// BenchmarkEnableAll measures one godot_enable_toolset naming every
// first-party toolset, from request to result (every plugin process
// started, configured and its tools registered), and then the first and a
// second call to a freshly started toolset whose tools read the class
// database (scene_edit's set_node_property, headless on a copy of a real
// project): first ÷ second is what a fresh toolset costs the agent once.
//
//	go test ./host/e2e -run '^$' -bench EnableAll -benchtime 5x
func BenchmarkEnableAll(b *testing.B) {
	dir := copyFixture(b, "3d-csg")
	s := stdioHost(b, legacy, "--project", dir, "--plugins-dir", projectPluginsDir, "--log-level", "warn")
	all := map[string]any{"toolsets": firstParty}
	set := map[string]any{"scene": "res://csg.tscn", "node_path": "CameraHolder/RotationX",
		"property": "position", "value": map[string]any{"x": 0, "y": 1, "z": 2}}
	var enable, first, second []time.Duration
	b.ResetTimer()
	for i := range b.N {
		t0 := time.Now()
		s.ok(b, "godot_enable_toolset", all, nil)
		enable = append(enable, time.Since(t0))
		b.StopTimer()
		set["value"] = map[string]any{"x": i, "y": 1, "z": 2}
		t0 = time.Now()
		s.ok(b, "godot_scene_edit_set_node_property", set, nil)
		first = append(first, time.Since(t0))
		set["value"] = map[string]any{"x": i + 1, "y": 1, "z": 2}
		t0 = time.Now()
		s.ok(b, "godot_scene_edit_set_node_property", set, nil)
		second = append(second, time.Since(t0))
		s.ok(b, "godot_disable_toolset", all, nil)
		b.StartTimer()
	}
	b.ReportMetric(ms(percentile(enable, 50)), "p50-ms/enable-all")
	b.ReportMetric(ms(percentile(first, 50)), "p50-ms/first-call")
	b.ReportMetric(ms(percentile(second, 50)), "p50-ms/second-call")
}
