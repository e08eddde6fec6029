package godot

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestProjectSettings(t *testing.T) {
	src := string(readFixture(t, "2d-dodge_the_creeps/project.godot"))
	p := mustParseProject(t, src)
	if v, _ := p.Setting("config_version"); !Equal(v, Int(5)) {
		t.Errorf("config_version = %v", v)
	}
	if v, _ := p.Setting("application/config/name"); !Equal(v, String("Dodge the Creeps")) {
		t.Errorf("name = %v", v)
	}
	if v, _ := p.Setting("application/config/description"); !strings.Contains(string(v.(String)), "\nand avoid the enemies") {
		t.Errorf("multi-line description = %q", v)
	}
	if v, _ := p.Setting("rendering/renderer/rendering_method.mobile"); !Equal(v, String("gl_compatibility")) {
		t.Errorf("feature override = %v", v)
	}
	if p.Version() != "4.7" {
		t.Errorf("Version() = %q", p.Version())
	}
	if sections := p.Sections(); !slices.Equal(sections, []string{"", "application", "display", "input", "rendering"}) {
		t.Errorf("sections = %v", sections)
	}

	// Changing a value touches exactly its line.
	p.SetSetting("display/window/size/viewport_width", Int(640))
	removed, added := diffLines(src, string(p.Bytes()))
	if !slices.Equal(removed, []string{"window/size/viewport_width=480\n"}) || !slices.Equal(added, []string{"window/size/viewport_width=640\n"}) {
		t.Fatalf("removed %q, added %q", removed, added)
	}

	// A new key in an existing section is appended to it.
	p = mustParseProject(t, src)
	p.SetSetting("display/window/stretch/aspect", String("expand"))
	removed, added = diffLines(src, string(p.Bytes()))
	if len(removed) != 0 || !slices.Equal(added, []string{"window/stretch/aspect=\"expand\"\n"}) {
		t.Fatalf("removed %q, added %q", removed, added)
	}
	if !strings.Contains(string(p.Bytes()), "window/stretch/mode=\"canvas_items\"\nwindow/stretch/aspect=\"expand\"\n\n[input]") {
		t.Fatal("new key not at the end of [display]")
	}

	// A new section goes in alphabetical order: [debug] between
	// [application] and [display], [physics] between [input] and [rendering].
	p = mustParseProject(t, src)
	p.SetSetting("debug/gdscript/warnings/untyped_declaration", Int(1))
	p.SetSetting("physics/common/physics_ticks_per_second", Int(120))
	out := string(p.Bytes())
	if !strings.Contains(out, "config/icon=\"res://icon.webp\"\n\n[debug]\n\ngdscript/warnings/untyped_declaration=1\n\n[display]\n") {
		t.Fatalf("[debug] misplaced:\n%s", out)
	}
	if !strings.Contains(out, "]\n}\n\n[physics]\n\ncommon/physics_ticks_per_second=120\n\n[rendering]\n") {
		t.Fatalf("[physics] misplaced:\n%s", out)
	}
	if removed, _ := diffLines(src, out); len(removed) != 0 {
		t.Fatalf("removed %q", removed)
	}
	mustParseProject(t, out)

	// Clearing the only key of a section removes the section.
	if !p.ClearSetting("physics/common/physics_ticks_per_second") || !p.ClearSetting("debug/gdscript/warnings/untyped_declaration") {
		t.Fatal("ClearSetting did not find the key")
	}
	if got := string(p.Bytes()); got != src {
		t.Fatalf("not back to the original:\n%s", got)
	}
	if p.ClearSetting("nope/x") {
		t.Fatal("cleared a missing setting")
	}
}

