package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// add_player on copies of 3d-platformer and 2d-platformer: the node with
// its stream (an ext_resource with the file's uid), bus, volume and
// autoplay, as the editor saves them; the engine loads the scene with
// every value; undo restores the scene byte for byte.
func TestAddPlayer(t *testing.T) {
	dir := plugintest.CorpusProject(t, "2d-platformer")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	orig := readFile(t, dir, "level/coin.tscn")
	plugintest.Must(t, h, "add_bus", map[string]any{"name": "SFX"})
	res := plugintest.CallAs[addPlayerResult](t, h, "add_player", map[string]any{
		"parent_path": ".", "player_type": "AudioStreamPlayer2D", "name": "Hit", "stream_path": "res://enemy/hit.wav",
		"properties": map[string]any{"bus": "SFX", "volume_db": -4.5, "autoplay": true, "max_distance": 800},
		"scene":      "res://level/coin.tscn",
	})
	if res.NodePath != "Hit" || !res.Created || res.Bus != "SFX" || res.Stream != "res://enemy/hit.wav" {
		t.Errorf("add_player: %+v", res)
	}
	got := readFile(t, dir, "level/coin.tscn")
	uid := strings.TrimSpace(strings.SplitN(strings.SplitN(readFile(t, dir, "enemy/hit.wav.import"), "uid=\"", 2)[1], "\"", 2)[0])
	for _, want := range []string{
		`[ext_resource type="AudioStreamWAV" uid="` + uid + `" path="res://enemy/hit.wav" id="`,
		"[node name=\"Hit\" type=\"AudioStreamPlayer2D\" parent=\".\"",
		"stream = ExtResource(\"",
		"volume_db = -4.5\nautoplay = true\nmax_distance = 800.0\nbus = &\"SFX\"\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("coin.tscn lacks %q:\n%s", want, got)
		}
	}
	// A second player of the default type, under the root, with a name
	// clash: the editor's next free name.
	res = plugintest.CallAs[addPlayerResult](t, h, "add_player", map[string]any{"parent_path": ".", "name": "Hit", "scene": "res://level/coin.tscn"})
	if res.NodePath != "Hit2" || res.PlayerType != "AudioStreamPlayer" {
		t.Errorf("second add_player: %+v", res)
	}
	requireEngine(t)
	enginecheck.Project(t, dir)
	if _, err := h.Workspace().Undo(context.Background(), 3, false); err != nil {
		t.Fatal(err)
	}
	if b := readFile(t, dir, "level/coin.tscn"); b != orig {
		t.Errorf("undo did not restore coin.tscn byte for byte:\n%s", b)
	}
	if b := readFile(t, dir, "default_bus_layout.tres"); !strings.HasSuffix(b, "[resource]\nbus/0/volume_db = -11.9576\n") {
		t.Errorf("undo did not restore the layout:\n%s", b)
	}
}

