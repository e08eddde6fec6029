package main

import (
	"context"
	"fmt"
	"slices"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
	"github.com/godot-mcp/godot-mcp/sdk/godot/uid"
)

// A MeshLibrary saves each item as item/<id>/<field> properties, items by
// id, each with the seven fields Godot 4.6 writes (name even when empty).
var itemFields = []string{"name", "mesh", "mesh_transform", "mesh_cast_shadow", "shapes", "navigation_mesh", "navigation_mesh_transform", "navigation_layers", "preview"}

// itemRank orders item/N/field keys as MeshLibrary saves them.
func itemRank(k string) int {
	id, field, ok := itemKey(k)
	if !ok {
		return 1 << 30
	}
	return id*16 + slices.Index(itemFields, field)
}

var identity = godot.Transform3D{Basis: godot.Basis{Rows: [3]godot.Vector3{{X: 1}, {Y: 1}, {Z: 1}}}}

type createLibraryArgs struct {
	NodePath  string        `json:"node_path,omitempty" jsonschema:"GridMap node to give the new MeshLibrary (it replaces the one it has)"`
	SavePath  sdk.ResPath   `json:"save_path,omitempty" jsonschema:"res:// .tres path to save the MeshLibrary as (a new file); with node_path the GridMap references it, without it the library lives in the scene" godot:"ext=.tres,new"`
	ScenePath sdk.ScenePath `json:"scene_path,omitempty" jsonschema:"the res:// scene holding node_path (in the editor it becomes the active tab); default the active scene"`
}

func (a createLibraryArgs) scene() sdk.ScenePath { return a.ScenePath }

func (a createLibraryArgs) check() error {
	if a.NodePath == "" && a.SavePath == "" {
		return nodeedit.Invalid("node_path", "pass node_path (a GridMap) and/or save_path (a .tres)", "Provide 'node_path' to assign the MeshLibrary and/or 'save_path' to save it as a .tres.")
	}
	return nil
}

func createLibraryParams(in createLibraryArgs) (map[string]any, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	return map[string]any{"node_path": in.NodePath, "save_path": string(in.SavePath)}, nil
}

