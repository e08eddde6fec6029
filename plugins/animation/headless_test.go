package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/projfixture"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func TestMain(m *testing.M) { enginecheck.Main(m, enginecheck.IgnoreLeaks) }

func headless(t testing.TB, dir string) *sdktest.Host {
	t.Helper()
	return sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
}

func read(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// section returns the text of the [sub_resource] (or other section) whose
// header line contains header, up to the next section.
func section(t *testing.T, src []byte, header string) string {
	t.Helper()
	s := string(src)
	i := strings.Index(s, header)
	if i < 0 {
		t.Fatalf("no section %q in\n%s", header, s)
	}
	i = strings.LastIndex(s[:i+1], "\n[") + 1
	j := strings.Index(s[i+1:], "\n[")
	if j < 0 {
		return s[i:]
	}
	return s[i : i+1+j]
}

// subByID returns the sub-resource section with id.
func subByID(t *testing.T, src []byte, id string) string {
	t.Helper()
	return section(t, src, `id="`+id+`"]`)
}

// animID finds the id of the Animation the default library of the player
// in the scene file maps name to.
func animID(t *testing.T, src []byte, lib, player, name string) string {
	t.Helper()
	f, err := godot.ParseFile("x.tscn", src)
	if err != nil {
		t.Fatal(err)
	}
	v, ok := f.Node(player).Get("libraries/" + lib)
	if !ok {
		t.Fatalf("player %s has no libraries/%s", player, lib)
	}
	l := f.SubResource(v.(godot.SubResource).ID)
	d, _ := l.Get("_data")
	a, ok := d.(godot.Dictionary).Lookup(name)
	if !ok {
		t.Fatalf("library %q has no %s", lib, name)
	}
	return a.(godot.SubResource).ID
}

// TestHeadlessPlayerAnimation edits the player of the 2d-platformer demo:
// a new animation with every kind of 2D track, keys out of order, a key
// replaced, a named library; checks the exact text, the reads, the
// refusals, that the engine loads the scene with every value, and that
// undo restores the file byte for byte.
func TestHeadlessPlayerAnimation(t *testing.T) {
	dir := plugintest.CorpusProject(t, "2d-platformer")
	h := headless(t, dir)
	scene := filepath.Join(dir, "player/player.tscn")
	orig := read(t, scene)
	at := func(args map[string]any) map[string]any {
		args["scene"] = "res://player/player.tscn"
		args["node_path"] = "AnimationPlayer"
		return args
	}

	ls := plugintest.Call(t, h, "list_animations", at(map[string]any{}))
	if got := ls["animations"].([]any); len(got) != 10 || got[0] != "crouch" || got[9] != "standing_weapon_ready" {
		t.Fatalf("list_animations = %v", ls)
	}
	idle := plugintest.Call(t, h, "get", at(map[string]any{"animation_name": "idle"}))
	tr := idle["tracks"].([]any)[0].(map[string]any)
	if tr["type"] != "value" || tr["path"] != "Sprite2D:frame" || tr["update_mode"] != "discrete" || len(tr["keys"].([]any)) == 0 {
		t.Fatalf("get idle = %v", idle)
	}

	cr := plugintest.Call(t, h, "create", at(map[string]any{"name": "wave", "length": 0.8, "loop_mode": "linear", "step": 0.1}))
	if cr["animation"] != "wave" || cr["library"] != "" || cr["library_created"] != false {
		t.Fatalf("create = %v", cr)
	}
	add := func(path, typ string) int {
		r := plugintest.Call(t, h, "add_track", at(map[string]any{"animation": "wave", "track_path": path, "track_type": typ}))
		return int(r["track"].(float64))
	}
	pos := add("Sprite2D:position", "value")
	alpha := add("Sprite2D:modulate:a", "value")
	method := add(".", "method")
	rot := add("Sprite2D:rotation", "bezier")
	sound := add("Jump", "audio")
	if pos != 0 || alpha != 1 || method != 2 || rot != 3 || sound != 4 {
		t.Fatalf("track indexes %d %d %d %d %d", pos, alpha, method, rot, sound)
	}
	key := func(track int, time float64, value any, extra ...any) map[string]any {
		args := at(map[string]any{"animation": "wave", "track": track, "time": time, "value": value})
		for i := 0; i+1 < len(extra); i += 2 {
			args[extra[i].(string)] = extra[i+1]
		}
		return plugintest.Call(t, h, "insert_keyframe", args)
	}
	key(pos, 0.4, []float64{10, 20.5})
	key(pos, 0, map[string]any{"x": 0, "y": 0})
	key(pos, 0.8, "Vector2(3, 4)", "easing", 0.5)
	r := key(pos, 0.8, []float64{30, 40}, "transition", 2.0)
	if r["replaced"] != true || r["key"].(float64) != 2 {
		t.Fatalf("replacing key = %v", r)
	}
	key(alpha, 0.2, 0.5)
	key(method, 0.3, map[string]any{"method": "set_physics_process", "args": []any{false}})
	key(rot, 0.5, map[string]any{"value": 1.5, "in_handle": []float64{-0.25, 0}, "out_handle": []float64{0.25, 0}})
	key(sound, 0.1, "res://player/jump.wav")

	src := read(t, scene)
	want := `[sub_resource type="Animation" id="` + animID(t, src, "", "AnimationPlayer", "wave") + `"]
resource_name = "wave"
length = 0.8
loop_mode = 1
step = 0.1
tracks/0/type = "value"
tracks/0/imported = false
tracks/0/enabled = true
tracks/0/path = NodePath("Sprite2D:position")
tracks/0/interp = 1
tracks/0/loop_wrap = true
tracks/0/keys = {
"times": PackedFloat32Array(0, 0.4, 0.8),
"transitions": PackedFloat32Array(1, 1, 2),
"update": 0,
"values": [Vector2(0, 0), Vector2(10, 20.5), Vector2(30, 40)]
}
tracks/1/type = "value"
tracks/1/imported = false
tracks/1/enabled = true
tracks/1/path = NodePath("Sprite2D:modulate:a")
tracks/1/interp = 1
tracks/1/loop_wrap = true
tracks/1/keys = {
"times": PackedFloat32Array(0.2),
"transitions": PackedFloat32Array(1),
"update": 0,
"values": [0.5]
}
tracks/2/type = "method"
tracks/2/imported = false
tracks/2/enabled = true
tracks/2/path = NodePath(".")
tracks/2/interp = 1
tracks/2/loop_wrap = true
tracks/2/keys = {
"times": PackedFloat32Array(0.3),
"transitions": PackedFloat32Array(1),
"values": [{
"args": [false],
"method": &"set_physics_process"
}]
}
tracks/3/type = "bezier"
tracks/3/imported = false
tracks/3/enabled = true
tracks/3/path = NodePath("Sprite2D:rotation")
tracks/3/interp = 1
tracks/3/loop_wrap = true
tracks/3/keys = {
"handle_modes": PackedInt32Array(0),
"points": PackedFloat32Array(1.5, -0.25, 0, 0.25, 0),
"times": PackedFloat32Array(0.5)
}
tracks/4/type = "audio"
tracks/4/imported = false
tracks/4/enabled = true
tracks/4/path = NodePath("Jump")
tracks/4/interp = 1
tracks/4/loop_wrap = true
tracks/4/keys = {
"clips": [{
"end_offset": 0.0,
"start_offset": 0.0,
"stream": ExtResource("5")
}],
"times": PackedFloat32Array(0.1)
}
tracks/4/use_blend = true
`
	if got := subByID(t, src, animID(t, src, "", "AnimationPlayer", "wave")); strings.TrimRight(got, "\n") != strings.TrimRight(want, "\n") {
		t.Fatalf("the new animation:\n%s\nwant:\n%s", got, want)
	}

	got := plugintest.Call(t, h, "get", at(map[string]any{"animation_name": "wave"}))
	if got["length"] != 0.8 || got["loop_mode"] != "linear" {
		t.Fatalf("get wave = %v", got)
	}
	keys := got["tracks"].([]any)[0].(map[string]any)["keys"].([]any)
	if k := keys[1].(map[string]any); k["value"].(map[string]any)["y"] != 20.5 || k["transition"] != 1.0 {
		t.Fatalf("get wave key 1 = %v", k)
	}

	// A named library, created on the way: libraries/extra after libraries/.
	cr = plugintest.Call(t, h, "create", at(map[string]any{"name": "spin", "library": "extra"}))
	if cr["animation"] != "extra/spin" || cr["library_created"] != true {
		t.Fatalf("create in a library = %v", cr)
	}
	plugintest.Call(t, h, "add_track", at(map[string]any{"animation": "extra/spin", "track_path": "Sprite2D:rotation"}))
	plugintest.Call(t, h, "insert_keyframe", at(map[string]any{"animation": "extra/spin", "track": 0, "time": 1, "value": 3.14159}))
	src = read(t, scene)
	if !bytes.Contains(src, []byte("libraries/ = SubResource(\"AnimationLibrary_jnr5f\")\nlibraries/extra = SubResource(")) {
		t.Fatalf("libraries/extra is not written after libraries/:\n%s", section(t, src, `name="AnimationPlayer"`))
	}
	if !bytes.Contains(src, []byte(`"values": [3.14159]`)) {
		t.Fatal("a rotation key is not written as the float32 the engine holds")
	}
	ls = plugintest.Call(t, h, "list_animations", at(map[string]any{}))
	if l := ls["animations"].([]any); len(l) != 12 || l[0] != "crouch" || l[1] != "extra/spin" {
		t.Fatalf("list_animations = %v", l)
	}

	// Refusals, with the code and the fix.
	for _, c := range []struct {
		tool string
		args map[string]any
		code string
		text string
	}{
		{"add_track", map[string]any{"animation": "wave", "track_path": "Sprite2D:postion"}, sdk.CodeInvalidArgument, `"position"`},
		{"add_track", map[string]any{"animation": "wave", "track_path": "Nope:position"}, sdk.CodeNotFound, "no node Nope"},
		{"add_track", map[string]any{"animation": "wave", "track_path": "Sprite2D", "track_type": "position_3d"}, sdk.CodeInvalidArgument, "Node3D"},
		{"add_track", map[string]any{"animation": "wave", "track_path": "Sprite2D:position", "track_type": "bezier"}, sdk.CodeInvalidArgument, "one component"},
		{"add_track", map[string]any{"animation": "wave", "track_path": "Sprite2D", "track_type": "audio"}, sdk.CodeInvalidArgument, "not an audio player"},
		{"add_track", map[string]any{"animation": "nope", "track_path": "Sprite2D:position"}, sdk.CodeNotFound, "No animation 'nope'"},
		{"insert_keyframe", map[string]any{"animation": "wave", "track": 9, "time": 0, "value": 1}, sdk.CodeInvalidArgument, "out of range"},
		{"insert_keyframe", map[string]any{"animation": "wave", "track": 0, "time": 0, "value": []float64{1, 2, 3}}, sdk.CodeInvalidArgument, "position"},
		{"insert_keyframe", map[string]any{"animation": "wave", "track": 2, "time": 0, "value": map[string]any{"method": "no_such_method"}}, sdk.CodeInvalidArgument, "no method"},
		{"add_track", map[string]any{"animation": "wave", "track_path": ".:no_such_var"}, sdk.CodeInvalidArgument, "no property"},
		{"create", map[string]any{"name": "wave"}, sdk.CodeInvalidArgument, "already exists"},
		{"create", map[string]any{"name": "a:b"}, sdk.CodeInvalidArgument, "does not allow"},
		{"list_animations", map[string]any{"node_path": "Sprite2D"}, sdk.CodeInvalidArgument, "not an AnimationPlayer"},
	} {
		p, own := c.args["node_path"]
		args := at(c.args)
		if own {
			args["node_path"] = p
		}
		plugintest.Refused(t, h, c.tool, args, c.code, c.text)
	}

	// The engine loads the edited scene with every value, and the file
	// reads back unchanged.
	projfixture.Roundtrip(t, dir, "player/player.tscn")
	enginecheck.Project(t, dir)

	hist := h.Workspace().History()
	if _, err := h.Workspace().Undo(context.Background(), hist.Depth, false); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(read(t, scene), orig) {
		t.Fatal("undoing every call did not restore the scene byte for byte")
	}
}

// TestHeadlessStandaloneTres creates and edits an Animation saved as its
// own .tres, then links one from a player's library.
func TestHeadlessStandaloneTres(t *testing.T) {
	dir := plugintest.CorpusProject(t, "2d-platformer")
	h := headless(t, dir)
	plugintest.Call(t, h, "create", map[string]any{"name": "bob", "resource_path": "res://anims/bob.tres", "length": 2})
	plugintest.Call(t, h, "add_track", map[string]any{"resource_path": "res://anims/bob.tres", "track_path": "Sprite2D:position"})
	plugintest.Call(t, h, "insert_keyframe", map[string]any{"resource_path": "res://anims/bob.tres", "track": 0, "time": 1, "value": "Vector2(0, -8)"})
	plugintest.Call(t, h, "insert_keyframe", map[string]any{"resource_path": "res://anims/bob.tres", "track": 0, "time": 0, "value": []float64{0, 0}})
	src := string(read(t, filepath.Join(dir, "anims/bob.tres")))
	if !strings.HasPrefix(src, `[gd_resource type="Animation" format=3 uid="uid://`) ||
		!strings.Contains(src, "[resource]\nlength = 2.0\ntracks/0/type = \"value\"") ||
		!strings.Contains(src, `"values": [Vector2(0, 0), Vector2(0, -8)]`) {
		t.Fatalf("bob.tres:\n%s", src)
	}
	g := plugintest.Call(t, h, "get", map[string]any{"resource_path": "res://anims/bob.tres"})
	if g["name"] != "bob" || len(g["tracks"].([]any)) != 1 {
		t.Fatalf("get = %v", g)
	}
	// Linked from the player's default library as an ext_resource; its
	// edits then go to the .tres.
	plugintest.Call(t, h, "create", map[string]any{"name": "hop", "resource_path": "res://anims/hop.tres", "node_path": "AnimationPlayer", "scene": "res://player/player.tscn"})
	plugintest.Call(t, h, "add_track", map[string]any{"animation": "hop", "node_path": "AnimationPlayer", "scene": "res://player/player.tscn", "track_path": "Sprite2D:visible"})
	plugintest.Call(t, h, "insert_keyframe", map[string]any{"animation": "hop", "node_path": "AnimationPlayer", "scene": "res://player/player.tscn", "track": 0, "time": 0.5, "value": false})
	scene := string(read(t, filepath.Join(dir, "player/player.tscn")))
	if !strings.Contains(scene, `[ext_resource type="Animation" uid="uid://`) || !strings.Contains(scene, `&"hop": ExtResource(`) {
		t.Fatalf("the player does not refer to hop.tres:\n%s", scene)
	}
	if hop := string(read(t, filepath.Join(dir, "anims/hop.tres"))); !strings.Contains(hop, `"values": [false]`) {
		t.Fatalf("hop.tres:\n%s", hop)
	}
	enginecheck.Project(t, dir)
}
