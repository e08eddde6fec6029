package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
	"github.com/godot-mcp/godot-mcp/sdk/godot/uid"
)

// classDB returns the embedded class database (decoded once, by classdb).
func classDB() (*classdb.DB, error) {
	d, err := classdb.Embedded()
	if err != nil {
		return nil, sdk.Errorf(sdk.CodeInternalError, "report this bug: the class database is built into the plugin", "loading the class database: %v", err)
	}
	return d, nil
}

// tresPath checks that a path argument (already cleaned by the SDK, as
// sdk.ResPath) names a text resource, the only kind edited on the files.
// It is not a `godot:"ext=.tres"` tag because the rule is headless only:
// with an editor attached, read and set take binary .res resources too.
func tresPath(p sdk.ResPath) (string, error) {
	switch filepath.Ext(string(p)) {
	case ".tres":
		return string(p), nil
	case ".res":
		return "", sdk.Errorf(sdk.CodeInvalidArgument, "save the resource as .tres in the editor, or attach an editor (it reads binary resources)", "%s is a binary resource; headless editing reads text resources (.tres) only", p)
	}
	return "", sdk.Errorf(sdk.CodeInvalidArgument, "pass a .tres file; scenes are edited with the scene_edit toolset", "%s is not a .tres resource", p)
}

// readTres reads and parses a text resource; forAgent says the agent is
// shown its content (sdk.Workspace.ReadForAgent).
func readTres(ctx context.Context, call *sdk.Call, path string, forAgent bool) (*godot.File, sdk.File, error) {
	read := call.Workspace().Read
	if forAgent {
		read = call.Workspace().ReadForAgent
	}
	f, err := read(ctx, path)
	if err != nil {
		if e, ok := errors.AsType[*sdk.Error](err); ok && e.Code == sdk.CodeNotFound {
			e.Hint = "check the path with godot_project_search_files, or create it with godot_resources_edit_create_resource"
		}
		return nil, sdk.File{}, err
	}
	rf, err := call.Workspace().ParseFile(ctx, f)
	if err != nil {
		return nil, sdk.File{}, sdk.Errorf(sdk.CodePreconditionFailed, "fix the file (godot-mcp check reports where) and try again", "%s does not parse: %v", path, err)
	}
	if rf.IsScene() {
		return nil, sdk.File{}, sdk.Errorf(sdk.CodeInvalidArgument, "edit scenes with the scene_edit toolset", "%s is a scene, not a resource", path)
	}
	return rf, f, nil
}

type readArgs struct {
	Path sdk.ResPath `json:"path" alias:"resource_path" jsonschema:"res:// path of a .tres file"`
}

type extInfo struct {
	ID   string `json:"id"`
	Type string `json:"type"`
	Path string `json:"path"`
	UID  string `json:"uid,omitempty"`
}

type subInfo struct {
	ID         string         `json:"id"`
	Type       string         `json:"type"`
	Properties map[string]any `json:"properties"`
}

type readResult struct {
	ResourcePath string            `json:"resource_path"`
	Version      sdk.FileVersion   `json:"version" jsonschema:"the file's version: pass it as expected_version to an edit, which is then refused with CONFLICT if the file changed since"`
	Type         string            `json:"type"`
	Script       string            `json:"script,omitempty" jsonschema:"res:// path of its script, if any"`
	ScriptClass  string            `json:"script_class,omitempty"`
	UID          string            `json:"uid,omitempty"`
	Properties   map[string]any    `json:"properties" jsonschema:"stored properties as JSON: vectors {x,y}, colours {r,g,b,a}, references as \"ExtResource(...)\" text"`
	Text         map[string]string `json:"text" jsonschema:"each stored property as written in the file"`
	ExtResources []extInfo         `json:"ext_resources"`
	SubResources []subInfo         `json:"sub_resources"`
}

func propsOf(s *godot.Section) (map[string]any, map[string]string) {
	js, txt := map[string]any{}, map[string]string{}
	for _, p := range s.Properties() {
		js[p.Key] = godot.ToJSON(p.Value)
		txt[p.Key] = godot.FormatValue(p.Value)
	}
	return js, txt
}

// readResourceCommand is read_resource_file's editor path: the editor
// reads binary resources too, and what it holds unsaved.
func readResourceCommand(in readArgs) (any, error) {
	return map[string]any{"resource_path": in.Path}, nil
}