func createMeshLibrary(ctx context.Context, call *sdk.Call, in createLibraryArgs) (sdk.Result, error) {
	if err := in.check(); err != nil {
		return sdk.Result{}, err
	}
	ws := call.Workspace()
	out := map[string]any{"node_path": in.NodePath, "library_path": string(in.SavePath), "created": true}
	tx := ws.Begin("Create MeshLibrary")
	var id string
	if in.SavePath != "" {
		id = uid.New().String()
		tx.Write(string(in.SavePath), []byte(fmt.Sprintf("[gd_resource type=\"MeshLibrary\" format=3 uid=%q]\n\n[resource]\n", id)), "")
		out["uid"] = id
	}
	if in.NodePath != "" {
		s, err := nodeedit.OpenScene(ctx, call, string(in.ScenePath))
		if err != nil {
			return sdk.Result{}, err
		}
		g, err := findGridMap(ctx, call, s, in.NodePath, true)
		if err != nil {
			return sdk.Result{}, err
		}
		if in.SavePath == "" {
			if _, err := s.Set(g.sec, "mesh_library", inline("MeshLibrary", nil)); err != nil {
				return sdk.Result{}, err
			}
		} else {
			// The file is new in this action: declare it directly (Set
			// would look for it on disk).
			old, _ := g.sec.Get("mesh_library")
			ref, err := s.Doc.AddExtResource("MeshLibrary", string(in.SavePath), id)
			if err != nil {
				return sdk.Result{}, nodeedit.EditError(err, "save_path")
			}
			g.sec.SetOrdered("mesh_library", ref, nodeedit.DB().PropertyRank("GridMap"))
			if sr, ok := old.(godot.SubResource); ok {
				s.Doc.RemoveSubResources(sr.ID)
			}
		}
		out["scene_path"] = s.Path
		tx.Write(s.Path, s.Bytes(), s.File.Version)
	}
	res, err := tx.Commit(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	out["dry_run"] = res.DryRun
	return sdk.JSON(out), nil
}

type addItemArgs struct {
	NodePath    string         `json:"node_path,omitempty" jsonschema:"GridMap whose mesh_library gets the item (or library_path; exactly one)"`
	LibraryPath sdk.ResPath    `json:"library_path,omitempty" jsonschema:"res:// path of a MeshLibrary .tres to add the item to (or node_path; exactly one)" godot:"ext=.tres,exists"`
	MeshType    string         `json:"mesh_type,omitempty" jsonschema:"primitive Mesh class for a new mesh (BoxMesh, SphereMesh, …), configured with properties (or mesh_path; exactly one)"`
	MeshPath    sdk.ResPath    `json:"mesh_path,omitempty" jsonschema:"res:// path of a Mesh resource of the project (or mesh_type; exactly one)" godot:"exists"`
	ItemID      *int           `json:"item_id,omitempty" jsonschema:"id of the new item (default one past the highest id; 0 for an empty library)" minimum:"0" maximum:"65535"`
	Name        string         `json:"name,omitempty" jsonschema:"the item's name, shown in the editor's GridMap palette"`
	Properties  map[string]any `json:"properties,omitempty" jsonschema:"properties of the new primitive mesh, e.g. {\"size\": [1, 1, 1]}"`
	ScenePath   sdk.ScenePath  `json:"scene_path,omitempty" jsonschema:"the res:// scene holding node_path (in the editor it becomes the active tab); default the active scene"`
}

func (a addItemArgs) scene() sdk.ScenePath { return a.ScenePath }

func (a addItemArgs) check() error {
	switch {
	case a.NodePath != "" && a.LibraryPath != "":
		return nodeedit.Invalid("library_path", "pass node_path (a GridMap) or library_path (a .tres)", "Pass only one of 'node_path' or 'library_path', not both.")
	case a.NodePath == "" && a.LibraryPath == "":
		return nodeedit.Invalid("node_path", "pass node_path (a GridMap) or library_path (a .tres)", "Provide 'node_path' (a GridMap) or 'library_path' (a .tres).")
	case a.MeshType != "" && a.MeshPath != "":
		return nodeedit.Invalid("mesh_type", "pass mesh_type (a primitive like BoxMesh) or mesh_path (a Mesh resource)", "Pass only one of 'mesh_type' or 'mesh_path', not both.")
	case a.MeshType == "" && a.MeshPath == "":
		return nodeedit.Invalid("mesh_type", "pass mesh_type (a primitive like BoxMesh) or mesh_path (a Mesh resource)", "Provide 'mesh_type' (a primitive like BoxMesh) or 'mesh_path' (a Mesh resource).")
	case a.MeshPath != "" && len(a.Properties) > 0:
		return nodeedit.Invalid("properties", "properties configure a new primitive mesh (mesh_type)", "properties apply to mesh_type, not to the mesh resource mesh_path")
	}
	if a.MeshType != "" {
		d := nodeedit.DB()
		if !d.Inherits(a.MeshType, "Mesh") || !d.Instantiable(a.MeshType) {
			return nodeedit.Invalid("mesh_type", "pass a primitive mesh class: BoxMesh, SphereMesh, CylinderMesh, PlaneMesh, …", "Cannot instantiate mesh '%s'.", a.MeshType)
		}
		return nodeedit.CheckProps("properties", a.MeshType, a.Properties)
	}
	return nil
}

func addItemParams(in addItemArgs) (map[string]any, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	props, err := nodeedit.EditorProps("properties", in.MeshType, in.Properties)
	if in.MeshType == "" {
		props, err = map[string]any{}, nil
	}
	if err != nil {
		return nil, err
	}
	var id any
	if in.ItemID != nil {
		id = *in.ItemID
	}
	return map[string]any{"node_path": in.NodePath, "library_path": string(in.LibraryPath), "mesh_type": in.MeshType,
		"mesh_path": string(in.MeshPath), "item_id": id, "name": in.Name, "properties": props}, nil
}

// addMeshLibraryItemEditor forwards the item to the addon, except a new
// mesh whose properties hold an inline resource (its material, say), which
// the addon cannot build: a .tres library is then written as headless and
// the editor rescans it; a library in a scene goes to the scene's file.
func addMeshLibraryItemEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in addItemArgs) (sdk.Result, error) {
	if nodeedit.HasInline(in.Properties) {
		if in.LibraryPath != "" && in.NodePath == "" {
			return addMeshLibraryItem(ctx, call, in)
		}
		return sdk.HandlerOnSceneFile(ctx, call, ed, &in, &in.ScenePath, addMeshLibraryItem)
	}
	params, err := addItemParams(in)
	if err != nil {
		return sdk.Result{}, err
	}
	return forward(ctx, ed, in.ScenePath, "cmd_add_mesh_library_item", params)
}

// library is a MeshLibrary being edited: a section of doc, the file at
// path (a scene holding it as a sub-resource, or its .tres).
type library struct {
	path    string
	version sdk.FileVersion
	doc     *godot.File
	sec     *godot.Section
}

func readLibrary(ctx context.Context, call *sdk.Call, path string) (*library, error) {
	ws := call.Workspace()
	f, err := ws.Read(ctx, path)
	if err != nil {
		return nil, err
	}
	doc, err := ws.ParseFile(ctx, f)
	if err != nil {
		return nil, sdk.Errorf(sdk.CodePreconditionFailed, "fix the file or restore it with godot_undo", "%s cannot be parsed: %v", path, err)
	}
	if doc.IsScene() || doc.ResourceType() != "MeshLibrary" {
		return nil, nodeedit.Invalid("library_path", "pass a MeshLibrary .tres (create_mesh_library makes one)", "'%s' is not a MeshLibrary.", path)
	}
	return &library{path: f.Path, version: f.Version, doc: doc, sec: doc.Resource()}, nil
}

