package main

import (
	"fmt"

	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

func db() *classdb.DB { return classdb.MustEmbedded() }

// dimension is "2D" or "3D" for a class of either world, else "".
func dimension(class string) string {
	switch {
	case db().Inherits(class, "Node2D"), db().Inherits(class, "Shape2D"):
		return "2D"
	case db().Inherits(class, "Node3D"), db().Inherits(class, "Shape3D"):
		return "3D"
	}
	return ""
}

func isCollisionObject(class string) bool {
	return db().Inherits(class, "CollisionObject2D") || db().Inherits(class, "CollisionObject3D")
}

// notBody is the refusal of a node that is no body or area.
func notBody(path, class string) error {
	return nodeedit.Invalid("node_path", "point node_path at a StaticBody, RigidBody, CharacterBody, AnimatableBody or Area (2D or 3D); "+
		"godot_physics_setup_body with body_type creates one",
		"Node '%s' is a %s, not a physics body/area (CollisionObject2D/3D).", path, class)
}

// checkClass checks a class the caller names for a new node: it must be
// one of want (a Godot 3 name gets its Godot 4 spelling as the hint).
func checkClass(arg, class string, want ...string) error {
	for _, w := range want {
		if class == w {
			return nil
		}
	}
	hint := fmt.Sprintf("pass one of %v", want)
	if r, ok := db().ClassRename(class); ok {
		hint = r.Message() + "; " + hint
	}
	return nodeedit.Invalid(arg, hint, "'%s' is not a valid %s.", class, arg)
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}
