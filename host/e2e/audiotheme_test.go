package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/fakeaddon"
	"github.com/godot-mcp/godot-mcp/internal/projfixture"
)

// The audio and theme_ui toolsets through the real host, headless, on
// copies of real projects: each write is one step of the workspace's
// history, and godot_undo, one step at a time, puts back the exact bytes
// each step found (removing the files the steps created).
func TestAudioAndThemeWritesUndoneThroughTheHost(t *testing.T) {
	dir := projfixture.Copy(t, "2d-platformer")
	// An AudioStream of the project (the corpus copy has no audio files).
	if err := os.WriteFile(filepath.Join(dir, "beep.tres"), []byte("[gd_resource type=\"AudioStreamGenerator\" format=3]\n\n[resource]\nmix_rate = 22050.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := stdioHost(t, legacy, "--project", dir, "--plugins-dir", projectPluginsDir, "--log-level", "warn")
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"audio", "theme_ui"}}, nil)

	watched := []string{"default_bus_layout.tres", "level/coin.tscn", "gui/coins_counter.tscn", "gui/theme.tres", "gui/hud_theme.tres"}
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
		action string
	}{
		{"godot_audio_add_bus", map[string]any{"name": "SFX", "volume_db": -2}, "Add audio bus SFX"},
		{"godot_audio_add_bus_effect", map[string]any{"bus": "SFX", "effect_type": "AudioEffectReverb", "properties": map[string]any{"room_size": 0.7}},
			"Add AudioEffectReverb to bus SFX"},
		{"godot_audio_add_player", map[string]any{"scene": "res://level/coin.tscn", "parent_path": ".", "player_type": "AudioStreamPlayer2D",
			"stream_path": "res://beep.tres", "properties": map[string]any{"bus": "SFX", "autoplay": true}}, "Add AudioStreamPlayer2D AudioStreamPlayer2D"},
		{"godot_audio_remove_bus_effect", map[string]any{"bus": "SFX", "effect_index": 0, "confirm": true}, "Remove effect 0 from bus SFX"},
		{"godot_theme_ui_set_color", map[string]any{"scene": "res://gui/coins_counter.tscn", "node_path": "Label", "name": "font_color", "color": "#ffcc00"},
			"Override theme color font_color on Label"},
		{"godot_theme_ui_set_stylebox", map[string]any{"theme_path": "res://gui/theme.tres", "theme_type": "Panel", "name": "panel",
			"properties": map[string]any{"bg_color": "#101820", "corner_radius_all": 4}}, "Set Panel/styles/panel in res://gui/theme.tres"},
		{"godot_theme_ui_create", map[string]any{"save_path": "res://gui/hud_theme.tres"}, "Create theme res://gui/hud_theme.tres"},
		{"godot_theme_ui_set_font_size", map[string]any{"theme_path": "res://gui/hud_theme.tres", "theme_type": "Label", "name": "font_size", "size": 18},
			"Set Label/font_sizes/font_size in res://gui/hud_theme.tres"},
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
	var layout struct {
		Buses []struct {
			Name    string `json:"name"`
			Effects []any  `json:"effects"`
		} `json:"buses"`
	}
	s.ok(t, "godot_audio_get_bus_layout", nil, &layout)
	if len(layout.Buses) != 2 || layout.Buses[1].Name != "SFX" || len(layout.Buses[1].Effects) != 0 {
		t.Errorf("bus layout: %+v", layout)
	}
	var ov struct {
		Colors map[string]any `json:"colors"`
	}
	s.ok(t, "godot_theme_ui_get_node_overrides", map[string]any{"scene": "res://gui/coins_counter.tscn", "node_path": "Label"}, &ov)
	if c, _ := ov.Colors["font_color"].(map[string]any); c == nil || c["g"] != 0.8 {
		t.Errorf("overrides: %+v", ov)
	}
	for i := len(steps); i > 0; i-- {
		var u map[string]any
		s.ok(t, "godot_undo", nil, &u)
		if u["undone"] != 1.0 || u["last_action"] != steps[i-1].action {
			t.Errorf("undo of %s = %v, want %q undone", steps[i-1].tool, u, steps[i-1].action)
		}
		if now := snap(); !same(now, states[i-1]) {
			t.Fatalf("after undoing %s the files differ from before it", steps[i-1].tool)
		}
	}
}