// openLibrary finds the library of node_path (a sub-resource of the scene,
// or the .tres it references) or library_path.
func openLibrary(ctx context.Context, call *sdk.Call, in addItemArgs) (*library, error) {
	if in.LibraryPath != "" {
		return readLibrary(ctx, call, string(in.LibraryPath))
	}
	s, err := nodeedit.OpenScene(ctx, call, string(in.ScenePath))
	if err != nil {
		return nil, err
	}
	g, err := findGridMap(ctx, call, s, in.NodePath, false)
	if err != nil {
		return nil, err
	}
	lib, from := g.get("mesh_library")
	if from != nil {
		return nil, nodeedit.Invalid("node_path", "pass its library as library_path, or attach the Godot editor", "the MeshLibrary of '%s' belongs to the scene it instances", in.NodePath)
	}
	switch v := lib.(type) {
	case godot.SubResource:
		if sr := s.Doc.SubResource(v.ID); sr != nil {
			return &library{path: s.Path, version: s.File.Version, doc: s.Doc, sec: sr.Section}, nil
		}
	case godot.ExtResource:
		if e := s.Doc.ExtResource(v.ID); e != nil {
			return readLibrary(ctx, call, e.Path())
		}
	case nil:
		return nil, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "mesh_library",
			Message: "GridMap has no mesh_library; create one first with create_mesh_library.",
			Hint:    "godot_scene_3d_create_mesh_library {\"node_path\": \"" + in.NodePath + "\"}"}
	}
	return nil, nodeedit.Invalid("node_path", "give the GridMap a MeshLibrary with create_mesh_library", "the mesh_library of '%s' cannot be read headless", in.NodePath)
}

func addMeshLibraryItem(ctx context.Context, call *sdk.Call, in addItemArgs) (sdk.Result, error) {
	if err := in.check(); err != nil {
		return sdk.Result{}, err
	}
	l, err := openLibrary(ctx, call, in)
	if err != nil {
		return sdk.Result{}, err
	}
	ids := itemIDs(l.sec)
	id := 0
	if len(ids) > 0 {
		id = ids[len(ids)-1] + 1
	}
	if in.ItemID != nil {
		id = *in.ItemID
		if slices.Contains(ids, id) {
			return sdk.Result{}, nodeedit.Invalid("item_id", fmt.Sprintf("its items are %s; omit item_id for the next free one", idList(ids)), "Item id %d already exists in the MeshLibrary.", id)
		}
	}
	res := &nodeedit.FileResources{Doc: l.doc, Path: l.path, RefFunc: func(typ, p string) (godot.Value, error) {
		return meshRef(ctx, call, l.doc, p)
	}}
	var mesh godot.Value
	if in.MeshPath != "" {
		mesh, err = meshRef(ctx, call, l.doc, string(in.MeshPath))
	} else {
		mesh, err = nodeedit.DB().CoerceType("Mesh", inline(in.MeshType, in.Properties), res)
	}
	if err != nil {
		res.Discard()
		return sdk.Result{}, nodeedit.Err(err)
	}
	key := func(f string) string { return fmt.Sprintf("item/%d/%s", id, f) }
	for _, kv := range []struct {
		f string
		v godot.Value
	}{
		{"name", godot.String(in.Name)}, {"mesh", mesh}, {"mesh_transform", identity}, {"mesh_cast_shadow", godot.Int(1)},
		{"shapes", godot.Array{}}, {"navigation_mesh_transform", identity}, {"navigation_layers", godot.Int(1)},
	} {
		l.sec.SetOrdered(key(kv.f), kv.v, itemRank)
	}
	cr, err := call.Workspace().Begin(fmt.Sprintf("Add MeshLibrary item %d", id)).Write(l.path, l.doc.Bytes(), l.version).Commit(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(map[string]any{"node_path": in.NodePath, "library_path": string(in.LibraryPath), "item_id": id, "name": in.Name,
		"mesh_type": in.MeshType, "mesh_path": string(in.MeshPath), "file": l.path, "dry_run": cr.DryRun}), nil
}

// meshRef declares the Mesh resource at p in doc.
func meshRef(ctx context.Context, call *sdk.Call, doc *godot.File, p string) (godot.Value, error) {
	fi, err := call.Workspace().Stat(ctx, p)
	if err != nil {
		return nil, err
	}
	if !fi.Exists {
		return nil, nodeedit.NotFound("import the mesh into the project first (godot_project_search_files finds files)", "No resource at '%s'.", p)
	}
	typ, id := nodeedit.ResourceType(ctx, call, p)
	if typ == "" {
		typ = "Mesh"
	}
	if !nodeedit.DB().Inherits(typ, "Mesh") {
		return nil, nodeedit.Invalid("mesh_path", "pass a Mesh resource (.tres, .mesh, .obj); a .glb/.gltf imports as a scene, not a mesh", "'%s' is not a Mesh resource (it is a %s).", p, typ)
	}
	ref, err := doc.AddExtResource(typ, p, id)
	if err != nil {
		return nil, nodeedit.EditError(err, "mesh_path")
	}
	return ref, nil
}
