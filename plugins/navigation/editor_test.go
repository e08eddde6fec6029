package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func editorHost(t *testing.T, dir string) (*sdktest.Host, *sdktest.Editor) {
	t.Helper()
	ed := sdktest.NewEditor().
		Result("cmd_open_scene", map[string]any{"opened": true}).
		Result("cmd_setup_navigation_region", map[string]any{"node_path": "NavigationRegion3D2", "region_type": "NavigationRegion3D", "created": true}).
		Result("cmd_setup_navigation_agent", map[string]any{"node_path": "RobotBase/NavigationAgent3D2", "agent_type": "NavigationAgent3D", "created": true}).
		Result("cmd_set_navigation_layers", map[string]any{"node_path": "NavigationRegion3D", "navigation_layers": 5}).
		Result("cmd_get_navigation_region", map[string]any{"node_path": "NavigationRegion3D", "has_polygon": true, "outline_count": 0, "vertex_count": 40, "polygon_count": 30}).
		Result("cmd_bake_navigation_mesh", map[string]any{"node_path": "NavigationRegion3D", "baked": true, "polygon_count": 30, "vertex_count": 40})
	return sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6", Editor: ed.Serve}), ed
}

func jsonEq(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// Editor mode sends the addon's commands with exactly its params: the 3D
// types are picked from the saved scene's parent, layer names become
// indices, get_region is a query.
func TestEditorCommands(t *testing.T) {
	dir := plugintest.CorpusProject(t, "3d-navigation")
	plugintest.WriteFile(t, dir, "project.godot", read(t, dir, "project.godot")+"\n[layer_names]\n\n3d_navigation/layer_3=\"air\"\n")
	h, ed := editorHost(t, dir)
	scene := "res://navmesh.tscn"
	open := sdktest.EditorCall{Command: "cmd_open_scene", Params: map[string]any{"scene_path": scene}}
	for _, tc := range []struct {
		tool string
		args map[string]any
		want []sdktest.EditorCall
	}{
		{"setup_region", map[string]any{"parent_path": ".", "scene": scene, "properties": map[string]any{"enabled": true}},
			[]sdktest.EditorCall{open, {Command: "cmd_setup_navigation_region", Params: map[string]any{"parent_path": ".", "region_type": "NavigationRegion3D", "name": "NavigationRegion3D", "properties": map[string]any{"enabled": true}}}}},
		{"setup_region", map[string]any{"parent_path": ".", "region_type": "NavigationRegion2D", "name": "Nav"},
			[]sdktest.EditorCall{{Command: "cmd_setup_navigation_region", Params: map[string]any{"parent_path": ".", "region_type": "NavigationRegion2D", "name": "Nav", "properties": map[string]any{}}}}},
		{"setup_agent", map[string]any{"parent_path": "RobotBase", "scene": scene, "properties": map[string]any{"radius": 0.5}},
			[]sdktest.EditorCall{open, {Command: "cmd_setup_navigation_agent", Params: map[string]any{"parent_path": "RobotBase", "agent_type": "NavigationAgent3D", "name": "NavigationAgent3D", "properties": map[string]any{"radius": 0.5}}}}},
		{"set_layers", map[string]any{"node_path": "NavigationRegion3D", "layers": []int{1}, "layer_names": []string{"air"}, "scene": scene},
			[]sdktest.EditorCall{open, {Command: "cmd_set_navigation_layers", Params: map[string]any{"node_path": "NavigationRegion3D", "layers": []any{1.0, 3.0}}}}},
		{"get_region", map[string]any{"node_path": "NavigationRegion3D", "scene": scene},
			[]sdktest.EditorCall{open, {Command: "cmd_get_navigation_region", Params: map[string]any{"node_path": "NavigationRegion3D"}}}},
		{"bake_mesh", map[string]any{"node_path": "NavigationRegion3D", "scene": scene},
			[]sdktest.EditorCall{open, {Command: "cmd_bake_navigation_mesh", Params: map[string]any{"node_path": "NavigationRegion3D"}}}},
	} {
		before := len(ed.Calls())
		res := h.Call(context.Background(), tc.tool, tc.args)
		if res.IsError || res.Err != nil {
			t.Errorf("%s: %v %s", tc.tool, res.Err, res.Text())
			continue
		}
		if got := ed.Calls()[before:]; !jsonEq(got, tc.want) {
			t.Errorf("%s sent\n%v\nwant\n%v", tc.tool, got, tc.want)
		}
	}
	var reg map[string]any
	if err := h.Call(context.Background(), "get_region", map[string]any{"node_path": "NavigationRegion3D"}).Structured(&reg); err != nil || reg["polygon_count"] != 30.0 {
		t.Errorf("get_region passes the addon's answer through: %v %v", reg, err)
	}
	before := len(ed.Calls())
	plugintest.Refused(t, h, "bake_mesh", map[string]any{"node_path": "NavigationRegion3D", "path_from": []int{0, 0, 0}, "path_to": []int{1, 0, 1}}, sdk.CodePreconditionFailed, "path check")
	if n := len(ed.Calls()) - before; n != 0 {
		t.Errorf("refusals sent %d commands", n)
	}

	// mesh_properties fill the new NavigationMesh, which the addon makes
	// empty: the scene's file gets the region (the editor saves the scene
	// first and reloads it after).
	ed.ActiveScene(scene)
	scenes := sdktest.NewOpenScenes(scene)
	fh := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6", Editor: ed.Serve, WorkspaceEditor: scenes})
	before = len(ed.Calls())
	out := plugintest.Call(t, fh, "setup_region", map[string]any{"parent_path": ".", "name": "Upper", "mesh_properties": map[string]any{"agent_radius": 1}})
	plugintest.OnSceneFile(t, out, ed, before, scenes, scene, "cmd_get_active_scene", "cmd_save_scene")
	if got := read(t, dir, "navmesh.tscn"); !strings.Contains(got, `[node name="Upper" type="NavigationRegion3D" parent="."`) || !strings.Contains(got, "agent_radius = 1.0") {
		t.Errorf("navmesh.tscn:\n%s", got)
	}
}

// Every mutating tool dry-runs in the editor (recorded, not sent) and
// headless (a preview, nothing written); and the headless refusals.
func TestDryRunsAndRefusals(t *testing.T) {
	dir := plugintest.CorpusProject(t, "3d-navigation")
	scene := "res://navmesh.tscn"
	h, ed := editorHost(t, dir)
	plugintest.EditorDryRuns(t, h, ed, map[string]any{
		"setup_region": map[string]any{"parent_path": ".", "scene": scene},
		"setup_agent":  map[string]any{"parent_path": "RobotBase", "scene": scene},
		"set_layers":   map[string]any{"node_path": "NavigationRegion3D", "layers": []int{2}, "scene": scene},
		"bake_mesh":    map[string]any{"node_path": "NavigationRegion3D", "scene": scene},
	})
	hh := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	orig := read(t, dir, "navmesh.tscn")
	for tool, args := range map[string]any{
		"setup_region": map[string]any{"parent_path": ".", "scene": scene, "mesh_properties": map[string]any{"agent_radius": 1}},
		"setup_agent":  map[string]any{"parent_path": "RobotBase", "scene": scene},
		"set_layers":   map[string]any{"node_path": "NavigationRegion3D", "layers": []int{2}, "scene": scene},
	} {
		out := plugintest.DryRunIn(t, hh, sdk.ModeHeadless, tool, args)
		if out["scene_path"] != scene {
			t.Errorf("%s headless dry run = %v", tool, out)
		}
	}
	if read(t, dir, "navmesh.tscn") != orig {
		t.Error("a headless dry run wrote the scene")
	}
	for _, tc := range []struct {
		tool string
		args map[string]any
		text string
	}{
		{"setup_region", map[string]any{"parent_path": ".", "region_type": "Navigation", "scene": scene}, "NavigationRegion2D or NavigationRegion3D"},
		{"setup_region", map[string]any{"parent_path": ".", "region_type": "NavigationRegion3D", "outlines": [][][]float64{{{0, 0}, {1, 0}, {1, 1}}}, "scene": scene}, "outlines"},
		{"setup_region", map[string]any{"parent_path": ".", "mesh_properties": map[string]any{"agent_radious": 1}, "scene": scene}, "agent_radius"},
		{"setup_agent", map[string]any{"parent_path": "RobotBase", "properties": map[string]any{"neighbor_dist": 1}, "scene": scene}, "neighbor_distance"},
		{"set_layers", map[string]any{"node_path": "CameraBase", "layers": []int{1}, "scene": scene}, "navigation_layers"},
		{"set_layers", map[string]any{"node_path": "NavigationRegion3D", "layer_names": []string{"ground"}, "scene": scene}, "names no navigation layers"},
		{"get_region", map[string]any{"node_path": "CameraBase", "scene": scene}, "not a NavigationRegion"},
		{"bake_mesh", map[string]any{"node_path": "RobotBase/NavigationAgent3D", "scene": scene}, "not a NavigationRegion"},
	} {
		plugintest.Refused(t, hh, tc.tool, tc.args, sdk.CodeInvalidArgument, tc.text)
	}
	plugintest.Refused(t, hh, "setup_agent", map[string]any{"parent_path": "Nope", "scene": scene}, sdk.CodeNotFound, "Nope")
}