func readResource(ctx context.Context, call *sdk.Call, in readArgs) (sdk.Result, error) {
	path, err := tresPath(in.Path)
	if err != nil {
		return sdk.Result{}, err
	}
	rf, f, err := readTres(ctx, call, path, true)
	if err != nil {
		return sdk.Result{}, err
	}
	out := readResult{ResourcePath: path, Version: f.Version, Type: rf.ResourceType(), ScriptClass: rf.ScriptClass(), UID: rf.UID(),
		Properties: map[string]any{}, Text: map[string]string{}, ExtResources: []extInfo{}, SubResources: []subInfo{}}
	if main := rf.Resource(); main != nil {
		out.Properties, out.Text = propsOf(main)
		if v, ok := main.Get("script"); ok {
			if ref, ok := v.(godot.ExtResource); ok {
				if e := rf.ExtResource(ref.ID); e != nil {
					out.Script = e.Path()
				}
			}
		}
	}
	for _, e := range rf.ExtResources() {
		out.ExtResources = append(out.ExtResources, extInfo{ID: e.ID(), Type: e.Type(), Path: e.Path(), UID: e.UID()})
	}
	for _, s := range rf.SubResources() {
		js, _ := propsOf(s.Section)
		out.SubResources = append(out.SubResources, subInfo{ID: s.ID(), Type: s.Type(), Properties: js})
	}
	return sdk.JSON(out), nil
}

// resourceClass checks that class can be a .tres resource.
func resourceClass(d *classdb.DB, class, project string) error {
	if !d.Exists(class) {
		hint := "pass a Resource class such as \"StyleBoxFlat\", \"Gradient\" or \"LabelSettings\""
		if r, ok := d.ClassRename(class); ok {
			hint = r.Message()
		} else if s := d.Suggest(class); s != "" {
			hint = fmt.Sprintf("did you mean %q?", s)
		}
		return sdk.Errorf(sdk.CodeInvalidArgument, hint, "Godot %s has no class %q", d.VersionFor(project), class)
	}
	if !d.Inherits(class, "Resource") {
		return sdk.Errorf(sdk.CodeInvalidArgument, "nodes live in scenes: use the scene_edit toolset", "%s is not a Resource class", class)
	}
	if !d.Instantiable(class) {
		return sdk.Errorf(sdk.CodeInvalidArgument, "pick a concrete subclass", "%s is abstract and cannot be instantiated", class)
	}
	if c, ok := d.Class(class); ok && c.APIType.EditorOnly() {
		return sdk.Errorf(sdk.CodeInvalidArgument, "pick a class a running game can load", "%s exists only in the editor", class)
	}
	return nil
}

// propertyOrder is the order the editor saves a class's properties in:
// the base class's first (Object::get_property_list walks from the root).
func propertyOrder(d *classdb.DB, class string) []string {
	chain := d.Chain(class)
	var out []string
	for i := len(chain) - 1; i >= 0; i-- {
		if c, ok := d.Class(chain[i]); ok {
			for _, p := range c.Properties {
				out = append(out, p.Name)
			}
		}
	}
	return out
}

// coerce converts a JSON value for class.prop into the value to store; a
// res:// path for a resource-typed property becomes an ext_resource of rf.
// It returns nil for "remove the property" (null on a resource, or the
// class default).
func coerce(ctx context.Context, call *sdk.Call, d *classdb.DB, rf *godot.File, class, prop string, raw any) (godot.Value, error) {
	p, ok := d.Property(class, prop)
	if !ok {
		hint := fmt.Sprintf(`godot_describe_class({"class_name":%q,"members":"properties","inherited":true}) lists its properties`, class)
		if s := d.PropertyHint(class, prop); s != "" {
			hint = s
		}
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, hint, "%s has no property %q", class, prop)
	}
	if !p.Saved() || prop == "script" || prop == "resource_path" {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "set a property the editor saves", "%s.%s is not stored in resource files", class, prop)
	}
	if raw == nil {
		return nil, nil
	}
	res := &nodeedit.FileResources{Doc: rf, Path: rf.Name(), RefFunc: func(typ, path string) (godot.Value, error) {
		return extRef(ctx, call, d, rf, typ, path)
	}}
	v, err := d.Coerce(class, prop, raw, res)
	if err != nil {
		res.Discard()
		return nil, nodeedit.Err(err)
	}
	switch v.(type) {
	case godot.ExtResource, godot.SubResource:
		return v, nil
	}
	v = d.Stored(class, prop, v)
	if d.IsDefault(class, prop, v) {
		return nil, nil
	}
	return v, nil
}

