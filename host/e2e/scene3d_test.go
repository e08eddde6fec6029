package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/fakeaddon"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
)

// scene_3d and particles through the real host, headless, on a copy of
// the 3d-particles demo: a lit scene is built around its testers, a fire
// system added and given a preset; godot_undo, step by step, restores the
// scene byte for byte.
func TestScene3DAndParticlesHeadlessThroughTheHost(t *testing.T) {
	dir := plugintest.CorpusProject(t, "3d-particles")
	scene := filepath.Join(dir, "test.tscn")
	orig, err := os.ReadFile(scene)
	if err != nil {
		t.Fatal(err)
	}
	s := stdioHost(t, legacy, "--project", dir, "--plugins-dir", projectPluginsDir, "--log-level", "warn")
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"scene_3d", "particles"}}, nil)
	sp := "res://test.tscn"
	steps := []struct {
		tool string
		args map[string]any
	}{
		{"godot_scene_3d_add_mesh_instance", map[string]any{"scene_path": sp, "parent_path": ".", "name": "Pedestal", "mesh_type": "CylinderMesh",
			"properties": map[string]any{"top_radius": 0.5, "bottom_radius": 0.6, "height": 0.3}, "material": map[string]any{"albedo_color": "#444444"}}},
		{"godot_scene_3d_setup_lighting", map[string]any{"scene_path": sp, "parent_path": ".", "light_type": "omni", "name": "Glow", "shadows": true,
			"properties": map[string]any{"light_color": "#ffaa44", "omni_range": 5, "position": []any{0, 1, 0}}}},
		{"godot_particles_create", map[string]any{"scene_path": sp, "parent_path": "Pedestal", "name": "Flames", "particles_type": "GPUParticles3D",
			"properties": map[string]any{"draw_pass_1": map[string]any{"type": "QuadMesh", "properties": map[string]any{"size": []any{0.2, 0.2}}}}}},
		{"godot_particles_apply_preset", map[string]any{"scene_path": sp, "node_path": "Pedestal/Flames", "preset": "fire"}},
	}
	for _, st := range steps {
		var out map[string]any
		s.ok(t, st.tool, st.args, &out)
		if out["dry_run"] != false {
			t.Errorf("%s = %v", st.tool, out)
		}
	}
	var mat struct {
		HasMaterial bool           `json:"has_material"`
		Properties  map[string]any `json:"properties"`
		ColorRamp   struct {
			Colors []any `json:"colors"`
		} `json:"color_ramp"`
	}
	s.ok(t, "godot_particles_get_material", map[string]any{"scene_path": sp, "node_path": "Pedestal/Flames"}, &mat)
	if !mat.HasMaterial || mat.Properties["spread"] != 20.0 || len(mat.ColorRamp.Colors) != 3 {
		t.Errorf("get_material = %+v", mat)
	}
	for range steps {
		s.ok(t, "godot_undo", nil, nil)
	}
	if now, _ := os.ReadFile(scene); string(now) != string(orig) {
		t.Error("undo did not restore test.tscn byte for byte")
	}
}

