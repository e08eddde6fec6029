package main

import (
	"context"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

// commit writes the scene as one undoable action and answers out with
// dry_run and the files changed.
func commit(s *nodeedit.Scene, name string, out map[string]any) (sdk.Result, error) {
	res, err := s.Commit(name)
	if err != nil {
		return sdk.Result{}, err
	}
	out["scene_path"] = s.Path
	out["dry_run"] = res.DryRun
	if len(res.Warnings) > 0 {
		out["warnings"] = res.Warnings
	}
	return sdk.JSON(out), nil
}

// setProps sets props on the node n (of class), each checked against the
// class database and converted as the editor saves it.
func setProps(s *nodeedit.Scene, n *godot.Node, class string, props map[string]any) error {
	props, err := nodeedit.WithTransform(class, props)
	if err != nil {
		return err
	}
	for _, k := range nodeedit.SortedKeys(class, props) {
		if _, err := s.Set(n, k, props[k]); err != nil {
			return err
		}
	}
	return nil
}

// inline is the converter's spelling of a new resource of class with
// props: {"type": class, "properties": props}.
func inline(class string, props map[string]any) map[string]any {
	if props == nil {
		props = map[string]any{}
	}
	return map[string]any{"type": class, "properties": props}
}

// checkProps refuses properties class does not have (with the closest
// name and Godot 3 renames), before anything is written or sent.
func checkProps(arg, class string, props map[string]any) error {
	d := nodeedit.DB()
	for _, k := range nodeedit.SortedKeys(class, props) {
		if _, ok := d.Property(class, k); ok {
			continue
		}
		hint := `godot_describe_class({"class_name":"` + class + `","members":"properties","inherited":true}) lists its properties`
		if h := d.PropertyHint(class, k); h != "" {
			hint = h
		}
		return nodeedit.Invalid(arg, hint, "%s has no property '%s' (in %s)", class, k, arg)
	}
	return nil
}

// editorProps checks props against class and spells them for the addon,
// which converts a value to the property's type but knows no enum names:
// a name (BG_SKY, "Sky") becomes its number. An inline resource is
// refused: the addon takes resources only as paths.
func editorProps(arg, class string, props map[string]any) (map[string]any, error) {
	if err := checkProps(arg, class, props); err != nil {
		return nil, err
	}
	if nodeedit.HasInline(props) {
		return nil, nodeedit.EditorInline(arg)
	}
	out := make(map[string]any, len(props))
	for k, v := range props {
		out[k] = v
		if s, ok := v.(string); ok {
			if t, _ := nodeedit.DB().PropertyType(class, k); t == "int" || strings.Contains(t, "::") || strings.Contains(t, ".") {
				if c, err := nodeedit.DB().Coerce(class, k, s, nil); err == nil {
					if i, ok := c.(godot.Int); ok {
						out[k] = int64(i)
					}
				}
			}
		}
	}
	return out, nil
}

// childPath is the path the editor gives a new child name of parent
// (before a clash renames it).
func childPath(parent, name string) string {
	p := nodeedit.OrDot(parent)
	if p == "." {
		return name
	}
	return p + "/" + name
}

// forward opens scene (if given) and sends one addon command.
func forward(ctx context.Context, ed *sdk.Editor, scene sdk.ScenePath, cmd string, params map[string]any) (sdk.Result, error) {
	if err := ed.OpenScene(ctx, string(scene)); err != nil {
		return sdk.Result{}, err
	}
	return ed.Forward(ctx, cmd, params)
}