// extRef declares path as an ext_resource of rf and returns the reference.
func extRef(ctx context.Context, call *sdk.Call, d *classdb.DB, rf *godot.File, typ, path string) (godot.Value, error) {
	ws := call.Workspace()
	fi, err := ws.Stat(ctx, path)
	if err != nil {
		return nil, err
	}
	if !fi.Exists || fi.IsDir {
		return nil, sdk.Errorf(sdk.CodeNotFound, "check the path with godot_project_search_files", "%s does not exist", path)
	}
	extType, id := typ, ""
	if i := strings.IndexByte(typ, ','); i >= 0 {
		extType = typ[:i]
	}
	switch filepath.Ext(path) {
	case ".tres", ".tscn":
		if f, err := ws.Read(ctx, path); err == nil {
			if t, err := godot.ParseFile(path, f.Data); err == nil {
				id = t.UID()
				if t.IsScene() {
					extType = "PackedScene"
				} else if rt := t.ResourceType(); rt != "" {
					extType = rt
				}
			}
		}
	case ".gd":
		extType = "Script"
	}
	if extType != typ && !strings.Contains(typ, ",") && !d.Inherits(extType, typ) {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "pass a resource of type "+typ, "%s is a %s, not a %s", path, extType, typ)
	}
	if id == "" {
		for _, side := range []string{".uid", ".import"} {
			if f, err := ws.Read(ctx, path+side); err == nil {
				for line := range bytes.Lines(f.Data) {
					s := strings.TrimSpace(strings.TrimPrefix(string(line), "uid="))
					s = strings.Trim(s, "\"")
					if strings.HasPrefix(s, uid.Prefix) {
						id = s
						break
					}
				}
			}
			if id != "" {
				break
			}
		}
	}
	ref, err := rf.AddExtResource(extType, path, id)
	if err != nil {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "pass a res:// path", "%v", err)
	}
	return ref, nil
}

type createArgs struct {
	Path       sdk.ResPath    `json:"path" alias:"resource_path" godot:"ext=.tres,new" jsonschema:"res:// path of the new .tres file; must not exist"`
	Type       string         `json:"type" jsonschema:"an instantiable Resource class, e.g. \"StyleBoxFlat\", \"Gradient\", \"LabelSettings\""`
	Properties map[string]any `json:"properties,omitempty" jsonschema:"property values, converted to each property's type; for a resource-typed property a res:// path or an inline resource {\"type\": ..., \"properties\": {...}}, embedded as a [sub_resource]"`
}

type writeResult struct {
	ResourcePath string           `json:"resource_path"`
	Type         string           `json:"type,omitempty"`
	Created      bool             `json:"created,omitempty"`
	UID          string           `json:"uid,omitempty"`
	Property     string           `json:"property,omitempty"`
	Value        any              `json:"value,omitempty"`
	Removed      bool             `json:"removed,omitempty" jsonschema:"the property was removed from the file (null or the class default)"`
	Commit       sdk.CommitResult `json:"commit"`
}

// createResourceCommand is create_resource's editor path, after the same
// class and path checks as headless; the editor converts the properties.
// Inline resources, which the addon cannot build, are written headless
// (sdk.ErrOnFiles): the editor rescans the new file.
func createResourceCommand(in createArgs) (any, error) {
	if nodeedit.HasInline(in.Properties) {
		return nil, sdk.ErrOnFiles
	}
	d, err := classDB()
	if err != nil {
		return nil, err
	}
	if err := resourceClass(d, in.Type, ""); err != nil { // the editor names its own version
		return nil, err
	}
	// The SDK checked the path (a .tres that does not exist yet) before
	// choosing the mode: the addon would overwrite an existing file.
	params := map[string]any{"type": in.Type, "resource_path": string(in.Path), "properties": in.Properties}
	if in.Properties == nil {
		params["properties"] = map[string]any{}
	}
	return params, nil
}

