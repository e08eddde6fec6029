package main

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
	"github.com/godot-mcp/godot-mcp/sdk/godot/uid"
)

// target is where a theme item goes: a Control's overrides (node_path in
// scene) or a Theme resource (theme_path, under theme_type).
type target struct {
	NodePath  string        `json:"node_path,omitempty" jsonschema:"the Control, relative to the scene root (\".\" is the root); or pass theme_path"`
	Scene     sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene; default: the active scene"`
	ThemePath sdk.ResPath   `json:"theme_path,omitempty" jsonschema:"headless: a Theme .tres to set the item in instead of a node's overrides" godot:"ext=.tres"`
	ThemeType string        `json:"theme_type,omitempty" jsonschema:"with theme_path: the Control class (or type variation) the item is for, e.g. Button"`
}

func (t target) check() error {
	switch {
	case t.ThemePath != "" && t.ThemeType == "":
		return &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "theme_type", Message: "theme_path needs theme_type",
			Hint: "pass the class the item is for, e.g. theme_type=\"Button\" (the key is Button/colors/font_color)"}
	case t.ThemePath == "" && t.NodePath == "":
		return &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "node_path", Message: "no target",
			Hint: "pass node_path (a Control of the scene) or theme_path with theme_type (a Theme resource)"}
	case t.ThemePath != "" && t.NodePath != "":
		return &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "node_path", Message: "both node_path and theme_path given",
			Hint: "pass node_path to override the item on that Control, or theme_path to set it in the Theme, not both"}
	}
	return nil
}

// noThemePathInEditor refuses theme_path with an editor attached: the
// addon's commands override items on a node only.
func noThemePathInEditor() error {
	return &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "headless",
		Message: "with an editor attached, theme_path is not supported: the addon sets theme items as a Control's overrides only",
		Hint: "pass node_path to override the item on a Control, edit the Theme in the editor's theme editor, " +
			"or call again with no editor attached, where theme_path edits the .tres"}
}

// itemName checks an item name for group against class's theme items
// (checkClass false: a type variation, names not checked). It returns the
// bare name and a note when a Godot 3 name was mapped.
func itemName(raw, group, class string, checkClass bool) (name, note string, err error) {
	name, g3, wrong := splitName(strings.TrimSpace(raw), group)
	if wrong != "" {
		return "", "", &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "name",
			Message: fmt.Sprintf("%q is a %s item, and this tool sets %s", raw, wrong, group), Hint: toolFor(wrong)}
	}
	if name == "" {
		return "", "", &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "name", Message: "name is empty", Hint: "pass the theme item's name, e.g. font_color"}
	}
	if g3 != "" {
		note = fmt.Sprintf("%s is Godot 3's spelling; Godot 4 stores it as theme_override_%s/%s", raw, group, name)
	}
	if !checkClass {
		return name, note, nil
	}
	names, known, ok := itemsOf(class, group)
	if !ok {
		return "", "", &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "node_path",
			Message: fmt.Sprintf("%s is not a Control: it has no theme items", class), Hint: "pick a Control node (Button, Label, Panel, …)"}
	}
	if slices.Contains(names, name) {
		return name, note, nil
	}
	hint := fmt.Sprintf("%s has no theme %s", known, group)
	if len(names) > 0 {
		hint = fmt.Sprintf("its %s are %s", group, strings.Join(names, ", "))
		if c := closest(name, names); c != "" {
			hint = "did you mean " + c + "? " + hint
		}
	}
	return "", "", &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "name",
		Message: fmt.Sprintf("%s has no theme %s item %q", class, strings.TrimSuffix(group, "s"), name), Hint: hint}
}

func toolFor(group string) string {
	switch group {
	case "colors":
		return "use godot_theme_ui_set_color"
	case "font_sizes":
		return "use godot_theme_ui_set_font_size"
	case "styles":
		return "use godot_theme_ui_set_stylebox"
	}
	return "set it with godot_scene_edit_set_node_property (theme_override_" + group + "/<name>)"
}

// itemResult is what the set tools answer.
type itemResult struct {
	NodePath     string            `json:"node_path,omitempty"`
	Name         string            `json:"name"`
	Size         int               `json:"size,omitempty"`
	StyleboxType string            `json:"stylebox_type,omitempty"`
	Property     string            `json:"property" jsonschema:"the key written: theme_override_<group>/<name> on the node, or <type>/<group>/<name> in the Theme"`
	Value        any               `json:"value"`
	Scene        string            `json:"scene,omitempty"`
	ThemePath    string            `json:"theme_path,omitempty"`
	Note         string            `json:"note,omitempty"`
	Commit       *sdk.CommitResult `json:"commit,omitempty"`
}

