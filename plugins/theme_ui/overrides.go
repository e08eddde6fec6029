package main

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

type overridesArgs struct {
	NodePath  string        `json:"node_path,omitempty" jsonschema:"the Control, relative to the scene root (\".\" is the root)"`
	Scene     sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene; default: the active scene"`
	ThemePath sdk.ResPath   `json:"theme_path,omitempty" jsonschema:"headless: list this Theme .tres's items instead of a node's overrides" godot:"ext=.tres"`
}

type styleboxJSON struct {
	Name       string         `json:"name"`
	Type       string         `json:"type"`
	Properties map[string]any `json:"properties"`
}

// godot3Override is a Godot 3 override property a scene still holds,
// which Godot 4 ignores.
type godot3Override struct {
	Property string `json:"property"`
	MapsTo   string `json:"maps_to" jsonschema:"its Godot 4 spelling"`
}

type overridesResult struct {
	NodePath   string           `json:"node_path,omitempty"`
	Colors     map[string]any   `json:"colors"`
	FontSizes  map[string]any   `json:"font_sizes"`
	Styleboxes []styleboxJSON   `json:"styleboxes"`
	Constants  map[string]any   `json:"constants,omitempty"`
	Fonts      map[string]any   `json:"fonts,omitempty"`
	Icons      map[string]any   `json:"icons,omitempty"`
	Godot3     []godot3Override `json:"godot3,omitempty" jsonschema:"Godot 3 custom_* overrides in the file, which Godot 4 ignores; set them again under their Godot 4 name"`
	Scene      string           `json:"scene,omitempty"`
	Class      string           `json:"class,omitempty"`
	// Theme resource listing (theme_path).
	ThemePath string                      `json:"theme_path,omitempty"`
	Types     map[string]*overridesResult `json:"types,omitempty" jsonschema:"with theme_path: the items of each theme type"`
	Defaults  map[string]any              `json:"defaults,omitempty" jsonschema:"with theme_path: default_font, default_font_size, default_base_scale"`
}

func getOverridesEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in overridesArgs) (sdk.Result, error) {
	if in.ThemePath != "" {
		return sdk.Result{}, noThemePathInEditor()
	}
	if err := ed.OpenScene(ctx, string(in.Scene)); err != nil {
		return sdk.Result{}, err
	}
	var out map[string]any
	if err := ed.Query(ctx, "cmd_get_node_theme_overrides", map[string]any{"node_path": in.NodePath}, &out); err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(out), nil
}

func newOverrides() *overridesResult {
	return &overridesResult{Colors: map[string]any{}, FontSizes: map[string]any{}, Styleboxes: []styleboxJSON{}}
}

// add files one item (group, name, value) of doc at path.
func (o *overridesResult) add(doc *godot.File, path, group, name string, v godot.Value) {
	j := godot.ToJSONIn(v, doc, path)
	put := func(m *map[string]any) {
		if *m == nil {
			*m = map[string]any{}
		}
		(*m)[name] = j
	}
	switch group {
	case "colors":
		put(&o.Colors)
	case "font_sizes":
		put(&o.FontSizes)
	case "constants":
		put(&o.Constants)
	case "fonts":
		put(&o.Fonts)
	case "icons":
		put(&o.Icons)
	case "styles":
		sb := styleboxJSON{Name: name, Properties: map[string]any{}}
		switch r := v.(type) {
		case godot.SubResource:
			if s := doc.SubResource(r.ID); s != nil {
				sb.Type = s.Type()
				for _, p := range s.Properties() {
					sb.Properties[p.Key] = nodeedit.ValueJSON(doc, path, p.Value, 2)
				}
			}
		case godot.ExtResource:
			if x := doc.ExtResource(r.ID); x != nil {
				sb.Type = x.Type()
				sb.Properties["resource_path"] = x.Path()
			}
		}
		o.Styleboxes = append(o.Styleboxes, sb)
	}
}

func getOverrides(ctx context.Context, call *sdk.Call, in overridesArgs) (sdk.Result, error) {
	if in.ThemePath != "" {
		return themeItemsOf(ctx, call, string(in.ThemePath))
	}
	p, err := nodeedit.ScenePath(ctx, call, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	s, err := nodeedit.Open(ctx, call, p)
	if err != nil {
		return sdk.Result{}, err
	}
	n, class, err := control(ctx, call, s, in.NodePath)
	if err != nil {
		return sdk.Result{}, err
	}
	out := newOverrides()
	out.NodePath, out.Scene, out.Class = n.Path(), s.Path, class
	for _, pr := range n.Properties() {
		if rest, ok := strings.CutPrefix(pr.Key, "theme_override_"); ok {
			if g, name, ok := strings.Cut(rest, "/"); ok {
				out.add(s.Doc, s.Path, g, name, pr.Value)
			}
			continue
		}
		if prefix, name, ok := strings.Cut(pr.Key, "/"); ok {
			if g, ok := godot3Groups[prefix]; ok {
				out.Godot3 = append(out.Godot3, godot3Override{Property: pr.Key, MapsTo: "theme_override_" + g + "/" + name})
			}
		}
	}
	sort.Slice(out.Styleboxes, func(i, j int) bool { return out.Styleboxes[i].Name < out.Styleboxes[j].Name })
	return sdk.JSON(out), nil
}

// themeItemsOf lists a Theme resource's items by type.
func themeItemsOf(ctx context.Context, call *sdk.Call, p string) (sdk.Result, error) {
	ws := call.Workspace()
	f, err := ws.Read(ctx, p)
	if err != nil {
		return sdk.Result{}, err
	}
	doc, err := ws.ParseFile(ctx, f)
	if err != nil {
		return sdk.Result{}, sdk.Errorf(sdk.CodePreconditionFailed, "fix the file or restore it (godot_undo)", "%s does not parse: %v", p, err)
	}
	if doc.ResourceType() != "Theme" || doc.Resource() == nil {
		return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "theme_path",
			Message: fmt.Sprintf("%s is a %s, not a Theme", p, doc.ResourceType()), Hint: "pass a Theme .tres"}
	}
	out := &overridesResult{ThemePath: p, Types: map[string]*overridesResult{}, Colors: map[string]any{}, FontSizes: map[string]any{}, Styleboxes: []styleboxJSON{}}
	for _, pr := range doc.Resource().Properties() {
		parts := strings.SplitN(pr.Key, "/", 3)
		if len(parts) != 3 {
			if out.Defaults == nil {
				out.Defaults = map[string]any{}
			}
			out.Defaults[pr.Key] = godot.ToJSONIn(pr.Value, doc, p)
			continue
		}
		t := out.Types[parts[0]]
		if t == nil {
			t = newOverrides()
			out.Types[parts[0]] = t
		}
		t.add(doc, p, parts[1], parts[2], pr.Value)
	}
	return sdk.JSON(out), nil
}
