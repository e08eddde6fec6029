package main

// The sub-resources of a scene or .tres file: list, read, edit, and make
// one unique (a copy for one user) — sharing one is a property set to
// {"sub_resource": id}.

import (
	"context"
	"fmt"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

// subDepth is how deep nested sub-resources are shown inline.
const subDepth = 8

// readAny reads and parses a scene or text resource.
func readAny(ctx context.Context, call *sdk.Call, path string) (*godot.File, sdk.File, error) {
	ws := call.Workspace()
	f, err := ws.Read(ctx, path)
	if err != nil {
		return nil, sdk.File{}, err
	}
	rf, err := ws.ParseFile(ctx, f)
	if err != nil {
		return nil, sdk.File{}, sdk.Errorf(sdk.CodePreconditionFailed, "fix the file (godot-mcp check reports where) and try again", "%s does not parse: %v", path, err)
	}
	return rf, f, nil
}

type subFileArgs struct {
	Path sdk.ResPath `json:"path" jsonschema:"res:// path of a .tscn scene or .tres resource" godot:"ext=.tscn|.tres,exists"`
}

type subUse struct {
	NodePath    string `json:"node_path,omitempty" jsonschema:"the node whose property uses it"`
	SubResource string `json:"sub_resource,omitempty" jsonschema:"the sub-resource whose property uses it"`
	Resource    bool   `json:"resource,omitempty" jsonschema:"the file's main [resource] uses it"`
	Property    string `json:"property"`
}

type subEntry struct {
	ID         string         `json:"id"`
	Type       string         `json:"type"`
	Properties map[string]any `json:"properties" jsonschema:"stored properties as JSON; a nested sub-resource is {type, id, properties}"`
	UsedBy     []subUse       `json:"used_by" jsonschema:"the properties that refer to it; empty: nothing uses it"`
}

type listSubResult struct {
	Path         string     `json:"path"`
	SubResources []subEntry `json:"sub_resources"`
	Count        int        `json:"count"`
}

func subEntryOf(rf *godot.File, path, id string) subEntry {
	j := nodeedit.SubResourceJSON(rf, path, id, subDepth)
	e := subEntry{ID: id, Type: j["type"].(string), Properties: j["properties"].(map[string]any), UsedBy: []subUse{}}
	for _, u := range rf.SubResourceUsers(id) {
		e.UsedBy = append(e.UsedBy, subUse{NodePath: u.Node, SubResource: u.Sub, Resource: u.Node == "" && u.Sub == "", Property: u.Property})
	}
	return e
}

func listSubResources(ctx context.Context, call *sdk.Call, in subFileArgs) (sdk.Result, error) {
	path := string(in.Path)
	rf, _, err := readAny(ctx, call, path)
	if err != nil {
		return sdk.Result{}, err
	}
	out := listSubResult{Path: path, SubResources: []subEntry{}}
	for _, s := range rf.SubResources() {
		out.SubResources = append(out.SubResources, subEntryOf(rf, path, s.ID()))
	}
	out.Count = len(out.SubResources)
	return sdk.JSON(out), nil
}

type subArgs struct {
	Path sdk.ResPath `json:"path" jsonschema:"res:// path of a .tscn scene or .tres resource" godot:"ext=.tscn|.tres,exists"`
	ID   string      `json:"id" jsonschema:"the sub-resource's id, e.g. \"RectangleShape2D_x4k2p\" (list_sub_resources shows them)"`
}

// findSub returns the file's sub-resource id or NOT_FOUND listing the ids.
func findSub(rf *godot.File, path, id string) (*godot.SubResourceDecl, error) {
	if s := rf.SubResource(id); s != nil {
		return s, nil
	}
	res := &nodeedit.FileResources{Doc: rf, Path: path}
	_, _, err := res.Sub("", id)
	if e, ok := err.(*sdk.Error); ok {
		e.Required = "id"
	}
	return nil, err
}

func getSubResource(ctx context.Context, call *sdk.Call, in subArgs) (sdk.Result, error) {
	path := string(in.Path)
	rf, _, err := readAny(ctx, call, path)
	if err != nil {
		return sdk.Result{}, err
	}
	if _, err := findSub(rf, path, in.ID); err != nil {
		return sdk.Result{}, err
	}
	e := subEntryOf(rf, path, in.ID)
	return sdk.JSON(map[string]any{"path": path, "id": e.ID, "type": e.Type, "properties": e.Properties, "used_by": e.UsedBy}), nil
}

type setSubArgs struct {
	Path     sdk.ResPath `json:"path" jsonschema:"res:// path of a .tscn scene or .tres resource" godot:"ext=.tscn|.tres,exists"`
	ID       string      `json:"id" jsonschema:"the sub-resource's id (list_sub_resources shows them)"`
	Property string      `json:"property" jsonschema:"property of the sub-resource's class, e.g. \"size\""`
	Value    any         `json:"value" jsonschema:"new value, converted to the property's type; for a resource-typed property a res:// path, an inline resource {\"type\": ..., \"properties\": {...}} or {\"sub_resource\": id}; null or the class default removes it" godot:"value"`
}

func setSubResourceProperty(ctx context.Context, call *sdk.Call, in setSubArgs) (sdk.Result, error) {
	if in.Property == "" {
		return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "pass property, e.g. \"size\"", "property is empty")
	}
	d, err := classDB()
	if err != nil {
		return sdk.Result{}, err
	}
	path := string(in.Path)
	rf, f, err := readAny(ctx, call, path)
	if err != nil {
		return sdk.Result{}, err
	}
	s, err := findSub(rf, path, in.ID)
	if err != nil {
		return sdk.Result{}, err
	}
	v, err := coerce(ctx, call, d, rf, s.Type(), in.Property, in.Value)
	if err != nil {
		return sdk.Result{}, err
	}
	if ref, ok := v.(godot.SubResource); ok && ref.ID == in.ID {
		return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "pass another sub-resource or an inline one", "a sub-resource cannot contain itself")
	}
	out := map[string]any{"path": path, "id": in.ID, "property": in.Property}
	if v == nil {
		out["removed"] = s.Clear(in.Property)
	} else {
		s.SetOrdered(in.Property, v, d.PropertyRank(s.Type()))
		out["value"] = nodeedit.ValueJSON(rf, path, v, subDepth)
	}
	cr, err := call.Workspace().Begin(fmt.Sprintf("Set %s of %s", in.Property, in.ID)).Write(path, rf.Bytes(), f.Version).Commit(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	out["commit"] = cr
	return sdk.JSON(out), nil
}