func TestProjectVersion(t *testing.T) {
	p := mustParseProject(t, "config_version=5\n\n[application]\n\nconfig/features=PackedStringArray(\"4.5\", \"Forward Plus\")\n")
	if p.Version() != "4.5" {
		t.Errorf("Version() = %q", p.Version())
	}
	p.SetVersion("4.7")
	if !slices.Equal(p.Features(), []string{"4.7", "Forward Plus"}) {
		t.Errorf("features = %v", p.Features())
	}
	if !strings.Contains(string(p.Bytes()), "config/features=PackedStringArray(\"4.7\", \"Forward Plus\")\n") {
		t.Errorf("got\n%s", p.Bytes())
	}
	for _, tt := range []struct{ features, want string }{
		{`PackedStringArray("C#", "4.10.1", "Mobile")`, "4.10"},
		{`PackedStringArray("Forward Plus")`, ""},
		{`PackedStringArray("4.", "4.3")`, "4.3"},
	} {
		p := mustParseProject(t, "[application]\nconfig/features="+tt.features+"\n")
		if got := p.Version(); got != tt.want {
			t.Errorf("%s: Version() = %q, want %q", tt.features, got, tt.want)
		}
	}
	if got := mustParseProject(t, "").Version(); got != "" {
		t.Errorf("empty project: %q", got)
	}
}

func TestInputActions(t *testing.T) {
	src := string(readFixture(t, "2d-dodge_the_creeps/project.godot"))
	p := mustParseProject(t, src)
	actions := p.InputActions()
	var names []string
	for _, a := range actions {
		names = append(names, a.Name)
	}
	if !slices.Equal(names, []string{"move_left", "move_right", "move_up", "move_down", "start_game"}) {
		t.Fatalf("actions = %v", names)
	}
	left, _ := p.InputAction("move_left")
	if left.Deadzone != 0.2 || len(left.Events) != 4 || left.Events[0].Class != "InputEventKey" {
		t.Fatalf("move_left = %+v", left)
	}
	if v, _ := left.Events[1].Get("physical_keycode"); !Equal(v, Int(KeyLeft)) {
		t.Errorf("physical_keycode = %v", v)
	}

	// Re-setting an action to what it is leaves the file untouched.
	if err := p.SetInputAction(left); err != nil {
		t.Fatal(err)
	}
	if string(p.Bytes()) != src {
		t.Fatal("re-setting an unchanged action rewrote it")
	}

	// A new action is written in the editor's exact layout.
	if err := p.AddInputEvent("jump", InputEventKey{PhysicalKeycode: 32}); err != nil {
		t.Fatal(err)
	}
	if err := p.AddInputEvent("jump", InputEventJoypadButton{ButtonIndex: 0}); err != nil {
		t.Fatal(err)
	}
	want := `jump={
"deadzone": 0.2,
"events": [Object(InputEventKey,"resource_local_to_scene":false,"resource_name":"","device":0,"window_id":0,"alt_pressed":false,"shift_pressed":false,"ctrl_pressed":false,"meta_pressed":false,"pressed":false,"keycode":0,"physical_keycode":32,"key_label":0,"unicode":0,"location":0,"echo":false,"script":null)
, Object(InputEventJoypadButton,"resource_local_to_scene":false,"resource_name":"","device":0,"button_index":0,"pressure":0.0,"pressed":false,"script":null)
]
}
`
	out := string(p.Bytes())
	removed, added := diffLines(src, out)
	if len(removed) != 0 || strings.Join(added, "") != want {
		t.Fatalf("removed %q\nadded:\n%s", removed, strings.Join(added, ""))
	}
	if !strings.Contains(out, "\"script\":null)\n]\n}\njump={\n") {
		t.Fatal("new action not appended to [input]")
	}
	// Events built here match the ones the editor saved, byte for byte.
	for _, tt := range []struct {
		ev   InputEvent
		want string
	}{
		{InputEventJoypadMotion{Axis: 0, AxisValue: -1}, `Object(InputEventJoypadMotion,"resource_local_to_scene":false,"resource_name":"","device":0,"axis":0,"axis_value":-1.0,"script":null)` + "\n"},
		{InputEventKey{PhysicalKeycode: 65}, FormatValue(left.Events[0])},
		{InputEventMouseButton{Device: -1, ButtonIndex: 2}, `Object(InputEventMouseButton,"resource_local_to_scene":false,"resource_name":"","device":-1,"window_id":0,"alt_pressed":false,"shift_pressed":false,"ctrl_pressed":false,"meta_pressed":false,"button_mask":0,"position":Vector2(0, 0),"global_position":Vector2(0, 0),"factor":1.0,"button_index":2,"canceled":false,"pressed":false,"double_click":false,"script":null)` + "\n"},
	} {
		if got := FormatValue(tt.ev.ToObject()); got != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
	}

	if !p.RemoveInputAction("jump") || p.RemoveInputAction("jump") {
		t.Fatal("RemoveInputAction")
	}
	if string(p.Bytes()) != src {
		t.Fatal("not back to the original after removing the new action")
	}
	if err := p.SetInputAction(InputAction{}); !errors.Is(err, ErrInvalid) {
		t.Errorf("empty action name: %v", err)
	}
	// An action without a deadzone reports NaN, and SetInputAction fills in
	// the default.
	q := mustParseProject(t, "[input]\n\nfire={\n\"events\": []\n}\n")
	a, ok := q.InputAction("fire")
	if !ok || !math.IsNaN(a.Deadzone) {
		t.Fatalf("fire = %+v", a)
	}
}

