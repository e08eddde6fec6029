package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// The engine is the oracle. TestEngineAgrees builds a scene with the
// tools, headless, and then has Godot 4.6 (the web runtime):
//
//  1. build the same Animation with its own API and save it with
//     ResourceSaver: the text must be ours, line for line;
//  2. load our scene, play each animation and seek it to a time: the
//     animated property must hold the keyed (or interpolated) value;
//  3. run our state machine (Start -> idle automatically, idle -> walk on
//     a condition) and our blend tree.

const engineProject = `config_version=5

[application]

config/name="anim"
config/features=PackedStringArray("4.6")
`

const engineScene = `[gd_scene format=3]

[node name="Root" type="Node2D"]

[node name="Sprite2D" type="Sprite2D" parent="."]
hframes = 2

[node name="Mesh" type="Node3D" parent="."]

[node name="Sfx" type="AudioStreamPlayer" parent="."]

[node name="AnimationPlayer" type="AnimationPlayer" parent="."]

[node name="Other" type="AnimationPlayer" parent="."]
`

// oracleScript builds the "walk" animation the test builds with the tools,
// saves it, and prints the file.
const oracleScript = `
	var a := Animation.new()
	a.resource_name = "walk"
	a.length = 2.0
	a.loop_mode = Animation.LOOP_LINEAR
	a.step = 0.05
	var t0 := a.add_track(Animation.TYPE_VALUE)
	a.track_set_path(t0, "Sprite2D:position")
	a.track_insert_key(t0, 0.0, Vector2(0, 0))
	a.track_insert_key(t0, 1.5, Vector2(100, 20.5), 0.5)
	a.track_insert_key(t0, 0.3, Vector2(3, 4))
	var t1 := a.add_track(Animation.TYPE_POSITION_3D)
	a.track_set_path(t1, "Mesh")
	a.position_track_insert_key(t1, 0.0, Vector3(1, 2, 3))
	a.position_track_insert_key(t1, 1.0, Vector3(4, 5, 6))
	var t2 := a.add_track(Animation.TYPE_ROTATION_3D)
	a.track_set_path(t2, "Mesh")
	a.rotation_track_insert_key(t2, 0.5, Quaternion(0, 0.707107, 0, 0.707107))
	var t3 := a.add_track(Animation.TYPE_SCALE_3D)
	a.track_set_path(t3, "Mesh")
	a.scale_track_insert_key(t3, 0.0, Vector3(2, 2, 2))
	var t4 := a.add_track(Animation.TYPE_METHOD)
	a.track_set_path(t4, ".")
	a.track_insert_key(t4, 0.5, {"method": "set_process", "args": [true]})
	var t5 := a.add_track(Animation.TYPE_BEZIER)
	a.track_set_path(t5, "Sprite2D:rotation")
	a.bezier_track_insert_key(t5, 0.0, 1.0)
	a.bezier_track_insert_key(t5, 1.0, 2.0, Vector2(-0.25, 0), Vector2(0.25, 0))
	var t6 := a.add_track(Animation.TYPE_AUDIO)
	a.track_set_path(t6, "Sfx")
	a.audio_track_insert_key(t6, 0.0, null)
	var t7 := a.add_track(Animation.TYPE_ANIMATION)
	a.track_set_path(t7, "Other")
	a.animation_track_insert_key(t7, 0.0, "idle")
	var t8 := a.add_track(Animation.TYPE_VALUE)
	a.track_set_path(t8, "Sprite2D:frame")
	a.value_track_set_update_mode(t8, Animation.UPDATE_DISCRETE)
	a.track_insert_key(t8, 0.0, 1)
	ResourceSaver.save(a, "user://walk.tres")
	print("ORACLE-BEGIN")
	print(FileAccess.get_file_as_string("user://walk.tres"))
	print("ORACLE-END")
`