type uniqueArgs struct {
	Path        sdk.ResPath `json:"path" jsonschema:"res:// path of a .tscn scene or .tres resource" godot:"ext=.tscn|.tres,exists"`
	NodePath    string      `json:"node_path,omitempty" jsonschema:"in a scene: the node whose property holds the sub-resource (\".\" is the root)"`
	SubResource string      `json:"sub_resource,omitempty" jsonschema:"or: the id of the sub-resource whose property holds it; neither: the main [resource] of a .tres"`
	Property    string      `json:"property" jsonschema:"the property holding the shared sub-resource, e.g. \"shape\""`
	Recursive   bool        `json:"recursive,omitempty" jsonschema:"also copy the sub-resources it uses, to any depth (the editor's Make Unique (Recursive)); default: the copy shares them"`
}

func makeSubResourceUnique(ctx context.Context, call *sdk.Call, in uniqueArgs) (sdk.Result, error) {
	path := string(in.Path)
	if in.Property == "" {
		return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "pass property, e.g. \"shape\"", "property is empty")
	}
	rf, f, err := readAny(ctx, call, path)
	if err != nil {
		return sdk.Result{}, err
	}
	var holder *godot.Section
	var who string
	switch {
	case in.NodePath != "" && in.SubResource != "":
		return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "pass node_path or sub_resource, not both", "both node_path and sub_resource given")
	case in.NodePath != "":
		n := rf.Node(nodeedit.NormalizePath(in.NodePath))
		if n == nil {
			return sdk.Result{}, &sdk.Error{Code: sdk.CodeNotFound, Required: "node_path", Message: fmt.Sprintf("no node at %q in %s", in.NodePath, path),
				Hint: "paths are relative to the scene root (\".\" is the root); list_sub_resources shows who uses each sub-resource"}
		}
		holder, who = n.Section, n.Path()
	case in.SubResource != "":
		s, err := findSub(rf, path, in.SubResource)
		if err != nil {
			return sdk.Result{}, err
		}
		holder, who = s.Section, in.SubResource
	default:
		if rf.Resource() == nil {
			return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "pass node_path, the node whose property holds the sub-resource", "%s is a scene: name the node", path)
		}
		holder, who = rf.Resource(), "[resource]"
	}
	v, ok := holder.Get(in.Property)
	ref, isSub := v.(godot.SubResource)
	if !ok || !isSub {
		return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "property",
			Message: fmt.Sprintf("%s's %q does not hold a sub-resource", who, in.Property), Hint: "list_sub_resources shows which properties hold one"}
	}
	before := map[string]bool{}
	for _, s := range rf.SubResources() {
		before[s.ID()] = true
	}
	c, err := rf.CopySubResource(ref.ID, in.Recursive)
	if err != nil {
		return sdk.Result{}, sdk.Errorf(sdk.CodeInternalError, "report this bug", "copying %s: %v", ref.ID, err)
	}
	holder.Set(in.Property, c.Ref())
	var made []string
	for _, s := range rf.SubResources() {
		if !before[s.ID()] {
			made = append(made, s.ID())
		}
	}
	out := map[string]any{"path": path, "property": in.Property, "old_id": ref.ID, "id": c.ID(), "created": made,
		"old_removed": rf.SubResource(ref.ID) == nil}
	if in.NodePath != "" {
		out["node_path"] = who
	}
	cr, err := call.Workspace().Begin(fmt.Sprintf("Make %s of %s unique", in.Property, who)).Write(path, rf.Bytes(), f.Version).Commit(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	out["commit"] = cr
	return sdk.JSON(out), nil
}

