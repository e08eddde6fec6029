package renames

import (
	"strings"
	"testing"
)

func TestLookups(t *testing.T) {
	tests := []struct {
		name   string
		lookup func(string) (Rename, bool)
		old    string
		want   string
	}{
		{"class", Class, "KinematicBody2D", "CharacterBody2D"},
		{"class 3D", Class, "Spatial", "Node3D"},
		{"class fold", ClassFold, "kinematicbody2d", "CharacterBody2D"},
		{"method", Method, "instance", "instantiate"},
		{"signal", Signal, "text_entered", "text_submitted"},
		{"constant", Constant, "PAUSE_MODE_PROCESS", "PROCESS_MODE_ALWAYS"},
		{"setting", Setting, "physics/common/physics_fps", "physics/common/physics_ticks_per_second"},
		{"Godot 4 name", Class, "CharacterBody2D", ""},
		{"unknown", Class, "NoSuchThing", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, ok := tt.lookup(tt.old)
			if ok != (tt.want != "") || r.New != tt.want {
				t.Fatalf("%s(%q) = %+v, %v; want %q", tt.name, tt.old, r, ok, tt.want)
			}
		})
	}
}

func TestProperty(t *testing.T) {
	tests := []struct {
		old  string
		want []string
	}{
		{"extents", []string{"size"}},
		{"pause_mode", []string{"process_mode"}},
		{"rect_rotation", []string{"rotation", "rotation_degrees"}},
		{"position", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, r := range Property(tt.old) {
			got = append(got, r.New)
		}
		if strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("Property(%q) = %v, want %v", tt.old, got, tt.want)
		}
	}
}

func TestMessage(t *testing.T) {
	r, _ := Class("KinematicBody2D")
	if got, want := r.Message(), "KinematicBody2D is the Godot 3 name; in Godot 4 it is CharacterBody2D"; got != want {
		t.Errorf("Message() = %q, want %q", got, want)
	}
}

func TestSyntax(t *testing.T) {
	tests := []struct {
		line string
		want string // the Godot 4 construct, "" for none
		col  int
	}{
		{"export var speed = 10", "@export var", 1},
		{"export(int, 0, 10) var hp = 5", "@export var", 1},
		{"\tonready var label = $Label", "@onready var", 2},
		{"tool", "@tool", 1},
		{"\tyield(get_tree(), \"idle_frame\")", "await obj.signal", 2},
		{"var hp = 3 setget set_hp", "var x: set = _set_x, get = _get_x", 12},
		{"remote func hit():", "@rpc func", 1},
		{"\tbutton.connect(\"pressed\", self, \"_on_pressed\")", "signal_name.connect(method)", 8},
		{"@export var speed = 10", "", 0},
		{"@onready var label = $Label", "", 0},
		{"\tawait get_tree().process_frame", "", 0},
		{"# export var in a comment", "", 0},
		{"var tool = 1", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			fs := Syntax(tt.line)
			if tt.want == "" {
				if len(fs) != 0 {
					t.Fatalf("Syntax(%q) = %+v, want none", tt.line, fs)
				}
				return
			}
			if len(fs) != 1 || fs[0].New != tt.want || fs[0].Column != tt.col || fs[0].Line != 1 {
				t.Fatalf("Syntax(%q) = %+v, want %q at column %d", tt.line, fs, tt.want, tt.col)
			}
		})
	}
}

func TestSyntaxAt(t *testing.T) {
	src := "extends Node\n\nexport var speed = 10\n"
	f, ok := SyntaxAt(src, 3)
	if !ok || f.Line != 3 || f.New != "@export var" {
		t.Fatalf("SyntaxAt(line 3) = %+v, %v", f, ok)
	}
	if _, ok := SyntaxAt(src, 1); ok {
		t.Fatal("SyntaxAt(line 1) found Godot 3 syntax in `extends Node`")
	}
	if _, ok := SyntaxAt(src, 99); ok {
		t.Fatal("SyntaxAt(line 99) found something past the end")
	}
}

// TestTableWellFormed keeps the table free of no-op and duplicate renames.
func TestTableWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range All() {
		if r.Old == r.New {
			t.Errorf("%s rename %q maps to itself", r.Kind, r.Old)
		}
		key := string(r.Kind) + " " + r.Old + " " + r.New
		if seen[key] {
			t.Errorf("duplicate %s rename %q -> %q", r.Kind, r.Old, r.New)
		}
		seen[key] = true
	}
}