// setItem sets a theme item (raw is the JSON value: a colour, an int, or
// an inline stylebox) on the target, headless.
func setItem(ctx context.Context, call *sdk.Call, t target, group, rawName string, raw any, typ string) (itemResult, error) {
	if err := t.check(); err != nil {
		return itemResult{}, err
	}
	if t.ThemePath != "" {
		return setThemeItem(ctx, call, t, group, rawName, raw, typ)
	}
	p, err := nodeedit.ScenePath(ctx, call, string(t.Scene))
	if err != nil {
		return itemResult{}, err
	}
	s, err := nodeedit.Open(ctx, call, p)
	if err != nil {
		return itemResult{}, err
	}
	n, class, err := control(ctx, call, s, t.NodePath)
	if err != nil {
		return itemResult{}, err
	}
	name, note, err := itemName(rawName, group, class, true)
	if err != nil {
		return itemResult{}, err
	}
	prop := "theme_override_" + group + "/" + name
	a, err := s.Set(n, prop, raw)
	if err != nil {
		return itemResult{}, valueErr(err)
	}
	cr, err := s.Commit(fmt.Sprintf("Override theme %s %s on %s", strings.TrimSuffix(group, "s"), name, n.Path()))
	if err != nil {
		return itemResult{}, err
	}
	return itemResult{NodePath: n.Path(), Name: name, Property: prop, Value: nodeedit.ValueJSON(s.Doc, s.Path, a.Now(), 2),
		Scene: s.Path, Note: note, Commit: &cr}, nil
}

// control finds the node and checks it is a Control (or a Window).
func control(ctx context.Context, call *sdk.Call, s *nodeedit.Scene, path string) (*godot.Node, string, error) {
	sec, tn, err := s.Lookup(nodeedit.OrDot(path))
	if err != nil {
		return nil, "", err
	}
	class := ""
	if tn != nil {
		class = tn.Class()
	}
	if class == "" && sec != nil {
		class = nodeedit.NodeClass(ctx, call, s.Doc, sec)
	}
	db := nodeedit.DB()
	if !db.Inherits(class, "Control") && !db.Inherits(class, "Window") {
		return nil, "", &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "node_path",
			Message: fmt.Sprintf("%s is a %s, not a Control: only Controls have theme overrides", nodeedit.OrDot(path), class),
			Hint:    "pick a Control node (Button, Label, Panel, …); godot_inspection_get_scene_tree lists the nodes"}
	}
	n, err := s.Node(nodeedit.OrDot(path))
	if err != nil {
		return nil, "", err
	}
	return n, class, nil
}

func valueErr(err error) error {
	if e, ok := err.(*sdk.Error); ok {
		if e.Required == "" || e.Required == "value" || e.Required == "property" {
			e.Required = "value"
		}
		return e
	}
	return nodeedit.Err(err)
}