// subResourceTools are the sub-resource tools; they read and write the
// files through the workspace in both modes (the addon has no commands for
// sub-resources), so with an editor attached a scene it has open is
// refused by the workspace rather than changed behind its back.
func subResourceTools() []sdk.Tool {
	shared := " Works on the saved file; with an editor attached, a scene is opened there, saved, edited on its file and reloaded."
	return []sdk.Tool{
		sdk.NewTool("list_sub_resources",
			"List the [sub_resource] sections of a scene or .tres: each one's id, class, properties (nested sub-resources as "+
				"{type, id, properties}) and which node or resource properties use it. Share one by setting another property to "+
				"{\"sub_resource\": \"<id>\"}.",
			sdk.ReadOnly, listSubResources, sdk.AnyMode(), sdk.WithTitle("List sub-resources"), sdk.WithOutputSchema[listSubResult]()),
		sdk.NewTool("get_sub_resource",
			"Read one sub-resource of a scene or .tres by id: its class, properties and users.",
			sdk.ReadOnly, getSubResource, sdk.AnyMode(), sdk.WithTitle("Get sub-resource")),
		sdk.NewTool("set_sub_resource_property",
			"Set one property of a sub-resource, checked against its class and converted to the property's type (a resource-typed one "+
				"also takes an inline resource {\"type\": ..., \"properties\": {...}} or {\"sub_resource\": id}); null or the class default removes it. "+
				"Every user of a shared sub-resource sees the change: make it unique first to change one."+shared,
			sdk.Mutating, setSubResourceProperty, onSceneFile(setSubResourceProperty, func(in *setSubArgs) *sdk.ResPath { return &in.Path }),
			sdk.WithTitle("Set sub-resource property")),
		sdk.NewTool("make_sub_resource_unique",
			"Give one property its own copy of the sub-resource it shares (the editor's Make Unique; recursive copies the "+
				"sub-resources it uses too). The reverse, sharing, is setting the property to {\"sub_resource\": \"<id>\"}."+shared,
			sdk.Mutating, makeSubResourceUnique, onSceneFile(makeSubResourceUnique, func(in *uniqueArgs) *sdk.ResPath { return &in.Path }),
			sdk.WithTitle("Make sub-resource unique")),
	}
}

// onSceneFile is the editor path of a tool that edits a file's
// sub-resources, which the addon has no commands for: a scene is edited
// on its file, which the editor saves first and reloads after
// (sdk.Editor.OnSceneFile), since the workspace never writes a scene the
// editor holds otherwise; a .tres is edited as headless, and the editor
// rescans it.
func onSceneFile[In any](h sdk.Handler[In], path func(*In) *sdk.ResPath) sdk.ToolOption {
	return sdk.EditorFunc(func(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in In) (sdk.Result, error) {
		p := path(&in)
		if !strings.HasSuffix(string(*p), ".tscn") {
			return h(ctx, call, in)
		}
		return ed.OnSceneFile(ctx, string(*p), func(ctx context.Context, scene string) (sdk.Result, error) {
			*p = sdk.ResPath(scene)
			return h(ctx, call, in)
		})
	})
}