// Editor mode: each tool sends the addon's command with the reference's
// params; add_player opens the scene first.
func TestEditorMode(t *testing.T) {
	ed := sdktest.NewEditor().
		Result("cmd_get_audio_bus_layout", map[string]any{"buses": []any{map[string]any{"index": 0, "name": "Master"}}}).
		Result("cmd_add_audio_bus", map[string]any{"index": 1, "name": "Music"}).
		Result("cmd_add_audio_bus_effect", map[string]any{"bus": "Music", "bus_index": 1, "effect_type": "AudioEffectReverb", "effect_index": 0}).
		Result("cmd_remove_audio_bus_effect", map[string]any{"bus": "Music", "bus_index": 1, "effect_index": 0, "removed": true}).
		Result("cmd_remove_audio_bus", map[string]any{"name": "Music", "index": 1, "removed": true}).
		Result("cmd_open_scene", map[string]any{"opened": true}).
		Result("cmd_add_audio_player", map[string]any{"node_path": "Main/AudioStreamPlayer3D", "player_type": "AudioStreamPlayer3D", "created": true})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: t.TempDir(), GodotVersion: "4.6", Editor: ed.Serve})
	l := plugintest.Call(t, h, "get_bus_layout", map[string]any{})
	if b, _ := l["buses"].([]any); len(b) != 1 {
		t.Errorf("get_bus_layout: %v", l)
	}
	plugintest.Must(t, h, "add_bus", map[string]any{"name": "Music", "volume_db": -3})
	plugintest.Must(t, h, "add_bus_effect", map[string]any{"bus": "Music", "effect_type": "AudioEffectReverb", "properties": map[string]any{"room_size": 0.9}})
	plugintest.Must(t, h, "remove_bus_effect", map[string]any{"bus": "Music", "effect_index": 0})
	plugintest.Must(t, h, "remove_bus", map[string]any{"bus": "Music"})
	r := plugintest.Call(t, h, "add_player", map[string]any{"parent_path": ".", "player_type": "AudioStreamPlayer3D", "stream_path": "res://a.ogg",
		"properties": map[string]any{"bus": "Music", "autoplay": true}, "scene": "res://main.tscn"})
	if r["node_path"] != "Main/AudioStreamPlayer3D" {
		t.Errorf("add_player: %v", r)
	}
	// The same refusals as headless, before anything is sent.
	plugintest.Refused(t, h, "add_bus_effect", map[string]any{"bus": "Music", "effect_type": "AudioEffectRevreb"}, sdk.CodeInvalidArgument, "did you mean AudioEffectReverb")
	plugintest.Refused(t, h, "remove_bus", map[string]any{"bus": "Master"}, sdk.CodeInvalidArgument, "Master bus cannot be removed")
	want := []sdktest.EditorCall{
		{Command: "cmd_get_audio_bus_layout", Params: map[string]any{}},
		{Command: "cmd_add_audio_bus", Params: map[string]any{"name": "Music", "volume_db": -3.0}},
		{Command: "cmd_add_audio_bus_effect", Params: map[string]any{"bus": "Music", "effect_type": "AudioEffectReverb", "properties": map[string]any{"room_size": 0.9}}},
		{Command: "cmd_remove_audio_bus_effect", Params: map[string]any{"bus": "Music", "effect_index": 0.0, "confirm": true}},
		{Command: "cmd_remove_audio_bus", Params: map[string]any{"bus": "Music", "confirm": true}},
		{Command: "cmd_open_scene", Params: map[string]any{"scene_path": "res://main.tscn"}},
		{Command: "cmd_add_audio_player", Params: map[string]any{"parent_path": ".", "player_type": "AudioStreamPlayer3D", "name": "AudioStreamPlayer3D",
			"stream_path": "res://a.ogg", "properties": map[string]any{"bus": "Music", "autoplay": true}}},
	}
	got := ed.Calls()
	if len(got) != len(want) {
		t.Fatalf("editor got %d commands: %+v", len(got), got)
	}
	for i := range want {
		if got[i].Command != want[i].Command || !sameJSON(got[i].Params, want[i].Params) {
			t.Errorf("command %d:\n got %s %v\nwant %s %v", i, got[i].Command, got[i].Params, want[i].Command, want[i].Params)
		}
	}
	if entries, _ := os.ReadDir(h.Workspace().Root()); len(entries) > 0 {
		t.Errorf("editor mode wrote files: %v", entries)
	}
}

// Dry runs: in the editor nothing mutating is sent; headless nothing is
// written and the answer is the preview with the diff.
func TestDryRuns(t *testing.T) {
	ed := sdktest.NewEditor().Result("cmd_open_scene", map[string]any{"opened": true})
	he := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: t.TempDir(), GodotVersion: "4.6", Editor: ed.Serve})
	calls := map[string]any{
		"add_bus":           map[string]any{"name": "Music"},
		"add_bus_effect":    map[string]any{"bus": "Master", "effect_type": "AudioEffectDelay"},
		"remove_bus":        map[string]any{"bus": "Music"},
		"remove_bus_effect": map[string]any{"bus": "Master", "effect_index": 0},
		"add_player":        map[string]any{"parent_path": ".", "scene": "res://main.tscn"},
	}
	plugintest.EditorDryRuns(t, he, ed, calls)

	dir := plugintest.CorpusProject(t, "2d-platformer")
	plugintest.WriteFile(t, dir, "main.tscn", "[gd_scene format=3]\n\n[node name=\"Main\" type=\"Node\"]\n")
	layout := strings.ReplaceAll(engineLayout, "_x\"", "_abcde\"")
	plugintest.WriteFile(t, dir, "default_bus_layout.tres", layout)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	for tool, args := range calls {
		a := args.(map[string]any)
		switch tool {
		case "remove_bus_effect":
			a = map[string]any{"bus": "Music", "effect_index": 1}
		case "add_bus":
			a = map[string]any{"name": "Voice"}
		}
		plugintest.DryRunIn(t, h, sdk.ModeHeadless, tool, a)
	}
	if b := readFile(t, dir, "default_bus_layout.tres"); b != layout {
		t.Errorf("a headless dry run wrote the layout:\n%s", b)
	}
	if b := readFile(t, dir, "main.tscn"); !strings.HasSuffix(b, "type=\"Node\"]\n") {
		t.Errorf("a headless dry run wrote the scene:\n%s", b)
	}
	if _, err := os.Stat(filepath.Join(dir, ".godot", "nothing")); err == nil {
		t.Error("unexpected file")
	}
}

// sameJSON compares command params as the wire carries them.
func sameJSON(a, b map[string]any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
