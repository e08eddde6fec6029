package classdb

import (
	"errors"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/godot/renames"
)

func TestValidNodeTypeGodot3(t *testing.T) {
	db := MustEmbedded()
	tests := []struct {
		name, want string
	}{
		{"KinematicBody2D", "KinematicBody2D is the Godot 3 name; in Godot 4 it is CharacterBody2D"},
		{"Spatial", "Spatial is the Godot 3 name; in Godot 4 it is Node3D"},
		{"Position2D", "Position2D is the Godot 3 name; in Godot 4 it is Marker2D"},
		{"Sprite2d", `did you mean "Sprite2D"?`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := db.ValidNodeType(tt.name)
			if !errors.Is(err, ErrUnknownClass) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("ValidNodeType(%q) = %v, want ErrUnknownClass containing %q", tt.name, err, tt.want)
			}
		})
	}
}

func TestPropertyHint(t *testing.T) {
	db := MustEmbedded()
	tests := []struct {
		class, prop, want string
	}{
		{"RectangleShape2D", "extents", "extents is the Godot 3 name; in Godot 4 it is size"},
		{"BoxShape3D", "extents", "in Godot 4 it is size"},
		{"Button", "rect_position", "rect_position is the Godot 3 name; in Godot 4 it is position"},
		{"Node2D", "pause_mode", "in Godot 4 it is process_mode"},
		{"Node3D", "translation", "in Godot 4 it is position"},
		{"Node2D", "positon", `did you mean "position"?`},
		// A rename that does not fit the class is not offered.
		{"Node2D", "extents", ""},
		{"Node2D", "zzzzzzzzzz", ""},
	}
	for _, tt := range tests {
		t.Run(tt.class+"."+tt.prop, func(t *testing.T) {
			got := db.PropertyHint(tt.class, tt.prop)
			if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
				t.Fatalf("PropertyHint(%q, %q) = %q, want %q", tt.class, tt.prop, got, tt.want)
			}
		})
	}
	if got := db.SuggestProperty("RectangleShape2D", "extents"); got != "size" {
		t.Errorf("SuggestProperty(RectangleShape2D, extents) = %q, want size", got)
	}
}

// TestClassRenamesResolve checks the rename table against the engine's
// class list: every Godot 4 name exists.
func TestClassRenamesResolve(t *testing.T) {
	db := MustEmbedded()
	for _, r := range renames.All() {
		if r.Kind == renames.KindClass && !db.Exists(r.New) {
			t.Errorf("class rename %s -> %s: Godot %s has no class %s", r.Old, r.New, db.Version(), r.New)
		}
	}
}

func TestSignalHint(t *testing.T) {
	db := MustEmbedded()
	tests := []struct {
		class, signal, want string
	}{
		{"LineEdit", "text_entered", "text_entered is the Godot 3 name; in Godot 4 it is text_submitted"},
		{"AcceptDialog", "cancelled", "in Godot 4 it is canceled"},
		{"Button", "presed", `did you mean "pressed"?`},
		{"Node", "zzzzzzzzzzzz", ""},
	}
	for _, tt := range tests {
		got := db.SignalHint(tt.class, tt.signal)
		if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
			t.Errorf("SignalHint(%q, %q) = %q, want %q", tt.class, tt.signal, got, tt.want)
		}
	}
}

func TestSignalAndMethodHints(t *testing.T) {
	db := MustEmbedded()
	for _, tt := range []struct{ class, signal, want string }{
		{"LineEdit", "text_entered", "text_entered is the Godot 3 name; in Godot 4 it is text_submitted"},
		{"AcceptDialog", "cancelled", "in Godot 4 it is canceled"},
		{"Area2D", "body_entred", `did you mean "body_entered"?`},
		{"Node2D", "text_entered", `did you mean "tree_entered"?`}, // the rename does not fit Node2D
	} {
		if got := db.SignalHint(tt.class, tt.signal); tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
			t.Errorf("SignalHint(%q, %q) = %q, want %q", tt.class, tt.signal, got, tt.want)
		}
	}
	for _, tt := range []struct{ class, method, want string }{
		{"Node2D", "update", "update is the Godot 3 name; in Godot 4 it is queue_redraw"},
		{"Node", "set_network_master", "in Godot 4 it is set_multiplayer_authority"},
		{"RayCast2D", "get_cast_to", "in Godot 4 it is get_target_position"},
		{"Node", "update", ""},         // Node has no queue_redraw
		{"Node2D", "queue_redraw", ""}, // not refused
	} {
		if got := db.MethodHint(tt.class, tt.method); tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
			t.Errorf("MethodHint(%q, %q) = %q, want %q", tt.class, tt.method, got, tt.want)
		}
	}
}
