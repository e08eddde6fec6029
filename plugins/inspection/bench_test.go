package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
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

// BenchmarkSceneTreeHuge measures get_scene_tree on a generated 25 MB
// scene whose nodes nest 5,000 levels deep, the scene that took over 4
// minutes and about 1.1 GB per call before the answer was bounded. It
// reports the bytes allocated per call (bytes/call), both sides of the
// in-process harness included; the scene is parsed once and cached, as in
// a real session.
func BenchmarkSceneTreeHuge(b *testing.B) {
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "project.godot"), []byte("config_version=5\n\n[application]\n\nconfig/name=\"huge\"\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	var sb strings.Builder
	sb.WriteString("[gd_scene format=3]\n\n[node name=\"Root\" type=\"Node2D\"]\n")
	parent := "."
	for i := range 5000 {
		fmt.Fprintf(&sb, "\n[node name=\"a\" type=\"Node2D\" parent=%q]\n", parent)
		if i == 0 {
			parent = "a"
		} else {
			parent += "/a"
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "huge.tscn"), []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	h := sdktest.New(b, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.4"})
	args := obj{"scene": "res://huge.tscn"}
	if res := h.Call(b.Context(), "get_scene_tree", args); res.IsError || res.Err != nil {
		b.Fatal(res.Text(), res.Err) // parse once, outside the measure
	}
	b.SetBytes(int64(sb.Len()))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	n := 0
	for b.Loop() {
		if res := h.Call(b.Context(), "get_scene_tree", args); res.IsError || res.Err != nil {
			b.Fatal(res.Text(), res.Err)
		}
		n++
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(n), "bytes/call")
}
