package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
)

const checkHero = `class_name Hero
extends CharacterBody2D

@export var speed := 200.0

func _physics_process(_delta: float) -> void:
	velocity.x = Input.get_axis("ui_left", "ui_right") * speed
	move_and_slide()
`

const checkLevel = `extends Node2D

func _ready() -> void:
	var h := Hero.new()
	h.speed = 3.0
	add_child(h)
`

// TestScriptChecksUseTheEngineThroughTheHost: through the real host and
// the real scripts plugin, with no Godot binary, the scripts are compiled
// by the engine of the web runtime: a project whose scripts use each
// other's class_name checks clean, and a write that misspells a member
// (velocty) and a CharacterBody2D method (move_and_slid()) is answered
// with both errors and their lines, as get_parse_errors then reports them.
func TestScriptChecksUseTheEngineThroughTheHost(t *testing.T) {
	if _, err := webgodot.Locate(); err != nil {
		testenv.Missing(t, "the Godot web engine", err.Error())
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "project.godot"), "config_version=5\n\n[application]\n\nconfig/name=\"checks\"\nconfig/features=PackedStringArray(\"4.6\")\n")
	writeFile(t, filepath.Join(dir, "hero.gd"), checkHero)
	writeFile(t, filepath.Join(dir, "level.gd"), checkLevel)
	s := stdioHostEnv(t, legacy, []string{"GODOT_MCP_GODOT_BIN=" + filepath.Join(dir, "no-godot")},
		"--plugins-dir", projectPluginsDir, "--project", dir)
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"scripts"}}, nil)

	var pe map[string]any
	s.ok(t, "godot_scripts_get_parse_errors", nil, &pe)
	if pe["checker"] != "godot" || pe["checked"].(float64) != 2 || pe["files_with_errors"].(float64) != 0 ||
		!strings.Contains(pe["checker_detail"].(string), "web runtime") {
		t.Fatalf("a valid project: %v", pe)
	}

	broken := strings.Replace(checkHero, "\tvelocity.x", "\tvelocty.x", 1)
	broken = strings.Replace(broken, "move_and_slide()", "move_and_slid()", 1)
	var w map[string]any
	s.ok(t, "godot_scripts_write", map[string]any{"script_path": "res://hero.gd", "content": broken, "confirm": true}, &w)
	syn := w["syntax"].(map[string]any)
	intro, _ := syn["introduced_errors"].([]any)
	if syn["checker"] != "godot" || syn["introduced"] != true || len(intro) != 2 {
		t.Fatalf("write of a broken script: %v", w)
	}
	for i, want := range []struct {
		line float64
		name string
	}{{7, `"velocty"`}, {8, `"move_and_slid()"`}} {
		e := intro[i].(map[string]any)
		if e["line"] != want.line || !strings.Contains(e["message"].(string), want.name) {
			t.Errorf("introduced error %d = %v, want line %v naming %s", i, e, want.line, want.name)
		}
	}
	if !strings.Contains(w["warning"].(string), "line 7") {
		t.Errorf("warning = %v", w["warning"])
	}

	s.ok(t, "godot_scripts_get_parse_errors", map[string]any{"script_path": "res://hero.gd"}, &pe)
	errs, _ := pe["errors"].([]any)
	if pe["checker"] != "godot" || len(errs) != 2 || errs[0].(map[string]any)["line"] != 7.0 || errs[1].(map[string]any)["line"] != 8.0 {
		t.Fatalf("get_parse_errors of the broken script: %v", pe)
	}
}
