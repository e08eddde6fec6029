package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/projfixture"
)

const glowShader = `shader_type canvas_item;

uniform float glow : hint_range(0.0, 1.0) = 0.0;
uniform vec4 tint : source_color = vec4(1.0);

void fragment() {
	COLOR = texture(TEXTURE, UV) * tint + vec4(vec3(glow), 0.0);
}
`

// The shader and visual_shader toolsets through the real host, headless,
// on a copy of a real project: every write is one step of the
// workspace's history, and godot_undo, one step at a time, puts back the
// exact bytes each step found, removing the files (and the folder) the
// steps created.
func TestShaderWritesUndoneThroughTheHost(t *testing.T) {
	dir := projfixture.Copy(t, "2d-platformer")
	s := stdioHost(t, legacy, "--project", dir, "--plugins-dir", projectPluginsDir, "--log-level", "warn")
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"shader", "visual_shader"}}, nil)

	// The files the steps write; a nil entry is a file that does not exist.
	watched := []string{"shaders/glow.gdshader", "shaders/glow_material.tres", "shaders/glow.tres", "level/coin.tscn", "player/player.tscn"}
	snap := func() map[string][]byte {
		files := map[string][]byte{}
		for _, p := range watched {
			if b, err := os.ReadFile(filepath.Join(dir, p)); err == nil {
				files[p] = b
			} else if !os.IsNotExist(err) {
				t.Fatal(err)
			}
		}
		return files
	}
	same := func(a, b map[string][]byte) bool {
		if len(a) != len(b) {
			return false
		}
		for p, data := range a {
			if other, ok := b[p]; !ok || !bytes.Equal(data, other) {
				return false
			}
		}
		return true
	}

	steps := []struct {
		tool   string
		args   map[string]any
		action string // the history's name for the step
	}{
		{"godot_shader_create", map[string]any{"shader_path": "res://shaders/glow.gdshader", "code": glowShader},
			"Create shader res://shaders/glow.gdshader"},
		{"godot_shader_assign_material", map[string]any{"scene": "res://level/coin.tscn", "node_path": "Sprite2D", "shader_path": "res://shaders/glow.gdshader"},
			"Assign shader material to Sprite2D"},
		{"godot_shader_set_param", map[string]any{"scene": "res://level/coin.tscn", "node_path": "Sprite2D", "name": "glow", "value": 0.75},
			"Set shader parameter glow on Sprite2D"},
		// A material of its own: the .tres and the scene in one step.
		{"godot_shader_assign_material", map[string]any{"scene": "res://player/player.tscn", "node_path": "Sprite2D", "shader_path": "res://shaders/glow.gdshader",
			"material_path": "res://shaders/glow_material.tres"}, "Assign shader material to Sprite2D"},
		{"godot_shader_set_param", map[string]any{"scene": "res://player/player.tscn", "node_path": "Sprite2D", "name": "tint", "value": "#ffcc00"},
			"Set shader parameter tint on Sprite2D"},
		{"godot_visual_shader_create", map[string]any{"name": "glow", "type": "2d"}, "Create visual shader res://shaders/glow.tres"},
		{"godot_visual_shader_add_node", map[string]any{"shader_path": "res://shaders/glow.tres", "node_type": "VisualShaderNodeColorConstant", "node_id": 2},
			"Add VisualShaderNodeColorConstant 2 to res://shaders/glow.tres"},
		{"godot_visual_shader_set_node_param", map[string]any{"shader_path": "res://shaders/glow.tres", "node_id": 2, "property": "constant", "value": "#ff0000"},
			"Set constant of shader node 2 in res://shaders/glow.tres"},
	}
	states := []map[string][]byte{snap()}
	for _, st := range steps {
		s.ok(t, st.tool, st.args, nil)
		now := snap()
		if same(now, states[len(states)-1]) {
			t.Fatalf("%s changed no file", st.tool)
		}
		states = append(states, now)
	}
	if got := states[3]["shaders/glow_material.tres"]; got != nil || states[4]["shaders/glow_material.tres"] == nil {
		t.Fatal("assign_material with material_path did not write the .tres")
	}

	for i := len(steps); i > 0; i-- {
		var u map[string]any
		s.ok(t, "godot_undo", nil, &u)
		if u["undone"] != 1.0 || u["last_action"] != steps[i-1].action {
			t.Errorf("undo of %s = %v, want %q undone", steps[i-1].tool, u, steps[i-1].action)
		}
		if now := snap(); !same(now, states[i-1]) {
			for _, p := range watched {
				if !bytes.Equal(now[p], states[i-1][p]) {
					t.Errorf("after undoing %s, %s is\n%s\nwant\n%s", steps[i-1].tool, p, now[p], states[i-1][p])
				}
			}
			t.FailNow()
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "shaders")); !os.IsNotExist(err) {
		t.Errorf("undo left the folder the steps created (%v)", err)
	}
	var u map[string]any
	s.ok(t, "godot_undo", nil, &u)
	if u["nothing_to_undo"] != true {
		t.Errorf("an undo past the first step = %v", u)
	}
}