func createResource(ctx context.Context, call *sdk.Call, in createArgs) (sdk.Result, error) {
	d, err := classDB()
	if err != nil {
		return sdk.Result{}, err
	}
	if err := resourceClass(d, in.Type, call.Workspace().GodotVersion(ctx)); err != nil {
		return sdk.Result{}, err
	}
	path := string(in.Path) // a new .tres: the SDK checked it
	ws := call.Workspace()
	id := uid.New().String()
	src := fmt.Sprintf("[gd_resource type=%q format=3 uid=%q]\n\n[resource]\n", in.Type, id)
	rf, err := godot.ParseFile(path, []byte(src))
	if err != nil {
		return sdk.Result{}, fmt.Errorf("building %s: %w", path, err)
	}
	rf.SetFloatStyle(ws.FloatStyle(ctx))
	names := make([]string, 0, len(in.Properties))
	for k := range in.Properties {
		names = append(names, k)
	}
	order := propertyOrder(d, in.Type)
	slices.SortFunc(names, func(a, b string) int {
		ia, ib := slices.Index(order, a), slices.Index(order, b)
		if ia != ib {
			return ia - ib
		}
		return strings.Compare(a, b)
	})
	for _, k := range names {
		v, err := coerce(ctx, call, d, rf, in.Type, k, in.Properties[k])
		if err != nil {
			return sdk.Result{}, err
		}
		if v != nil {
			rf.Resource().Set(k, v)
		}
	}
	cr, err := ws.Begin("Create resource "+path).Write(path, rf.Bytes(), "").Commit(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(writeResult{ResourcePath: path, Type: in.Type, Created: !cr.DryRun, UID: id, Commit: cr}), nil
}

type setArgs struct {
	Path     sdk.ResPath `json:"path" alias:"resource_path" jsonschema:"res:// path of a .tres file"`
	Property string      `json:"property" jsonschema:"property name, e.g. \"bg_color\""`
	Value    any         `json:"value" jsonschema:"new value, converted to the property's type; for a resource-typed property a res:// path, an inline resource {\"type\": ..., \"properties\": {...}} (a [sub_resource]) or {\"sub_resource\": \"<id>\"}; null removes it" godot:"value"`
	// ExpectedVersion is headless only: the editor holds the resource.
	ExpectedVersion sdk.FileVersion `json:"expected_version,omitempty" jsonschema:"the version read_resource_file returned; the edit is refused with CONFLICT (and a diff) if the file changed since"`
}

func checkProperty(in setArgs) error {
	if in.Property == "" {
		return sdk.Errorf(sdk.CodeInvalidArgument, "pass property, e.g. \"bg_color\"", "property is empty")
	}
	return nil
}

// setResourcePropertyCommand is set_resource_property's editor path; the
// editor converts the value to the property's type.
func setResourcePropertyCommand(in setArgs) (any, error) {
	if err := checkProperty(in); err != nil {
		return nil, err
	}
	if nodeedit.HasInline(in.Value) {
		return nil, sdk.ErrOnFiles // as in createResourceCommand
	}
	return map[string]any{"resource_path": in.Path, "property": in.Property, "value": in.Value}, nil
}

func setResourceProperty(ctx context.Context, call *sdk.Call, in setArgs) (sdk.Result, error) {
	if err := checkProperty(in); err != nil {
		return sdk.Result{}, err
	}
	d, err := classDB()
	if err != nil {
		return sdk.Result{}, err
	}
	path, err := tresPath(in.Path)
	if err != nil {
		return sdk.Result{}, err
	}
	rf, f, err := readTres(ctx, call, path, false)
	if err != nil {
		return sdk.Result{}, err
	}
	if in.ExpectedVersion != "" {
		f.Version = in.ExpectedVersion // the commit's compare-and-swap checks it
	}
	class := rf.ResourceType()
	main := rf.Resource()
	if main == nil {
		return sdk.Result{}, sdk.Errorf(sdk.CodePreconditionFailed, "add a [resource] section in the editor", "%s has no [resource] section", path)
	}
	if _, hasScript := main.Get("script"); hasScript {
		if _, known := d.Property(class, in.Property); !known {
			// A script variable: the class database cannot know it, so the
			// value keeps its JSON type.
			v, err := godot.FromJSON(in.Value, "")
			if err != nil {
				return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "pass a JSON value", "%v", err)
			}
			return setAndCommit(ctx, call, rf, f, path, in.Property, v, d.PropertyRank(class))
		}
	}
	v, err := coerce(ctx, call, d, rf, class, in.Property, in.Value)
	if err != nil {
		return sdk.Result{}, err
	}
	return setAndCommit(ctx, call, rf, f, path, in.Property, v, d.PropertyRank(class))
}

// setAndCommit sets (or, for nil, removes) a property of the file's
// [resource]; a new one goes where the editor saves it (rank).
func setAndCommit(ctx context.Context, call *sdk.Call, rf *godot.File, f sdk.File, path, prop string, v godot.Value, rank func(string) int) (sdk.Result, error) {
	out := writeResult{ResourcePath: path, Property: prop}
	if v == nil {
		rf.Resource().Clear(prop)
		out.Removed = true
	} else {
		rf.Resource().SetOrdered(prop, v, rank)
		out.Value = godot.ToJSON(v)
	}
	cr, err := call.Workspace().Begin(fmt.Sprintf("Set %s of %s", prop, path)).Write(path, rf.Bytes(), f.Version).Commit(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	out.Commit = cr
	return sdk.JSON(out), nil
}