// Editor mode through the real bridge: each tool is the addon's command
// with the reference server's params, on the scene_path's tab.
func TestScene3DAndParticlesEditorMode(t *testing.T) {
	dir := plugintest.CorpusProject(t, "3d-particles")
	url := bridgeURL(t)
	s := stdioHostEnv(t, legacy, []string{"GODOT_MCP_BRIDGE_URL=" + url}, "--project", dir, "--plugins-dir", projectPluginsDir, "--log-level", "warn")
	echo := func(p map[string]any) fakeaddon.Reply {
		return fakeaddon.OK(map[string]any{"node_path": "X", "created": true})
	}
	h := map[string]fakeaddon.Handler{"cmd_open_scene": func(p map[string]any) fakeaddon.Reply {
		return fakeaddon.OK(map[string]any{"scene_path": p["scene_path"], "opened": true})
	}}
	for _, c := range []string{"cmd_add_mesh_instance", "cmd_setup_camera", "cmd_setup_lighting", "cmd_setup_environment", "cmd_gridmap_set_cell",
		"cmd_gridmap_get_cell", "cmd_create_mesh_library", "cmd_add_mesh_library_item", "cmd_create_particles", "cmd_set_particle_material",
		"cmd_set_particle_color_gradient", "cmd_apply_particle_preset", "cmd_get_particle_material"} {
		h[c] = echo
	}
	ed := attachAddon(t, s, fakeaddon.Options{URL: url, ProjectPath: dir + "/", GodotVersion: "4.6.1-stable", Handlers: h})
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"scene_3d", "particles"}}, nil)
	cases := []struct {
		tool, cmd string
		args      map[string]any
		want      string
	}{
		{"godot_scene_3d_add_mesh_instance", "cmd_add_mesh_instance", map[string]any{"scene_path": "res://test.tscn", "parent_path": ".", "mesh_type": "TorusMesh", "properties": map[string]any{"rings": 8}},
			`{"mesh_type":"TorusMesh","name":"MeshInstance3D","parent_path":".","properties":{"rings":8}}`},
		{"godot_scene_3d_setup_camera", "cmd_setup_camera", map[string]any{"parent_path": ".", "make_current": false},
			`{"make_current":false,"name":"Camera3D","parent_path":".","properties":{}}`},
		{"godot_scene_3d_setup_lighting", "cmd_setup_lighting", map[string]any{"parent_path": "."},
			`{"light_type":"DirectionalLight3D","name":"DirectionalLight3D","parent_path":".","properties":{}}`},
		{"godot_scene_3d_setup_environment", "cmd_setup_environment", map[string]any{"parent_path": ".", "properties": map[string]any{"tonemap_mode": "TONE_MAPPER_AGX"}},
			`{"name":"WorldEnvironment","parent_path":".","properties":{"tonemap_mode":4}}`},
		{"godot_scene_3d_gridmap_set_cell", "cmd_gridmap_set_cell", map[string]any{"node_path": "Grid", "position": []any{-1, 0, 2}, "item": 1, "orientation": 22},
			`{"item":1,"node_path":"Grid","orientation":22,"position":[-1,0,2]}`},
		{"godot_scene_3d_gridmap_get_cell", "cmd_gridmap_get_cell", map[string]any{"node_path": "Grid", "position": []any{-1, 0, 2}},
			`{"node_path":"Grid","position":[-1,0,2]}`},
		{"godot_scene_3d_create_mesh_library", "cmd_create_mesh_library", map[string]any{"node_path": "Grid", "save_path": "res://lib.tres"},
			`{"node_path":"Grid","save_path":"res://lib.tres"}`},
		{"godot_scene_3d_add_mesh_library_item", "cmd_add_mesh_library_item", map[string]any{"node_path": "Grid", "mesh_type": "BoxMesh", "item_id": 2},
			`{"item_id":2,"library_path":"","mesh_path":"","mesh_type":"BoxMesh","name":"","node_path":"Grid","properties":{}}`},
		{"godot_particles_create", "cmd_create_particles", map[string]any{"parent_path": ".", "particles_type": "GPUParticles3D", "amount": 20},
			`{"amount":20,"lifetime":1,"name":"GPUParticles3D","parent_path":".","particles_type":"GPUParticles3D","properties":{}}`},
		{"godot_particles_set_material", "cmd_set_particle_material", map[string]any{"node_path": "P", "properties": map[string]any{"gravity": []any{0, -1, 0}}},
			`{"node_path":"P","properties":{"gravity":[0,-1,0]}}`},
		{"godot_particles_set_color_gradient", "cmd_set_particle_color_gradient", map[string]any{"node_path": "P", "colors": []any{"#ff0000", "#0000ff00"}},
			`{"colors":["#ff0000","#0000ff00"],"node_path":"P"}`},
		{"godot_particles_apply_preset", "cmd_apply_particle_preset", map[string]any{"node_path": "P", "preset": "sparks"}, `{"node_path":"P","preset":"sparks"}`},
		{"godot_particles_get_material", "cmd_get_particle_material", map[string]any{"node_path": "P"}, `{"node_path":"P"}`},
	}
	for _, c := range cases {
		s.ok(t, c.tool, c.args, nil)
		calls := ed.Calls(c.cmd)
		if len(calls) != 1 {
			t.Errorf("%s: %d calls of %s", c.tool, len(calls), c.cmd)
			continue
		}
		if b, _ := json.Marshal(calls[0].Params); string(b) != c.want {
			t.Errorf("%s sent %s\nwant %s", c.cmd, b, c.want)
		}
	}
	if o := ed.Calls("cmd_open_scene"); len(o) != 1 || o[0].Params["scene_path"] != "res://test.tscn" {
		t.Errorf("cmd_open_scene: %+v", o)
	}
	if _, err := os.Stat(filepath.Join(dir, "lib.tres")); err == nil {
		t.Error("editor mode wrote the MeshLibrary itself")
	}
}