// Input actions of every corpus project read back and re-render to the
// exact bytes the editor wrote.
func TestCorpusInputActions(t *testing.T) {
	n := 0
	for _, c := range loadCorpus(t) {
		if !c.isConfig() {
			continue
		}
		p := mustParseProject(t, string(c.data))
		for _, a := range p.InputActions() {
			if err := p.SetInputAction(a); err != nil {
				t.Fatal(err)
			}
			n++
		}
		if string(p.Bytes()) != string(c.data) {
			t.Errorf("%s: re-setting every action changed the file:\n%s", c.rel, firstDiff(c.data, p.Bytes()))
		}
	}
	if n == 0 {
		t.Fatal("no input actions in the corpus")
	}
	t.Logf("%d actions", n)
}

func TestConfigFile(t *testing.T) {
	src := "; comment\n\nlead=1\n\n[b]\n\nx=1\n\n[a]\n\ny=2\n\n[b]\n\nx=3\n"
	c, err := ParseConfig("x.cfg", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := c.Get("b", "x"); !Equal(v, Int(3)) {
		t.Errorf("duplicate key: got %v, want the later 3", v)
	}
	if got := c.Sections(); !slices.Equal(got, []string{"", "b", "a"}) {
		t.Errorf("sections = %v", got)
	}
	// Plain ConfigFiles append new sections at the end.
	c.Set("c", "z", Bool(true))
	if !strings.HasSuffix(string(c.Bytes()), "x=3\n\n[c]\n\nz=true\n") {
		t.Fatalf("got\n%s", c.Bytes())
	}
	if !c.RemoveSection("c") || string(c.Bytes()) != src {
		t.Fatalf("RemoveSection did not restore the file:\n%s", c.Bytes())
	}
	// Keys before any section.
	d, _ := ParseConfig("x.cfg", []byte("; header\n\n[s]\n\nk=1\n"))
	d.Set("", "top", Int(5))
	if got := string(d.Bytes()); got != "; header\n\ntop=5\n\n[s]\n\nk=1\n" {
		t.Fatalf("got %q", got)
	}
	// Section names with escaped brackets, quoted keys.
	e, err := ParseConfig("x.cfg", []byte("[a\\]b]\n\"key with space\"=1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := e.Get("a]b", "key with space"); !Equal(v, Int(1)) {
		t.Fatalf("got %v (sections %v)", v, e.Sections())
	}
	e.Set("new]section", "k", Int(1))
	e.Set("a]b", "other key", Int(2))
	if got := string(e.Bytes()); !strings.Contains(got, "[new\\]section]") || !strings.Contains(got, "\"other key\"=2") {
		t.Fatalf("got %q", got)
	}
	if _, err := ParseConfig("x.cfg", e.Bytes()); err != nil {
		t.Fatal(err)
	}
}