// seekScript plays our scene's animations and trees and prints what the
// engine computes.
const seekScript = `
	var s: Node = load("res://anim.tscn").instantiate()
	add_child(s)
	var sm: AnimationTree = s.get_node("Machine")
	var bt: AnimationTree = s.get_node("Blend")
	sm.active = false
	bt.active = false
	var ap: AnimationPlayer = s.get_node("AnimationPlayer")
	var spr: Sprite2D = s.get_node("Sprite2D")
	var mesh: Node3D = s.get_node("Mesh")
	print("LIST ", ap.get_animation_list())
	ap.play("walk")
	for t in [0.0, 0.3, 0.75, 1.5]:
		ap.seek(t, true)
		print("POS %.2f %.4f %.4f" % [t, spr.position.x, spr.position.y])
	ap.seek(0.5, true)
	print("MESH %.4f %.4f %.4f" % [mesh.position.x, mesh.position.y, mesh.position.z])
	print("SCALE %.4f" % mesh.scale.x)
	ap.seek(1.0, true)
	print("ROT %.4f" % spr.rotation)
	print("FRAME %d" % spr.frame)
	print("LOOP %d" % ap.get_animation("walk").loop_mode)
	ap.play("moves/jump")
	ap.seek(0.2, true)
	print("VISIBLE %s" % spr.visible)
	ap.stop()
	spr.visible = true
	sm.active = true
	for i in 4:
		await get_tree().process_frame
	var pb: AnimationNodeStateMachinePlayback = sm.get("parameters/playback")
	print("STATE ", pb.get_current_node())
	sm.set("parameters/conditions/moving", true)
	for i in 4:
		await get_tree().process_frame
	print("STATE ", pb.get_current_node())
	sm.active = false
	bt.active = true
	bt.callback_mode_process = AnimationMixer.ANIMATION_CALLBACK_MODE_PROCESS_MANUAL
	bt.advance(0.0)
	bt.advance(0.75)
	print("BLEND %.4f %.4f" % [spr.position.x, spr.position.y])
`

