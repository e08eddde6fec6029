package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScaffoldEmptyFolder starts the real host on an empty folder: it
// serves (rather than exiting for want of project.godot), tells the agent
// to scaffold, the scaffold creates the project, and the toolsets that need
// a Godot version work on it right away, without a restart.
func TestScaffoldEmptyFolder(t *testing.T) {
	dir := t.TempDir()
	s := stdioHost(t, legacy, "--project", dir, "--plugins-dir", projectPluginsDir, "--log-level", "warn")
	ins := s.InitializeResult().Instructions
	if !strings.Contains(ins, "no project.godot yet") || !strings.Contains(ins, "godot_project_scaffold") {
		t.Fatalf("the instructions do not offer the scaffold:\n%s", ins)
	}
	// project_scaffold is enabled for an empty folder; inspection waits
	// for a Godot version.
	var out struct {
		GodotVersion string   `json:"godot_version"`
		MainScene    string   `json:"main_scene"`
		Files        []string `json:"files"`
	}
	s.ok(t, "godot_project_scaffold", map[string]any{
		"project_name": "Space Game", "godot_version": "4.5", "renderer": "mobile", "template": "2d", "confirm": true,
	}, &out)
	if out.GodotVersion != "4.5" || out.MainScene != "res://scenes/main.tscn" {
		t.Fatalf("scaffold result %+v", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "project.godot")); err != nil {
		t.Fatal(err)
	}

	// inspection came on once project.godot gave a Godot version.
	var info struct {
		Name         string `json:"name"`
		GodotVersion string `json:"godot_version"`
		MainScene    string `json:"main_scene"`
	}
	s.ok(t, "godot_inspection_get_project_info", nil, &info)
	if info.Name != "Space Game" || info.GodotVersion != "4.5" || info.MainScene != out.MainScene {
		t.Fatalf("get_project_info after the scaffold: %+v", info)
	}
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"scene_edit"}}, nil)
	s.ok(t, "godot_scene_edit_open_scene", map[string]any{"scene_path": out.MainScene}, nil)
}
