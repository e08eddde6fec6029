package nodeedit

import (
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// ValidName applies Godot's node-name rule.
func ValidName(name string) error {
	if name == "" || strings.ContainsAny(name, ".:@/\"%") {
		return Invalid("name", "use a name without . : @ / \" %", "node name %q must be non-empty and may not contain . : @ / \" %%", name)
	}
	return nil
}

// FreeName returns name, or the editor's next free sibling name
// ("Sprite2D2") when the parent already has a child called name.
func FreeName(f *godot.File, parent, name string) string {
	for f.Node(godot.JoinNodePath(parent, name)) != nil {
		name = NextName(name)
	}
	return name
}

// FreeChildName is FreeName among the children of a node of the
// effective tree (those its instanced scene gives it included).
func FreeChildName(p *godot.TreeNode, name string) string {
	taken := map[string]bool{}
	for _, c := range p.Children() {
		taken[c.Name()] = true
	}
	for taken[name] {
		name = NextName(name)
	}
	return name
}

// NextName increments a trailing number ("Box2" -> "Box3") or appends 2,
// as the editor names a duplicate (godot.NextName).
func NextName(name string) string { return godot.NextName(name) }
