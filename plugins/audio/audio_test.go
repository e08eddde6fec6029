package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func TestMain(m *testing.M) { enginecheck.Main(m, enginecheck.IgnoreLeaks) }

func requireEngine(t *testing.T) {
	t.Helper()
	if _, err := webgodot.Locate(); err != nil {
		testenv.Missing(t, "the Godot web engine", err.Error())
	}
}

func readFile(t *testing.T, dir, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// subIDs replaces the generated part of sub-resource ids ("_ab12c") so a
// file can be compared with the engine's text.
var subIDs = regexp.MustCompile(`(AudioEffect[A-Za-z0-9]+)_[a-z0-9]{5}`)

func normalized(s string) string { return subIDs.ReplaceAllString(s, "${1}_x") }

// The layout the engine's ResourceSaver writes for: Music (-6.5 dB,
// Reverb with room_size 0.5, a disabled Delay) and SFX (muted, sending to
// Music, an EQ10), from AudioServer.generate_bus_layout() in Godot 4.6.
const engineLayout = `[gd_resource type="AudioBusLayout" format=3 uid="uid://b2a5tktcnfc87"]

[sub_resource type="AudioEffectReverb" id="AudioEffectReverb_x"]
room_size = 0.5

[sub_resource type="AudioEffectDelay" id="AudioEffectDelay_x"]

[sub_resource type="AudioEffectEQ10" id="AudioEffectEQ10_x"]

[resource]
bus/0/volume_db = -11.9576
bus/1/name = &"Music"
bus/1/solo = false
bus/1/mute = false
bus/1/bypass_fx = false
bus/1/volume_db = -6.5
bus/1/send = &""
bus/1/effect/0/effect = SubResource("AudioEffectReverb_x")
bus/1/effect/0/enabled = true
bus/1/effect/1/effect = SubResource("AudioEffectDelay_x")
bus/1/effect/1/enabled = false
bus/2/name = &"SFX"
bus/2/solo = false
bus/2/mute = true
bus/2/bypass_fx = false
bus/2/volume_db = 0.0
bus/2/send = &"Music"
bus/2/effect/0/effect = SubResource("AudioEffectEQ10_x")
bus/2/effect/0/enabled = true
`

// The bus tools on a copy of 2d-platformer (whose layout sets Master's
// volume) write the layout exactly as the engine saves it; the engine
// loads it into the AudioServer with every value; removing a bus fixes
// the sends and indices; undo restores every byte.
func TestBusLayoutAsTheEngineWritesIt(t *testing.T) {
	dir := plugintest.CorpusProject(t, "2d-platformer")
	orig := readFile(t, dir, "default_bus_layout.tres")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})

	l := plugintest.CallAs[layoutResult](t, h, "get_bus_layout", map[string]any{})
	if len(l.Buses) != 1 || l.Buses[0].Name != "Master" || l.Buses[0].VolumeDB != -11.9576 || l.LayoutPath != "res://default_bus_layout.tres" {
		t.Fatalf("layout of the fixture: %+v", l)
	}
	steps := []struct {
		tool string
		args map[string]any
	}{
		{"add_bus", map[string]any{"name": "Music", "volume_db": -6.5}},
		{"add_bus", map[string]any{"name": "SFX"}},
		{"add_bus_effect", map[string]any{"bus": "Music", "effect_type": "AudioEffectReverb", "properties": map[string]any{"room_size": 0.5, "damping": 0.5}}},
		{"add_bus_effect", map[string]any{"bus": "Music", "effect_type": "AudioEffectDelay"}},
		{"add_bus_effect", map[string]any{"bus": "SFX", "effect_type": "AudioEffectEQ10"}},
	}
	for _, s := range steps {
		plugintest.Must(t, h, s.tool, s.args)
	}
	// No tool mutes a bus, disables an effect or sets a send (the
	// reference has none); the rest of the engine's layout is written
	// here by hand, as the editor's bus panel would.
	got := readFile(t, dir, "default_bus_layout.tres")
	want := strings.NewReplacer("bus/1/effect/1/enabled = false", "bus/1/effect/1/enabled = true",
		"bus/2/mute = true", "bus/2/mute = false", `bus/2/send = &"Music"`, `bus/2/send = &""`).Replace(engineLayout)
	if normalized(got) != want {
		t.Fatalf("layout after the adds:\n%s\nwant:\n%s", got, want)
	}
	edited := strings.NewReplacer("bus/1/effect/1/enabled = true", "bus/1/effect/1/enabled = false",
		"bus/2/mute = false", "bus/2/mute = true", `bus/2/send = &""`, `bus/2/send = &"Music"`).Replace(got)
	if err := os.WriteFile(filepath.Join(dir, "default_bus_layout.tres"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if normalized(edited) != engineLayout {
		t.Fatalf("hand edit:\n%s", edited)
	}
	l = plugintest.CallAs[layoutResult](t, h, "get_bus_layout", map[string]any{})
	if len(l.Buses) != 3 || l.Buses[2].Send != "Music" || !l.Buses[2].Muted || l.Buses[1].Effects[1].Enabled ||
		l.Buses[1].Effects[0].Type != "AudioEffectReverb" || l.Buses[1].Effects[0].Properties["room_size"] != 0.5 {
		t.Errorf("re-read: %+v", l)
	}
	requireEngine(t)
	busState(t, edited, "Master:-11.9576::0|Music:-6.5::0:AudioEffectReverb=true:0.5,AudioEffectDelay=false|SFX:0.0:Music:1:AudioEffectEQ10=true")

	// Removing an effect renumbers the stack and drops its sub-resource.
	plugintest.Must(t, h, "remove_bus_effect", map[string]any{"bus": "Music", "effect_index": 0}, sdktest.ConfirmDestructive())
	afterFx := readFile(t, dir, "default_bus_layout.tres")
	if strings.Contains(afterFx, "AudioEffectReverb") || !strings.Contains(afterFx, "bus/1/effect/0/effect = SubResource(\"AudioEffectDelay_") ||
		!strings.Contains(afterFx, "bus/1/effect/0/enabled = false") || strings.Contains(afterFx, "bus/1/effect/1/") {
		t.Errorf("after remove_bus_effect:\n%s", afterFx)
	}
	// Removing Music: SFX moves to bus 1 and sends where Music sent.
	res := plugintest.CallAs[removeBusResult](t, h, "remove_bus", map[string]any{"bus": "Music"}, sdktest.ConfirmDestructive())
	if !res.Removed || res.Index != 1 || len(res.SendsFixed) != 1 || res.SendsFixed[0] != "SFX" {
		t.Errorf("remove_bus: %+v", res)
	}
	afterBus := readFile(t, dir, "default_bus_layout.tres")
	wantBus := `[gd_resource type="AudioBusLayout" format=3 uid="uid://b2a5tktcnfc87"]

[sub_resource type="AudioEffectEQ10" id="AudioEffectEQ10_x"]

[resource]
bus/0/volume_db = -11.9576
bus/1/name = &"SFX"
bus/1/solo = false
bus/1/mute = true
bus/1/bypass_fx = false
bus/1/volume_db = 0.0
bus/1/send = &""
bus/1/effect/0/effect = SubResource("AudioEffectEQ10_x")
bus/1/effect/0/enabled = true
`
	if normalized(afterBus) != wantBus {
		t.Errorf("after remove_bus:\n%s\nwant:\n%s", afterBus, wantBus)
	}
	busState(t, afterBus, "Master:-11.9576::0|SFX:0.0::1:AudioEffectEQ10=true")

	// Undo: the two removals, then the five tool calls before the hand
	// edit (the journal refuses to undo over it, so it is put back first).
	ctx := context.Background()
	if _, err := h.Workspace().Undo(ctx, 2, false); err != nil {
		t.Fatal(err)
	}
	if b := readFile(t, dir, "default_bus_layout.tres"); b != edited {
		t.Errorf("undo of the removals:\n%s", b)
	}
	if err := os.WriteFile(filepath.Join(dir, "default_bus_layout.tres"), []byte(got), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Workspace().Undo(ctx, len(steps), false); err != nil {
		t.Fatal(err)
	}
	if b := readFile(t, dir, "default_bus_layout.tres"); b != orig {
		t.Errorf("undo did not restore the layout byte for byte:\n%s", b)
	}
}

// busState has the engine load layout into the AudioServer and compares
// each bus (name:volume:send:mute:effect=enabled[:room_size],...) with want.
func busState(t *testing.T, layout, want string) {
	t.Helper()
	script := `extends Node
func _ready():
	var l = load("res://default_bus_layout.tres")
	AudioServer.set_bus_layout(l)
	var out = []
	for i in AudioServer.get_bus_count():
		var fx = []
		for e in AudioServer.get_bus_effect_count(i):
			var eff = AudioServer.get_bus_effect(i, e)
			var s = "%s=%s" % [eff.get_class(), AudioServer.is_bus_effect_enabled(i, e)]
			if eff is AudioEffectReverb:
				s += ":" + str(eff.room_size)
			fx.append(s)
		var send = String(AudioServer.get_bus_send(i))
		out.append("%s:%s:%s:%d%s" % [AudioServer.get_bus_name(i), snapped(AudioServer.get_bus_volume_db(i), 0.0001), send if i > 0 else "", int(AudioServer.is_bus_mute(i)), (":" + ",".join(fx)) if fx else ""])
	print("BUSES " + "|".join(out))
	get_tree().quit()
`
	files := webgodot.ScriptProject(script)
	files = append(files, webgodot.PackFile{Path: "default_bus_layout.tres", Data: []byte(layout)})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := enginecheck.Runner(t).Run(ctx, files)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range res.Lines {
		if s, ok := strings.CutPrefix(l.Text, "BUSES "); ok {
			if s != want {
				t.Errorf("the engine's AudioServer:\n got %s\nwant %s", s, want)
			}
			return
		}
		if strings.Contains(l.Text, "ERROR") {
			t.Errorf("engine: %s", l.Text)
		}
	}
	t.Errorf("the engine printed no buses: %+v", res.Lines)
}

// A project without a layout file gets one on the first edit, with a
// uid, that the engine loads without a problem.
func TestNewLayoutFile(t *testing.T) {
	dir := plugintest.CorpusProject(t, "audio-generator")
	if _, err := os.Stat(filepath.Join(dir, "default_bus_layout.tres")); err == nil {
		t.Fatal("the fixture has a layout already")
	}
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	l := plugintest.CallAs[layoutResult](t, h, "get_bus_layout", map[string]any{})
	if len(l.Buses) != 1 || l.Buses[0].Name != "Master" || l.Exists {
		t.Fatalf("default layout: %+v", l)
	}
	plugintest.Must(t, h, "add_bus_effect", map[string]any{"bus": "Master", "effect_type": "AudioEffectCompressor", "properties": map[string]any{"threshold": -12, "ratio": 6, "attack_us": 20}})
	plugintest.Must(t, h, "add_bus", map[string]any{"name": "Voice", "volume_db": -3.3})
	got := readFile(t, dir, "default_bus_layout.tres")
	want := `[resource]
bus/0/effect/0/effect = SubResource("AudioEffectCompressor_x")
bus/0/effect/0/enabled = true
bus/1/name = &"Voice"
bus/1/solo = false
bus/1/mute = false
bus/1/bypass_fx = false
bus/1/volume_db = -3.3
bus/1/send = &""
`
	if !strings.HasPrefix(got, `[gd_resource type="AudioBusLayout" format=3 uid="uid://`) || !strings.HasSuffix(normalized(got), want) ||
		!strings.Contains(got, "threshold = -12.0\nratio = 6.0\n") {
		t.Errorf("new layout:\n%s", got)
	}
	requireEngine(t)
	enginecheck.Files(t, map[string][]byte{"project.godot": []byte(readFile(t, dir, "project.godot")), "default_bus_layout.tres": []byte(got)})
	busState(t, got, "Master:0.0::0:AudioEffectCompressor=true|Voice:-3.3::0")
	if _, err := h.Workspace().Undo(context.Background(), 2, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "default_bus_layout.tres")); !os.IsNotExist(err) {
		t.Errorf("undo left the new layout file: %v", err)
	}
}

// Refusals name the argument and the fix, in both modes where the check
// needs no file.
func TestRefusals(t *testing.T) {
	dir := plugintest.CorpusProject(t, "2d-platformer")
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	plugintest.Refused(t, h, "add_bus_effect", map[string]any{"bus": "Master", "effect_type": "AudioEffectReverbb"}, sdk.CodeInvalidArgument, "did you mean AudioEffectReverb")
	plugintest.Refused(t, h, "add_bus_effect", map[string]any{"bus": "Master", "effect_type": "Node2D"}, sdk.CodeInvalidArgument, "not an AudioEffect")
	plugintest.Refused(t, h, "add_bus_effect", map[string]any{"bus": "Master", "effect_type": "AudioEffectReverb", "properties": map[string]any{"roomsize": 1}},
		sdk.CodeInvalidArgument, "did you mean room_size")
	plugintest.Refused(t, h, "add_bus_effect", map[string]any{"bus": "Nope", "effect_type": "AudioEffectReverb"}, sdk.CodeNotFound, "its buses are Master")
	plugintest.Refused(t, h, "add_bus", map[string]any{"name": "Master"}, sdk.CodeInvalidArgument, "already exists")
	plugintest.Refused(t, h, "remove_bus", map[string]any{"bus": "Master", "confirm": true}, sdk.CodeInvalidArgument, "Master bus cannot be removed")
	plugintest.Refused(t, h, "remove_bus_effect", map[string]any{"bus": "Master", "effect_index": 0, "confirm": true}, sdk.CodeInvalidArgument, "the bus has no effects")
	plugintest.Refused(t, h, "add_player", map[string]any{"parent_path": ".", "scene": "res://music.tscn", "properties": map[string]any{"bus": "Drums"}},
		sdk.CodeInvalidArgument, "its buses are Master")
	plugintest.Refused(t, h, "add_player", map[string]any{"parent_path": ".", "scene": "res://music.tscn", "player_type": "Sprite2D"},
		sdk.CodeInvalidArgument, "AudioStreamPlayer2D")
	plugintest.Refused(t, h, "add_player", map[string]any{"parent_path": ".", "scene": "res://music.tscn", "stream_path": "res://nope.ogg"},
		sdk.CodeNotFound, "no resource at res://nope.ogg")
	plugintest.Refused(t, h, "add_player", map[string]any{"parent_path": ".", "scene": "res://music.tscn", "stream_path": "res://icon.webp"},
		sdk.CodeInvalidArgument, "Required: stream_path")
	// Destructive tools need confirm: the host's rule.
	if res := h.Call(context.Background(), "remove_bus", map[string]any{"bus": "Master"}); res.ErrorCode != sdk.CodePreconditionFailed || !strings.Contains(res.Text(), "confirm") {
		t.Errorf("remove_bus without confirm: %s", res.Text())
	}
	if b := readFile(t, dir, "default_bus_layout.tres"); !strings.HasSuffix(b, "bus/0/volume_db = -11.9576\n") {
		t.Errorf("a refusal wrote the layout:\n%s", b)
	}
}