// setThemeItem sets <type>/<group>/<name> in a Theme resource. Keys are
// kept in the order the engine saves them: Theme's own properties
// (default_font, …) first, then the items sorted by key.
func setThemeItem(ctx context.Context, call *sdk.Call, t target, group, rawName string, raw any, typ string) (itemResult, error) {
	ws := call.Workspace()
	p := string(t.ThemePath)
	f, err := ws.Read(ctx, p)
	if err != nil {
		return itemResult{}, err
	}
	doc, err := ws.ParseFile(ctx, f)
	if err != nil {
		return itemResult{}, sdk.Errorf(sdk.CodePreconditionFailed, "fix the file or restore it (godot_undo)", "%s does not parse: %v", p, err)
	}
	if doc.ResourceType() != "Theme" || doc.Resource() == nil {
		return itemResult{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "theme_path",
			Message: fmt.Sprintf("%s is a %s, not a Theme", p, doc.ResourceType()), Hint: "pass a Theme .tres, or make one with godot_theme_ui_create (save_path)"}
	}
	if !validTypeName(t.ThemeType) {
		return itemResult{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "theme_type",
			Message: fmt.Sprintf("theme_type %q is not a type name", t.ThemeType), Hint: "pass a Control class such as Button, or a type variation's name (letters, digits, _)"}
	}
	db := nodeedit.DB()
	isClass := db.Exists(t.ThemeType)
	name, note, err := itemName(rawName, group, t.ThemeType, isClass)
	if err != nil {
		if isClass {
			if e, ok := err.(*sdk.Error); ok && e.Required == "node_path" {
				e.Required = "theme_type"
				e.Hint = "pass a Control class (Button, Label, …) or a type variation's name"
			}
		}
		return itemResult{}, err
	}
	if !isClass {
		note = strings.TrimPrefix(note+"; ", "; ") + t.ThemeType + " is not an engine class, so it is taken as a type variation and the name is not checked"
	}
	var v godot.Value
	switch typ {
	case "StyleBox":
		// Paths inside (a StyleBoxTexture's texture) become ext_resources
		// of the Theme, declared as in a scene.
		res := nodeedit.Edit(ctx, call, p, doc).Resources()
		v, err = db.CoerceType("StyleBox", raw, res)
		if err != nil {
			res.Discard()
			return itemResult{}, valueErr(nodeedit.Err(err))
		}
	default:
		v, err = godot.FromJSON(raw, typ)
		if err != nil {
			return itemResult{}, valueErr(nodeedit.Err(err))
		}
	}
	key := t.ThemeType + "/" + group + "/" + name
	sec := doc.Resource()
	keys := append(sec.Keys(), key)
	sort.SliceStable(keys, func(i, j int) bool {
		ai, aj := strings.Contains(keys[i], "/"), strings.Contains(keys[j], "/")
		if ai != aj {
			return !ai
		}
		return ai && keys[i] < keys[j]
	})
	rank := map[string]int{}
	for i, k := range keys {
		rank[k] = i
	}
	sec.SetOrdered(key, v, func(k string) int { return rank[k] })
	cr, err := ws.Begin(fmt.Sprintf("Set %s in %s", key, p)).Write(p, doc.Bytes(), f.Version).Commit(ctx)
	if err != nil {
		return itemResult{}, err
	}
	return itemResult{Name: name, Property: key, Value: nodeedit.ValueJSON(doc, p, v, 2), ThemePath: p, Note: note, Commit: &cr}, nil
}

func validTypeName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// Color.

type colorArgs struct {
	target
	Name  string `json:"name" jsonschema:"the theme color, e.g. font_color, font_hover_color (Godot 3 custom_colors/… is mapped)"`
	Color any    `json:"color" jsonschema:"\"#ff8800\", [r,g,b,a], {r,g,b,a} or a colour name" godot:"value"`
}

func setColorEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in colorArgs) (sdk.Result, error) {
	name, err := editorName(in.target, in.Name, "colors")
	if err != nil {
		return sdk.Result{}, err
	}
	if _, err := godot.FromJSON(in.Color, "Color"); err != nil {
		return sdk.Result{}, valueErr(nodeedit.Err(err))
	}
	if err := ed.OpenScene(ctx, string(in.Scene)); err != nil {
		return sdk.Result{}, err
	}
	color := in.Color
	if s, ok := color.(string); ok { // "[1, 0, 0, 1]" as text: send the list
		if j, ok := godot.JSONText(s); ok {
			color = j
		}
	}
	return ed.Forward(ctx, "cmd_set_theme_color", map[string]any{"node_path": in.NodePath, "name": name, "color": color})
}

// editorName checks the target and maps the name for the addon, which
// takes the bare item name.
func editorName(t target, raw, group string) (string, error) {
	if err := t.check(); err != nil {
		return "", err
	}
	if t.ThemePath != "" {
		return "", noThemePathInEditor()
	}
	name, _, err := itemName(raw, group, "", false)
	return name, err
}

func setColor(ctx context.Context, call *sdk.Call, in colorArgs) (sdk.Result, error) {
	if in.Color == nil {
		return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "color", Message: "color is missing", Hint: "pass e.g. \"#ff8800\" or [1, 0.5, 0, 1]"}
	}
	r, err := setItem(ctx, call, in.target, "colors", in.Name, in.Color, "Color")
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(r), nil
}

// Font size.

type fontSizeArgs struct {
	target
	Name string `json:"name" jsonschema:"the theme font size, e.g. font_size"`
	Size int    `json:"size" jsonschema:"the size in pixels (positive)"`
}

func checkSize(size int) error {
	if size <= 0 {
		return &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "size", Message: fmt.Sprintf("size must be a positive integer, got %d", size), Hint: "pass the font size in pixels, e.g. 24"}
	}
	return nil
}

func setFontSizeEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in fontSizeArgs) (sdk.Result, error) {
	name, err := editorName(in.target, in.Name, "font_sizes")
	if err != nil {
		return sdk.Result{}, err
	}
	if err := checkSize(in.Size); err != nil {
		return sdk.Result{}, err
	}
	if err := ed.OpenScene(ctx, string(in.Scene)); err != nil {
		return sdk.Result{}, err
	}
	return ed.Forward(ctx, "cmd_set_theme_font_size", map[string]any{"node_path": in.NodePath, "name": name, "size": in.Size})
}

func setFontSize(ctx context.Context, call *sdk.Call, in fontSizeArgs) (sdk.Result, error) {
	if err := checkSize(in.Size); err != nil {
		return sdk.Result{}, err
	}
	r, err := setItem(ctx, call, in.target, "font_sizes", in.Name, float64(in.Size), "int")
	if err != nil {
		return sdk.Result{}, err
	}
	r.Size = in.Size
	return sdk.JSON(r), nil
}

// Stylebox.

type styleboxArgs struct {
	target
	Name         string         `json:"name" jsonschema:"the theme stylebox, e.g. normal, hover, pressed, focus, panel"`
	StyleboxType string         `json:"stylebox_type,omitempty" jsonschema:"StyleBoxFlat (default), StyleBoxTexture, StyleBoxLine or StyleBoxEmpty"`
	Properties   map[string]any `json:"properties,omitempty" jsonschema:"the stylebox's fields, e.g. {\"bg_color\": \"#223344\", \"corner_radius_all\": 6, \"border_width_all\": 2, \"border_color\": \"#ffffff\"}; *_all sets the four sides"`
}

// allSides expands the StyleBox setters that take one value for four
// sides (set_border_width_all, …), which are methods, not properties.
var allSides = map[string][]string{
	"border_width_all":   {"border_width_left", "border_width_top", "border_width_right", "border_width_bottom"},
	"corner_radius_all":  {"corner_radius_top_left", "corner_radius_top_right", "corner_radius_bottom_right", "corner_radius_bottom_left"},
	"expand_margin_all":  {"expand_margin_left", "expand_margin_top", "expand_margin_right", "expand_margin_bottom"},
	"content_margin_all": {"content_margin_left", "content_margin_top", "content_margin_right", "content_margin_bottom"},
	"texture_margin_all": {"texture_margin_left", "texture_margin_top", "texture_margin_right", "texture_margin_bottom"},
}

// stylebox checks the type and the fields against the class database and
// returns the fields with the *_all shorthands expanded.
func (in styleboxArgs) stylebox() (string, map[string]any, error) {
	typ := in.StyleboxType
	if typ == "" {
		typ = "StyleBoxFlat"
	}
	db := nodeedit.DB()
	if !db.Exists(typ) || !db.Inherits(typ, "StyleBox") || !db.Instantiable(typ) {
		return "", nil, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "stylebox_type",
			Message: fmt.Sprintf("%q is not a StyleBox class the engine can create", typ), Hint: "pass StyleBoxFlat, StyleBoxTexture, StyleBoxLine or StyleBoxEmpty"}
	}
	props := map[string]any{}
	var keys []string
	for k := range in.Properties {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if sides, ok := allSides[k]; ok {
			if _, has := db.Property(typ, sides[0]); has {
				for _, s := range sides {
					if _, set := in.Properties[s]; !set {
						props[s] = in.Properties[k]
					}
				}
				continue
			}
		}
		if _, ok := db.Property(typ, k); !ok || strings.HasPrefix(k, "resource_") || k == "script" {
			hint := "see its properties with godot_describe_class"
			if s := db.SuggestProperty(typ, k); s != "" {
				hint = "did you mean " + s + "?"
			}
			return "", nil, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "properties",
				Message: fmt.Sprintf("%s has no property %q", typ, k), Hint: hint}
		}
		props[k] = in.Properties[k]
	}
	return typ, props, nil
}

func setStyleboxEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in styleboxArgs) (sdk.Result, error) {
	name, err := editorName(in.target, in.Name, "styles")
	if err != nil {
		return sdk.Result{}, err
	}
	typ, props, err := in.stylebox()
	if err != nil {
		return sdk.Result{}, err
	}
	if nodeedit.HasInline(props) {
		// The addon cannot build the stylebox's inline resources: the
		// scene's file gets them.
		return sdk.HandlerOnSceneFile(ctx, call, ed, &in, &in.Scene, setStylebox)
	}
	if err := ed.OpenScene(ctx, string(in.Scene)); err != nil {
		return sdk.Result{}, err
	}
	return ed.Forward(ctx, "cmd_set_theme_stylebox", map[string]any{"node_path": in.NodePath, "name": name, "stylebox_type": typ, "properties": props})
}

