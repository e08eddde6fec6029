package main

import (
	"context"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

func db() *classdb.DB { return classdb.MustEmbedded() }

// is3D reports whether the node at path of the scene is a Node3D; false
// when it cannot be read.
func is3D(ctx context.Context, call *sdk.Call, s *nodeedit.Scene, path string) bool {
	sec, tn, err := s.Lookup(nodeedit.OrDot(path))
	if err != nil {
		return false
	}
	class := ""
	if sec != nil {
		class = sec.Type()
	}
	if tn != nil && tn.Class() != "" {
		class = tn.Class()
	}
	if class == "" && sec != nil {
		class = nodeedit.NodeClass(ctx, call, s.Doc, sec)
	}
	return db().Inherits(class, "Node3D")
}

// checkClass checks a class the caller names for a new node: it must be
// one of want (a Godot 3 name gets its Godot 4 spelling as the hint).
func checkClass(arg, class string, want ...string) error {
	for _, w := range want {
		if class == w {
			return nil
		}
	}
	hint := "pass " + want[0] + " or " + want[1]
	if r, ok := db().ClassRename(class); ok {
		hint = r.Message() + "; " + hint
	}
	return nodeedit.Invalid(arg, hint, "%s must be %s or %s; got '%s'.", arg, want[0], want[1], class)
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// savedClass reads the class of the node at path from the saved scene, for
// an editor path that needs it; "" when it cannot be read.
func savedClass(ctx context.Context, call *sdk.Call, scene sdk.ScenePath, path string) string {
	if scene == "" {
		return ""
	}
	s, err := nodeedit.OpenScene(ctx, call, string(scene))
	if err != nil {
		return ""
	}
	sec, tn, err := s.Lookup(nodeedit.OrDot(path))
	if err != nil {
		return ""
	}
	if tn != nil && tn.Class() != "" {
		return tn.Class()
	}
	if sec != nil {
		return sec.Type()
	}
	return ""
}