func TestEngineAgrees(t *testing.T) {
	dir := plugintest.Project(t, map[string]string{"project.godot": engineProject, "anim.tscn": engineScene})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	call := func(tool string, args map[string]any) map[string]any {
		args["scene"] = "res://anim.tscn"
		if _, ok := args["node_path"]; !ok && !strings.Contains(tool, "state") && tool != "set_blend_tree_node" && tool != "create_tree" {
			args["node_path"] = "AnimationPlayer"
		}
		return plugintest.Call(t, h, tool, args)
	}
	call("create", map[string]any{"name": "idle"})
	call("create", map[string]any{"name": "walk", "length": 2, "loop_mode": "linear", "step": 0.05})
	track := func(path, typ string, extra ...any) int {
		args := map[string]any{"animation": "walk", "track_path": path, "track_type": typ}
		for i := 0; i+1 < len(extra); i += 2 {
			args[extra[i].(string)] = extra[i+1]
		}
		return int(call("add_track", args)["track"].(float64))
	}
	key := func(tr int, at float64, v any, extra ...any) {
		args := map[string]any{"animation": "walk", "track": tr, "time": at, "value": v}
		for i := 0; i+1 < len(extra); i += 2 {
			args[extra[i].(string)] = extra[i+1]
		}
		call("insert_keyframe", args)
	}
	pos := track("Sprite2D:position", "value")
	key(pos, 0, []float64{0, 0})
	key(pos, 1.5, map[string]any{"x": 100, "y": 20.5}, "easing", 0.5)
	key(pos, 0.3, "Vector2(3, 4)")
	p3 := track("Mesh", "position_3d")
	key(p3, 0, []float64{1, 2, 3})
	key(p3, 1, []float64{4, 5, 6})
	r3 := track("Mesh", "rotation_3d")
	key(r3, 0.5, []float64{0, 0.707107, 0, 0.707107})
	s3 := track("Mesh", "scale_3d")
	key(s3, 0, []float64{2, 2, 2})
	m := track(".", "method")
	key(m, 0.5, map[string]any{"method": "set_process", "args": []any{true}})
	bz := track("Sprite2D:rotation", "bezier")
	key(bz, 0, 1.0)
	key(bz, 1, map[string]any{"value": 2.0, "in_handle": []float64{-0.25, 0}, "out_handle": []float64{0.25, 0}})
	au := track("Sfx", "audio")
	key(au, 0, nil)
	call("create", map[string]any{"name": "idle", "node_path": "Other"})
	an := track("Other", "animation")
	key(an, 0, "idle")
	fr := track("Sprite2D:frame", "value", "update_mode", "discrete")
	key(fr, 0, 1)

	call("create", map[string]any{"name": "jump", "library": "moves"})
	call("add_track", map[string]any{"animation": "moves/jump", "track_path": "Sprite2D:visible"})
	call("insert_keyframe", map[string]any{"animation": "moves/jump", "track": 0, "time": 0, "value": false})

	call("create_tree", map[string]any{"parent_path": ".", "name": "Machine", "anim_player": "../AnimationPlayer"})
	call("add_state_machine_state", map[string]any{"tree_path": "Machine", "state_name": "idle", "animation": "idle"})
	call("add_state_machine_state", map[string]any{"tree_path": "Machine", "state_name": "walk", "animation": "walk"})
	call("add_state_machine_transition", map[string]any{"tree_path": "Machine", "from": "Start", "to": "idle"})
	call("add_state_machine_transition", map[string]any{"tree_path": "Machine", "from": "idle", "to": "walk", "advance_mode": "auto", "advance_condition": "moving"})
	call("create_tree", map[string]any{"parent_path": ".", "name": "Blend", "anim_player": "../AnimationPlayer", "root_type": "AnimationNodeBlendTree"})
	call("set_blend_tree_node", map[string]any{"tree_path": "Blend", "node_name": "walk", "node_type": "AnimationNodeAnimation", "animation": "walk", "connect_to": "output"})
	call("set_blend_tree_node", map[string]any{"tree_path": "Blend", "node_name": "speed", "node_type": "AnimationNodeTimeScale"})

	ours, err := os.ReadFile(filepath.Join(dir, "anim.tscn"))
	if err != nil {
		t.Fatal(err)
	}
	enginecheck.Files(t, map[string][]byte{"project.godot": []byte(engineProject), "anim.tscn": ours})

	files := webgodot.ScriptProject("extends Node\nfunc _ready():\n" + oracleScript + seekScript + "\tget_tree().quit()\n")
	files = append(files, webgodot.PackFile{Path: "anim.tscn", Data: ours})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := enginecheck.Runner(t).Run(ctx, files)
	if err != nil {
		t.Fatal(err)
	}
	out := strings.Join(res.Stdout(), "\n")
	if errs := res.Stderr(); len(errs) > 0 {
		t.Logf("engine stderr:\n%s", strings.Join(errs, "\n"))
	}

	// 1. The engine's text of the same animation is ours. The web runtime
	// is an export build: the editor additionally saves a bezier track's
	// handle_modes, which we write (the editor's form) and drop here.
	b, e := strings.Index(out, "ORACLE-BEGIN\n"), strings.Index(out, "ORACLE-END")
	if b < 0 || e < 0 {
		t.Fatalf("no oracle output:\n%s", out)
	}
	engine := strings.TrimSpace(out[b+len("ORACLE-BEGIN\n") : e])
	engine = strings.TrimSpace(engine[strings.Index(engine, "[resource]\n")+len("[resource]\n"):])
	sub := section(t, ours, `resource_name = "walk"`)
	sub = strings.TrimSpace(sub[strings.Index(sub, "\n")+1:])
	sub = strings.Replace(sub, "\"handle_modes\": PackedInt32Array(0, 0),\n", "", 1)
	if sub != engine {
		t.Errorf("our walk animation:\n%s\n\nthe engine's:\n%s", sub, engine)
	}

	// 2 and 3: what the engine computes from our files.
	for _, want := range []string{
		`LIST ["idle", "moves/jump", "walk"]`,
		"POS 0.00 0.0000 0.0000",
		"POS 0.30 3.0000 4.0000",
		"POS 0.75 39.3750 10.1875", // linear from (3, 4) at 0.3 to (100, 20.5) at 1.5
		"POS 1.50 100.0000 20.5000",
		"MESH 2.5000 3.5000 4.5000",
		"SCALE 2.0000",
		"ROT 2.0000",
		"FRAME 1",
		"LOOP 1",
		"VISIBLE false",
		"STATE idle\n",
		"STATE walk",
		"BLEND 39.3750 10.1875",
	} {
		if !strings.Contains(out+"\n", want) {
			t.Errorf("the engine did not print %q:\n%s", want, out)
		}
	}
}