func setStylebox(ctx context.Context, call *sdk.Call, in styleboxArgs) (sdk.Result, error) {
	typ, props, err := in.stylebox()
	if err != nil {
		return sdk.Result{}, err
	}
	r, err := setItem(ctx, call, in.target, "styles", in.Name, map[string]any{"type": typ, "properties": props}, "StyleBox")
	if err != nil {
		return sdk.Result{}, err
	}
	r.StyleboxType = typ
	return sdk.JSON(r), nil
}

// Create.

type createArgs struct {
	NodePath string        `json:"node_path,omitempty" jsonschema:"the Control to assign the new Theme to (its theme property)"`
	SavePath sdk.ResPath   `json:"save_path,omitempty" jsonschema:"save the Theme as this new .tres and reference it; default: embedded in the scene" godot:"ext=.tres"`
	Scene    sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene; default: the active scene"`
}

type createResult struct {
	NodePath  string           `json:"node_path,omitempty"`
	ThemePath string           `json:"theme_path" jsonschema:"the saved Theme, or \"\" when embedded in the scene"`
	Created   bool             `json:"created"`
	Scene     string           `json:"scene,omitempty"`
	Commit    sdk.CommitResult `json:"commit"`
}

func createThemeEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in createArgs) (sdk.Result, error) {
	if in.NodePath == "" {
		if in.SavePath == "" {
			return sdk.Result{}, noCreateTarget()
		}
		return ed.Forward(ctx, "cmd_create_resource", map[string]any{"resource_path": in.SavePath, "type": "Theme", "properties": map[string]any{}})
	}
	if err := ed.OpenScene(ctx, string(in.Scene)); err != nil {
		return sdk.Result{}, err
	}
	return ed.Forward(ctx, "cmd_create_theme", map[string]any{"node_path": in.NodePath, "save_path": string(in.SavePath)})
}

func noCreateTarget() error {
	return &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "node_path", Message: "nothing to create the theme for",
		Hint: "pass node_path (a Control to assign the Theme to), save_path (a .tres to save it as), or both"}
}

func createTheme(ctx context.Context, call *sdk.Call, in createArgs) (sdk.Result, error) {
	if in.NodePath == "" && in.SavePath == "" {
		return sdk.Result{}, noCreateTarget()
	}
	ws := call.Workspace()
	out := createResult{NodePath: in.NodePath, ThemePath: string(in.SavePath)}
	var theme *godot.File
	if in.SavePath != "" {
		p := string(in.SavePath)
		if fi, err := ws.Stat(ctx, p); err != nil {
			return sdk.Result{}, err
		} else if fi.Exists {
			return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "save_path", Message: p + " already exists",
				Hint: "pick a new path; to use that Theme on a Control, set its theme property with godot_scene_edit_set_node_property"}
		}
		src := fmt.Sprintf("[gd_resource type=\"Theme\" format=3 uid=%q]\n\n[resource]\n", uid.New().String())
		doc, err := godot.ParseFile(p, []byte(src))
		if err != nil {
			return sdk.Result{}, err
		}
		theme = doc
	}
	if in.NodePath == "" {
		cr, err := ws.Begin("Create theme "+out.ThemePath).Write(out.ThemePath, theme.Bytes(), "").Commit(ctx)
		if err != nil {
			return sdk.Result{}, err
		}
		out.Created, out.Commit = !cr.DryRun, cr
		return sdk.JSON(out), nil
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
	if theme == nil {
		if _, err := s.Set(n, "theme", map[string]any{"type": "Theme", "properties": map[string]any{}}); err != nil {
			return sdk.Result{}, valueErr(err)
		}
	} else {
		ref, err := s.Doc.AddExtResource("Theme", out.ThemePath, theme.UID())
		if err != nil {
			return sdk.Result{}, err
		}
		n.SetOrdered("theme", ref, nodeedit.DB().PropertyRank(class))
		s.Edited = true
	}
	tx := ws.Begin("Create theme on " + n.Path())
	if theme != nil {
		tx.Write(out.ThemePath, theme.Bytes(), "")
	}
	for _, w := range s.Writes() {
		w(tx)
	}
	cr, err := tx.Write(s.Path, s.Bytes(), s.File.Version).Commit(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	out.NodePath, out.Scene, out.Created, out.Commit = n.Path(), s.Path, !cr.DryRun, cr
	return sdk.JSON(out), nil
}
