package gdscript

import (
	"fmt"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

func names(t *testing.T, src string, globals ...string) []string {
	t.Helper()
	db, err := classdb.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	if e := Check(src); e != nil {
		t.Fatalf("does not parse: %d:%d %s", e.Line, e.Column, e.Message)
	}
	var out []string
	for _, e := range CheckNames(src, Names{DB: db, Globals: globals}) {
		out = append(out, fmt.Sprintf("%d:%d %s", e.Line, e.Column, e.Message))
	}
	return out
}

// The name checks catch typos of engine members and undeclared names on
// an engine base class, with the line and column Godot gives.
func TestCheckNamesCatchesTypos(t *testing.T) {
	src := "extends CharacterBody2D\n\nfunc _physics_process(delta: float) -> void:\n" +
		"\tvelocty.x = 0\n" +
		"\tmove_and_slid()\n" +
		"\tvar r = deg2rad(90)\n" +
		"\tvelocity.y += delta\n" +
		"\tmove_and_slide()\n"
	got := names(t, src)
	want := []string{
		`4:2 Identifier "velocty" not declared in the current scope.`,
		`5:2 Function "move_and_slid()" not found in base self.`,
		`6:10 Function "deg2rad()" not found in base self.`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Where the checker cannot be certain it says nothing.
func TestCheckNamesSaysNothingWhenUnsure(t *testing.T) {
	for name, src := range map[string]string{
		"a script base":       "extends \"res://base.gd\"\nfunc f():\n\tinherited_thing()\n",
		"a class_name base":   "extends MyBase\nfunc f():\n\tinherited_thing()\n",
		"an editor class":     "@tool\nextends EditorPlugin\nfunc f():\n\tadd_custom_type()\n\tnot_there()\n",
		"after a dot":         "extends Node\nfunc f(o):\n\to.whatever()\n\tself.whatever2\n",
		"capitals":            "extends Node\nfunc f():\n\tvar x = SomeGlobal.new()\n\tprint(SOME_CONST)\n",
		"declared anywhere":   "extends Node\nfunc a():\n\tvar later = 1\nfunc b():\n\tprint(later)\n",
		"lambda parameters":   "extends Node\nfunc f():\n\tvar g = func(a, b): return a + b\n\tg.call(1, 2)\n",
		"variadic parameters": "extends Node\nfunc f(first, ...rest: Array):\n\tprint(first, rest)\n",
		"setter parameter":    "extends Node\nvar hp: int:\n\tset(value):\n\t\thp = value\n",
		"enum values":         "extends Node\nenum {idle, run}\nfunc f():\n\tprint(idle, run)\n",
		"lua dictionary keys": "extends Node\nfunc f():\n\tvar d = {speed = 1, name = \"x\"}\n",
		"for variables":       "extends Node\nfunc f():\n\tfor item in [1]:\n\t\tprint(item)\n",
		"match bindings":      "extends Node\nfunc f(v):\n\tmatch v:\n\t\t[var head, ..]:\n\t\t\tprint(head)\n",
		"utility functions":   "extends Node\nfunc f():\n\tprint(lerp(1, 2, 0.5), clampi(3, 0, 1), len([]), range(3), is_instance_valid(self), str(1), typeof(1))\n",
		"base members":        "extends CharacterBody2D\nfunc f():\n\tvelocity = Vector2.ZERO\n\tmove_and_slide()\n\tget_tree().quit()\n\tvisibility_changed.emit()\n",
		"inner class bases":   "extends Node\nclass Inner extends Sprite2D:\n\tfunc f():\n\t\tcentered = true\n",
		"types":               "extends Node\nfunc f(a: int) -> float:\n\tvar b: bool = a is int\n\treturn float(a)\n",
		"project globals":     "extends Node\nfunc f():\n\tgame_state.score += 1\n",
	} {
		if got := names(t, src, "game_state"); len(got) > 0 {
			t.Errorf("%s: %v", name, got)
		}
	}
}

// Forms Godot 4.6 compiles that the parser once rejected (found in
// gdUnit4, see TestBuiltInNeverRejectsWhatGodotCompiles in plugins/scripts).
func TestParsesWhatGodotCompiles(t *testing.T) {
	for name, src := range map[string]string{
		"abstract functions":   "@abstract class_name A\nextends RefCounted\n\n@abstract func f() -> int\n@abstract\nfunc g() -> void\nfunc h():\n\tpass\n",
		"variadic functions":   "extends Node\nfunc f(a, ...args: Array) -> void:\n\tprint(a, args)\n",
		"inferred with a gap":  "extends Node\nvar x: = 1\nfunc f():\n\tvar y: = 2\n",
		"match as a name":      "extends Node\nfunc match(a):\n\treturn a\nfunc f(ms):\n\tfor match in ms:\n\t\tvar s = match.get_string()\n",
		"if after else colon":  "extends Node\nfunc f(a, b):\n\tif a:\n\t\tpass\n\telse: if b:\n\t\tprint(1)\n\telse:\n\t\tprint(2)\n",
		"comments in a \\ run": "extends Node\nfunc f(t):\n\tvar s := t\\\n\t\t.strip_edges()\\\n\t\t# a comment\n\t\t.to_lower()\n\treturn s\n",
	} {
		if e := Check(src); e != nil {
			t.Errorf("%s: %d:%d %s", name, e.Line, e.Column, e.Message)
		}
	}
}
