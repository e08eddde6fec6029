package nodeedit_test

import (
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

// FuzzParseScript: the GDScript declaration scanner never panics.
func FuzzParseScript(f *testing.F) {
	f.Add("extends Node\nsignal a(x: int)\n@export var b: float = 1\n@onready var c := $C\nfunc d(e):\n\tpass\nstatic func f() -> void:\n\tpass\n")
	f.Fuzz(func(t *testing.T, src string) {
		si := nodeedit.ParseScript("res://x.gd", src)
		if si.Signals == nil || si.Funcs == nil || si.Vars == nil {
			t.Fatal("nil maps")
		}
	})
}
