package gdscript

import (
	"strings"
	"testing"
)

func TestCheckGodot3Hint(t *testing.T) {
	tests := []struct {
		src, hint string
	}{
		{"extends Node\nexport var speed = 10\n", "use @export var"},
		{"extends Node\nexport(int, 0, 10) var hp = 5\n", "use @export var"},
		{"extends Node\nonready var l = $L\n", "use @onready var"},
		{"tool\nextends Node\n", "use @tool"},
		{"extends Node\nvar hp = 3 setget set_hp\n", "var x: set = _set_x, get = _get_x"},
		{"extends Node\nremote func hit():\n\tpass\n", "use @rpc func"},
		// A Godot 4 error gets no Godot 3 hint.
		{"extends Node\nvar = 3\n", ""},
	}
	for _, tt := range tests {
		err := Check(tt.src)
		if err == nil {
			t.Errorf("Check(%q) = nil, want a syntax error", tt.src)
			continue
		}
		if tt.hint == "" && err.Hint != "" || !strings.Contains(err.Hint, tt.hint) {
			t.Errorf("Check(%q).Hint = %q, want %q", tt.src, err.Hint, tt.hint)
		}
	}
}

func TestGodot3Warnings(t *testing.T) {
	src := "extends Node\n\nfunc _ready():\n\tyield(get_tree(), \"idle_frame\")\n\tawait get_tree().process_frame\n"
	if err := Check(src); err != nil {
		t.Fatalf("Check: %v (yield(...) parses in Godot 4)", err)
	}
	ws := Godot3(src)
	if len(ws) != 1 || ws[0].Line != 4 || ws[0].Column != 2 || ws[0].Godot4 != "await obj.signal" {
		t.Fatalf("Godot3 = %+v, want yield on line 4", ws)
	}
	if ws := Godot3("extends Node\n@export var speed := 10\n@onready var l = $L\n"); len(ws) != 0 {
		t.Errorf("Godot3 of Godot 4 code = %+v", ws)
	}
}