// Editor mode through the real bridge: the tools send the addon's
// commands with the reference's params.
func TestAudioAndThemeEditorMode(t *testing.T) {
	dir := projfixture.Copy(t, "gui-theming_override")
	url := bridgeURL(t)
	s := stdioHostEnv(t, legacy, []string{"GODOT_MCP_BRIDGE_URL=" + url}, "--project", dir, "--plugins-dir", projectPluginsDir, "--log-level", "warn")
	echo := func(extra map[string]any) fakeaddon.Handler {
		return func(p map[string]any) fakeaddon.Reply {
			out := map[string]any{}
			for k, v := range p {
				out[k] = v
			}
			for k, v := range extra {
				out[k] = v
			}
			return fakeaddon.OK(out)
		}
	}
	ed := attachAddon(t, s, fakeaddon.Options{URL: url, ProjectPath: dir + "/", GodotVersion: "4.6.1-stable",
		Handlers: map[string]fakeaddon.Handler{
			"cmd_open_scene":               echo(map[string]any{"opened": true}),
			"cmd_get_audio_bus_layout":     echo(map[string]any{"buses": []any{map[string]any{"index": 0, "name": "Master", "effects": []any{}}}}),
			"cmd_add_audio_bus":            echo(map[string]any{"index": 1}),
			"cmd_add_audio_bus_effect":     echo(map[string]any{"bus_index": 1, "effect_index": 0}),
			"cmd_remove_audio_bus_effect":  echo(map[string]any{"bus_index": 1, "removed": true}),
			"cmd_remove_audio_bus":         echo(map[string]any{"index": 1, "removed": true}),
			"cmd_add_audio_player":         echo(map[string]any{"node_path": "Music", "created": true}),
			"cmd_create_theme":             echo(map[string]any{"theme_path": "", "created": true}),
			"cmd_set_theme_color":          echo(nil),
			"cmd_set_theme_font_size":      echo(nil),
			"cmd_set_theme_stylebox":       echo(nil),
			"cmd_get_node_theme_overrides": echo(map[string]any{"colors": map[string]any{}, "font_sizes": map[string]any{}, "styleboxes": []any{}}),
			"cmd_list_open_scenes":         echo(map[string]any{"scenes": []any{}}),
			"cmd_get_active_scene":         echo(map[string]any{"scene_path": "res://test.tscn"}),
			"cmd_node_persistence":         echo(map[string]any{"persisted": true}),
			"cmd_get_node_property":        echo(nil),
			"cmd_get_node_properties":      echo(nil),
			"cmd_get_node_property_list":   echo(nil),
			"cmd_get_scene_tree":           echo(nil),
			"cmd_get_selected_node":        echo(nil),
			"cmd_snapshot_subtree":         echo(nil),
			"cmd_get_node_groups":          echo(nil),
			"cmd_list_scenes":              echo(nil),
			"cmd_rescan_filesystem":        echo(nil),
			"cmd_get_scan_state":           echo(nil),
			"cmd_save_scene":               echo(nil),
		}})
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"audio", "theme_ui"}}, nil)
	before := len(ed.Calls())
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"godot_audio_get_bus_layout", nil},
		{"godot_audio_add_bus", map[string]any{"name": "Music", "volume_db": -6}},
		{"godot_audio_add_bus_effect", map[string]any{"bus": "Music", "effect_type": "AudioEffectDelay", "properties": map[string]any{"feedback_active": true}}},
		{"godot_audio_remove_bus_effect", map[string]any{"bus": "Music", "effect_index": 0, "confirm": true}},
		{"godot_audio_remove_bus", map[string]any{"bus": "Music", "confirm": true}},
		{"godot_audio_add_player", map[string]any{"parent_path": ".", "name": "Music", "stream_path": "res://music.ogg", "properties": map[string]any{"autoplay": true}}},
		{"godot_theme_ui_create", map[string]any{"node_path": "Panel", "scene": "res://test.tscn"}},
		{"godot_theme_ui_set_color", map[string]any{"node_path": "Panel/MarginContainer/VBoxContainer/Button", "name": "custom_colors/font_color", "color": []any{1, 0, 0, 1}}},
		{"godot_theme_ui_set_font_size", map[string]any{"node_path": "Panel/MarginContainer/VBoxContainer/Button", "name": "font_size", "size": 30}},
		{"godot_theme_ui_set_stylebox", map[string]any{"node_path": "Panel", "name": "panel", "stylebox_type": "StyleBoxFlat", "properties": map[string]any{"bg_color": "#202020", "corner_radius_all": 8}}},
		{"godot_theme_ui_get_node_overrides", map[string]any{"node_path": "Panel"}},
	}
	for _, c := range calls {
		s.ok(t, c.tool, c.args, nil)
	}
	want := []string{
		`cmd_get_audio_bus_layout {}`,
		`cmd_add_audio_bus {"name":"Music","volume_db":-6}`,
		`cmd_add_audio_bus_effect {"bus":"Music","effect_type":"AudioEffectDelay","properties":{"feedback_active":true}}`,
		`cmd_remove_audio_bus_effect {"bus":"Music","confirm":true,"effect_index":0}`,
		`cmd_remove_audio_bus {"bus":"Music","confirm":true}`,
		`cmd_add_audio_player {"name":"Music","parent_path":".","player_type":"AudioStreamPlayer","properties":{"autoplay":true},"stream_path":"res://music.ogg"}`,
		`cmd_open_scene {"scene_path":"res://test.tscn"}`,
		`cmd_create_theme {"node_path":"Panel","save_path":""}`,
		`cmd_set_theme_color {"color":[1,0,0,1],"name":"font_color","node_path":"Panel/MarginContainer/VBoxContainer/Button"}`,
		`cmd_set_theme_font_size {"name":"font_size","node_path":"Panel/MarginContainer/VBoxContainer/Button","size":30}`,
		`cmd_set_theme_stylebox {"name":"panel","node_path":"Panel","properties":{"bg_color":"#202020","corner_radius_bottom_left":8,"corner_radius_bottom_right":8,"corner_radius_top_left":8,"corner_radius_top_right":8},"stylebox_type":"StyleBoxFlat"}`,
		`cmd_get_node_theme_overrides {"node_path":"Panel"}`,
	}
	var got []string
	for _, c := range ed.Calls()[before:] {
		switch c.Command {
		case "cmd_toolsets_update", "cmd_server_hello", "cmd_ping", "cmd_list_open_scenes", "cmd_get_active_scene", "cmd_get_scan_state":
			continue
		}
		b, _ := json.Marshal(c.Params)
		got = append(got, c.Command+" "+string(b))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the addon got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// No file of the project was written: the editor did it all.
	if b, err := os.ReadFile(filepath.Join(dir, "test.tscn")); err != nil || !bytes.Equal(b, mustRead(t, filepath.Join(projfixture.Dir(t), "gui-theming_override", "test.tscn"))) {
		t.Errorf("editor mode wrote test.tscn (%v)", err)
	}
}
