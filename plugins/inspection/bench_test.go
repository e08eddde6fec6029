package main

import (
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// BenchmarkHeadless measures the toolset's part of a headless read on the
// 20 KB, 66-node 3d-csg scene, in-process (sdktest: real gRPC and
// workspace, no MCP or process boundary). host/e2e's
// BenchmarkInspectionHeadless measures the same calls end to end.
func BenchmarkHeadless(b *testing.B) {
	dir := project(b, "3d-csg")
	h := sdktest.New(b, Toolset(), sdktest.Options{ProjectDir: dir})
	for _, c := range []struct {
		name, tool string
		args       obj
	}{
		{"tree", "get_scene_tree", obj{"scene": "res://csg.tscn"}},
		{"tree-lightweight", "get_scene_tree", obj{"scene": "res://csg.tscn", "lightweight": true}},
		{"props", "get_node_properties", obj{"scene": "res://csg.tscn", "node_path": "CameraHolder/RotationX/Camera3D"}},
		{"prop", "get_node_property", obj{"scene": "res://csg.tscn", "node_path": "CameraHolder", "property": "transform"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if res := h.Call(b.Context(), c.tool, c.args); res.IsError || res.Err != nil {
					b.Fatal(res.Text(), res.Err)
				}
			}
		})
	}
}
