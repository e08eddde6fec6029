package e2e

import (
	"strings"
	"testing"
)

// TestWholeProjectToolsets drives the analysis, batch and composite
// toolsets through the real host over MCP on a real project directory:
// a broken reference found at its line, a cross-scene edit as one undoable
// action, and an all-or-nothing run_commands.
func TestWholeProjectToolsets(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir+"/project.godot", "config_version=5\n\n[application]\n\nrun/main_scene=\"res://main.tscn\"\nconfig/features=PackedStringArray(\"4.6\")\n")
	main := "[gd_scene format=3]\n\n[ext_resource type=\"PackedScene\" path=\"res://gone.tscn\" id=\"1\"]\n\n[node name=\"Main\" type=\"Node2D\"]\n\n[node name=\"Icon\" type=\"Sprite2D\" parent=\".\"]\n\n[node name=\"Gone\" parent=\".\" instance=ExtResource(\"1\")]\n"
	writeFile(t, dir+"/main.tscn", main)
	hud := "[gd_scene format=3]\n\n[node name=\"HUD\" type=\"Control\"]\n\n[node name=\"Logo\" type=\"Sprite2D\" parent=\".\"]\n"
	writeFile(t, dir+"/hud.tscn", hud)
	s := stdioHost(t, legacy, "--project", dir, "--plugins-dir", projectPluginsDir, "--log-level", "warn")
	// scene_edit too: run_commands below names its tools, and each command
	// is held to the rules of a direct call, the enabled set among them.
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"analysis", "batch", "composite", "scene_edit"}}, nil)

	var integ struct {
		Findings []struct {
			File, Code string
			Line       int
		} `json:"findings"`
	}
	s.ok(t, "godot_analysis_validate_scene_integrity", map[string]any{}, &integ)
	if len(integ.Findings) != 1 || integ.Findings[0].Code != "BROKEN_EXT_RESOURCE" || integ.Findings[0].File != "res://main.tscn" || integ.Findings[0].Line != 3 {
		t.Fatalf("integrity: %+v", integ)
	}

	var cross struct {
		TotalModified int    `json:"total_modified"`
		ActionID      uint64 `json:"action_id"`
		Changes       []struct {
			Scene string
			Line  int
		} `json:"changes"`
	}
	args := map[string]any{"scenes": []string{"res://main.tscn", "res://hud.tscn"}, "type": "Sprite2D", "property": "visible", "value": false}
	s.ok(t, "godot_batch_cross_scene_set_property", args, &cross)
	if cross.TotalModified != 2 || cross.ActionID == 0 || len(cross.Changes) != 2 {
		t.Fatalf("cross scene: %+v", cross)
	}
	if got, _ := readFile(t, dir+"/hud.tscn"); !strings.Contains(got, "visible = false") {
		t.Fatalf("hud.tscn:\n%s", got)
	}
	s.ok(t, "godot_undo", map[string]any{}, nil)
	if a, _ := readFile(t, dir+"/main.tscn"); a != main {
		t.Fatal("undo did not restore main.tscn")
	}
	if b, _ := readFile(t, dir+"/hud.tscn"); b != hud {
		t.Fatal("undo did not restore hud.tscn")
	}

	var run struct {
		OKAll        bool `json:"ok_all"`
		AbortedAt    *int `json:"aborted_at"`
		SkippedCount int  `json:"skipped_count"`
	}
	s.ok(t, "godot_composite_run_commands", map[string]any{"scene": "res://hud.tscn", "confirm": true, "commands": []any{
		map[string]any{"command": "create_node", "params": map[string]any{"node_type": "Label", "node_name": "Title"}},
		map[string]any{"command": "set_node_property", "params": map[string]any{"node_path": "Nope", "property": "text", "value": "x"}},
		map[string]any{"command": "delete_node", "params": map[string]any{"node_path": "Logo"}},
	}}, &run)
	if run.OKAll || run.AbortedAt == nil || *run.AbortedAt != 1 || run.SkippedCount != 1 {
		t.Fatalf("run_commands: %+v", run)
	}
	if b, _ := readFile(t, dir+"/hud.tscn"); b != hud {
		t.Fatal("an aborted run_commands wrote hud.tscn")
	}
}
