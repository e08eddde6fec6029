package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

//go:embed bake.gd
var bakeScript []byte

// Where the bake pack puts its scene, script and request.
const (
	bakeScene      = ".godot/godot-mcp/bake.tscn"
	bakeScriptPath = ".godot/godot-mcp/bake.gd"
	bakeConfig     = ".godot/godot-mcp/bake.json"
)

// engine is this process's web runtime, started on the first bake and
// kept for the next ones (starting Chromium costs about a second).
var engine webgodot.Shared

// engineName names the engine that bakes, for the answer.
const engineName = "Godot " + webgodot.RuntimeEngine + " (web runtime)"

type bakeArgs struct {
	NodePath string        `json:"node_path" jsonschema:"path of the NavigationRegion2D/3D from the scene root"`
	PathFrom []float64     `json:"path_from,omitempty" jsonschema:"headless: a point [x, y] or [x, y, z] in world space; with path_to, the engine's path between them over the baked mesh is answered as path"`
	PathTo   []float64     `json:"path_to,omitempty" jsonschema:"headless: the end point of the path check, [x, y] or [x, y, z]"`
	Scene    sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene to edit; default: the active scene (see godot_scene_edit_open_scene). In the editor it is opened first"`
}

// baked is what the engine answered.
type baked struct {
	Error        string      `json:"error"`
	PolygonCount int         `json:"polygon_count"`
	VertexCount  int         `json:"vertex_count"`
	OutlineCount *int        `json:"outline_count"`
	Text         string      `json:"text"`
	Path         [][]float64 `json:"path"`
}

// navResource is the navigation resource of a region, where it lives.
type navResource struct {
	prop    string
	sec     *godot.Section // the resource's properties
	typ     string
	where   string      // "res://scene.tscn::id" or the .tres path
	file    *godot.File // the .tres when external, else nil
	version sdk.FileVersion
}

// regionResource finds the navigation polygon or mesh of the region n
// (class class) of scene s.
func regionResource(ctx context.Context, call *sdk.Call, s *nodeedit.Scene, np string, n *godot.Node, class string) (*navResource, error) {
	r := &navResource{prop: "navigation_polygon", typ: "NavigationPolygon"}
	switch {
	case db().Inherits(class, "NavigationRegion2D"):
	case db().Inherits(class, "NavigationRegion3D"):
		r.prop, r.typ = "navigation_mesh", "NavigationMesh"
	default:
		return nil, nodeedit.Invalid("node_path", "point node_path at a NavigationRegion2D or NavigationRegion3D (godot_navigation_setup_region adds one)",
			"Node '%s' is a %s, not a NavigationRegion2D/NavigationRegion3D.", np, class)
	}
	v, ok := n.Get(r.prop)
	if !ok || v.Kind() == godot.KindNil {
		return nil, nil
	}
	switch ref := v.(type) {
	case godot.SubResource:
		sub := s.Doc.SubResource(ref.ID)
		if sub == nil {
			return nil, nodeedit.Invalid("node_path", "fix the scene (godot_analysis_validate_scene_integrity shows the problem)", "%s refers to a missing sub-resource %q", np, ref.ID)
		}
		r.sec, r.typ, r.where = sub.Section, sub.Type(), s.Path+"::"+ref.ID
		return r, nil
	case godot.ExtResource:
		decl := s.Doc.ExtResource(ref.ID)
		if decl == nil {
			return nil, nodeedit.Invalid("node_path", "fix the scene (godot_analysis_validate_scene_integrity shows the problem)", "%s refers to a missing ext_resource %q", np, ref.ID)
		}
		r.where = decl.Path()
		if !strings.HasSuffix(strings.ToLower(r.where), ".tres") {
			r.file = nil
			return r, nil
		}
		f, err := call.Workspace().Read(ctx, r.where)
		if err != nil {
			return nil, err
		}
		doc, err := call.Workspace().ParseFile(ctx, f)
		if err != nil || doc.Resource() == nil {
			return nil, nodeedit.Invalid("node_path", "fix or restore the file", "%s cannot be parsed: %v", r.where, err)
		}
		r.sec, r.typ, r.file, r.version = doc.Resource(), doc.ResourceType(), doc, f.Version
		return r, nil
	}
	return nil, nodeedit.Invalid("node_path", "assign a NavigationPolygon/NavigationMesh resource", "%s of '%s' is not a resource", r.prop, np)
}

func bakeMesh(ctx context.Context, call *sdk.Call, in bakeArgs) (sdk.Result, error) {
	if (in.PathFrom == nil) != (in.PathTo == nil) {
		return sdk.Result{}, nodeedit.Invalid("path_to", "give both path_from and path_to, or neither", "a path check needs both ends")
	}
	s, err := nodeedit.OpenScene(ctx, call, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	np := nodeedit.OrDot(in.NodePath)
	n, class, err := s.NodeAndClass(ctx, call, np)
	if err != nil {
		return sdk.Result{}, err
	}
	nr, err := regionResource(ctx, call, s, np, n, class)
	if err != nil {
		return sdk.Result{}, err
	}
	if nr == nil {
		prop := "navigation_polygon"
		if db().Inherits(class, "NavigationRegion3D") {
			prop = "navigation_mesh"
		}
		return sdk.Result{}, nodeedit.Invalid(prop, "give the region one: godot_navigation_setup_region makes a region with an empty one, ready to bake",
			"Region has no %s; assign one first.", prop)
	}
	if nr.sec == nil {
		return sdk.Result{}, nodeedit.Invalid("node_path", "save the resource as .tres in the Godot editor (or bake there), or make a new region with godot_navigation_setup_region",
			"the region's %s is the binary file %s, which cannot be written headless", nr.prop, nr.where)
	}
	if nr.typ == "NavigationPolygon" && !hasOutlines(nr.sec) {
		return sdk.Result{}, nodeedit.Invalid("outlines", "give the polygon traversable outlines: godot_navigation_setup_region with outlines [[[x, y], ...]]",
			"the NavigationPolygon of '%s' has no outlines: a 2D bake needs the traversable area", np)
	}
	dim := 2
	if nr.typ == "NavigationMesh" {
		dim = 3
	}
	for _, p := range [][]float64{in.PathFrom, in.PathTo} {
		if p != nil && len(p) != dim {
			return sdk.Result{}, nodeedit.Invalid("path_from", fmt.Sprintf("give %dD points as %d numbers", dim, dim), "a path point has %d numbers for a %dD region", len(p), dim)
		}
	}
	res, err := runBake(ctx, call, s.Path, np, in)
	if err != nil {
		return sdk.Result{}, err
	}
	if res.PolygonCount <= 0 {
		return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "polygon_count",
			Message: fmt.Sprintf("Bake produced no polygons (%d vertices) — no source geometry was parsed.", res.VertexCount),
			Hint: "add MeshInstance3D/StaticBody colliders (3D) or static bodies and polygons inside the outlines (2D) under the region, " +
				"check parsed_geometry_type and the agent radius against the area's size, and retry"}
	}
	saved, err := godot.ParseFile("baked.tres", []byte(res.Text))
	if err != nil || saved.Resource() == nil {
		return sdk.Result{}, &sdk.Error{Code: sdk.CodeToolError, Message: fmt.Sprintf("the engine's baked resource cannot be read: %v", err), Hint: "report this; bake in the Godot editor meanwhile"}
	}
	apply(nr.sec, saved.Resource(), nr.typ)
	out := map[string]any{"node_path": np, "baked": true, "polygon_count": res.PolygonCount, "vertex_count": res.VertexCount,
		"resource": nr.where, "engine": engineName}
	if res.OutlineCount != nil {
		out["outline_count"] = *res.OutlineCount
	}
	if in.PathFrom != nil {
		out["path"] = res.Path
		out["path_found"] = pathReaches(res.Path, in.PathTo)
	}
	name := "Bake navigation mesh of " + n.Name()
	if nr.file != nil {
		if _, err := call.Workspace().Begin(name).Write(nr.where, nr.file.Bytes(), nr.version).Commit(ctx); err != nil {
			return sdk.Result{}, err
		}
		out["scene_path"] = s.Path
		return sdk.JSON(out), nil
	}
	s.Edited = true
	return s.CommitAnswer(name, out)
}

func hasOutlines(sec *godot.Section) bool {
	v, ok := sec.Get("outlines")
	if !ok {
		return false
	}
	a, ok := v.(godot.Array)
	return ok && len(a.Items) > 0
}

// pathReaches reports whether a path ends near its target (the engine
// answers the closest reachable point when the target is off the mesh).
func pathReaches(path [][]float64, to []float64) bool {
	if len(path) == 0 {
		return false
	}
	last := path[len(path)-1]
	d := 0.0
	for i := range to {
		if i < len(last) {
			d += (last[i] - to[i]) * (last[i] - to[i])
		}
	}
	return d < 1
}

// apply makes dst hold exactly the properties of the engine's saved
// resource src, in the engine's order.
func apply(dst, src *godot.Section, typ string) {
	keep := map[string]bool{}
	for _, p := range src.Properties() {
		keep[p.Key] = true
	}
	for _, k := range dst.Keys() {
		if !keep[k] {
			dst.Clear(k)
		}
	}
	rank := db().PropertyRank(typ)
	for _, p := range src.Properties() {
		dst.SetOrdered(p.Key, p.Value, rank)
	}
}

// runBake bakes the region np of scene (a res:// path, as saved) in the
// engine, from the project's files.
func runBake(ctx context.Context, call *sdk.Call, scene, np string, in bakeArgs) (*baked, error) {
	proj, err := call.Project()
	if err != nil {
		return nil, err
	}
	files, err := webgodot.ReadGameFiles(proj.Root(), "")
	if err != nil {
		return nil, err
	}
	kept := files[:0]
	for _, f := range files {
		switch {
		case f.Path == "override.cfg", f.Path == webgodot.ProbePath:
			continue
		case f.Path == "project.godot":
			f.Data = webgodot.WithoutAutoloads(f.Data)
		}
		kept = append(kept, f)
	}
	kept = placeholders(kept)
	cfg := map[string]any{"scene": scene, "node": np}
	if in.PathFrom != nil {
		cfg["from"], cfg["to"] = in.PathFrom, in.PathTo
	}
	cfgJSON, _ := json.Marshal(cfg)
	tscn := "[gd_scene load_steps=2 format=3]\n\n[ext_resource type=\"Script\" path=\"res://" + bakeScriptPath + "\" id=\"1\"]\n\n" +
		"[node name=\"GodotMcpBake\" type=\"Node\"]\nscript = ExtResource(\"1\")\n"
	kept = append(kept,
		webgodot.PackFile{Path: bakeScriptPath, Data: bakeScript},
		webgodot.PackFile{Path: bakeScene, Data: []byte(tscn)},
		webgodot.PackFile{Path: bakeConfig, Data: cfgJSON},
		webgodot.PackFile{Path: "override.cfg", Data: []byte("[application]\n\nrun/main_scene=\"res://" + bakeScene + "\"\n")})
	r, err := runner()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	call.Progress(0, 0, "baking in "+engineName)
	result, err := r.Run(ctx, kept)
	if err != nil {
		return nil, err
	}
	for _, l := range result.Lines {
		if j, ok := strings.CutPrefix(l.Text, "@@bake "); ok && l.Stream == webgodot.Stdout {
			var b baked
			if err := json.Unmarshal([]byte(j), &b); err != nil {
				return nil, &sdk.Error{Code: sdk.CodeToolError, Message: "the engine's bake answer cannot be read: " + err.Error(), Hint: "report this; bake in the Godot editor meanwhile"}
			}
			if b.Error != "" {
				return nil, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "node_path", Message: "the engine could not bake: " + b.Error,
					Hint: "check that the scene loads (godot_analysis_validate_scene_integrity) and that node_path is the region"}
			}
			return &b, nil
		}
	}
	var errs []string
	for _, l := range result.Lines {
		if len(errs) < 80 {
			errs = append(errs, l.Text)
		}
	}
	return nil, &sdk.Error{Code: sdk.CodeToolError, Message: "the engine ended without a bake: " + strings.Join(errs, " | "),
		Hint: "check that the scene loads in Godot 4.6 (godot_analysis_validate_scene_integrity), or bake in the Godot editor"}
}

// placeholders stands in for imported files whose imported data the
// project lacks (a project never opened in the editor, or one whose
// .godot folder is not kept): the engine would fail to load the scenes
// using them. Each .import whose target is missing is remapped to a
// placeholder resource of its type (textures keep no pixels, meshes no
// surfaces: neither is navigation source geometry the bake needs).
func placeholders(files []webgodot.PackFile) []webgodot.PackFile {
	have := map[string]bool{}
	for _, f := range files {
		have["res://"+f.Path] = true
	}
	out := files[:0:0]
	var extra []webgodot.PackFile
	for _, f := range files {
		src, ok := strings.CutSuffix(f.Path, ".import")
		if !ok {
			out = append(out, f)
			continue
		}
		cfg, err := godot.ParseConfig(f.Path, f.Data)
		if err != nil {
			out = append(out, f)
			continue
		}
		target, _ := cfg.Get("remap", "path")
		typ, _ := cfg.Get("remap", "type")
		if t, ok := target.(godot.String); !ok || have[string(t)] {
			out = append(out, f)
			continue
		}
		stub := ".godot/godot-mcp/stub/" + strings.NewReplacer("/", "_", ".", "_").Replace(src) + ".tres"
		t, _ := typ.(godot.String)
		extra = append(extra,
			webgodot.PackFile{Path: stub, Data: []byte(placeholder(string(t), src))},
			webgodot.PackFile{Path: f.Path, Data: fmt.Appendf(nil, "[remap]\n\nimporter=\"godot_mcp_placeholder\"\ntype=%q\npath=%q\n", placeholderType(string(t), src), "res://"+stub)})
	}
	return append(out, extra...)
}

// placeholderType is the class of the placeholder for an imported file of
// type typ.
func placeholderType(typ, src string) string {
	switch {
	case strings.Contains(typ, "Texture") && strings.Contains(typ, "3D"):
		return "PlaceholderTexture3D"
	case strings.Contains(typ, "Texture"), typ == "":
		return "PlaceholderTexture2D"
	case strings.Contains(typ, "Mesh"):
		return "PlaceholderMesh"
	case typ == "PackedScene":
		return "PackedScene"
	case strings.HasPrefix(typ, "AudioStream"):
		return "AudioStreamWAV"
	case strings.Contains(typ, "Font"):
		return "FontFile"
	}
	return typ
}

func placeholder(typ, src string) string {
	pt := placeholderType(typ, src)
	if pt == "PackedScene" {
		name := strings.TrimSuffix(path.Base(src), path.Ext(src))
		return fmt.Sprintf("[gd_scene format=3]\n\n[node name=%q type=\"Node3D\"]\n", name)
	}
	if !db().Instantiable(pt) {
		pt = "Resource"
	}
	return fmt.Sprintf("[gd_resource type=%q format=3]\n\n[resource]\n", pt)
}

// runner returns the process's engine runner, started on first use; a
// machine without Chromium or the engine package gets PRECONDITION_FAILED.
func runner() (*webgodot.Runner, error) {
	if r := engine.Started(); r != nil {
		return r, nil // Locate looks on disk: only before the first start
	}
	setup, err := webgodot.Locate()
	if err != nil {
		return nil, &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "engine",
			Message: "baking headless needs the Godot web runtime, which is not installed here: " + err.Error(),
			Hint:    "install Chromium and the engine package (docs/engine.md), or attach the Godot editor and bake there"}
	}
	return engine.Get(setup)
}

func bakeMeshEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in bakeArgs) (sdk.Result, error) {
	if in.PathFrom != nil || in.PathTo != nil {
		return sdk.Result{}, &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "headless",
			Message: "the path check runs the baked mesh in the headless engine",
			Hint:    "bake without path_from/path_to in the editor, and test paths in the running game"}
	}
	if err := ed.OpenScene(ctx, string(in.Scene)); err != nil {
		return sdk.Result{}, err
	}
	return ed.Forward(ctx, "cmd_bake_navigation_mesh", map[string]any{"node_path": nodeedit.OrDot(in.NodePath)})
}

type getRegionArgs struct {
	NodePath string        `json:"node_path" jsonschema:"path of the NavigationRegion2D/3D from the scene root"`
	Scene    sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene to read; default: the active scene. In the editor it is opened first"`
}

func getRegion(ctx context.Context, call *sdk.Call, in getRegionArgs) (sdk.Result, error) {
	s, err := nodeedit.OpenScene(ctx, call, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	np := nodeedit.OrDot(in.NodePath)
	sec, tn, err := s.Lookup(np)
	if err != nil {
		return sdk.Result{}, err
	}
	class := ""
	if sec != nil {
		class = sec.Type()
	}
	if tn != nil && tn.Class() != "" {
		class = tn.Class()
	}
	out := map[string]any{"node_path": np, "region_type": class, "has_polygon": false, "outline_count": 0, "vertex_count": 0, "polygon_count": 0, "scene_path": s.Path}
	if sec == nil {
		// A node of an instanced scene this scene does not override.
		if !db().Inherits(class, "NavigationRegion2D") && !db().Inherits(class, "NavigationRegion3D") {
			return sdk.Result{}, nodeedit.Invalid("node_path", "point node_path at a NavigationRegion2D or NavigationRegion3D",
				"Node '%s' is a %s, not a NavigationRegion2D/NavigationRegion3D.", np, class)
		}
		out["note"] = "the region comes from an instanced scene; read it there"
		return sdk.JSON(out), nil
	}
	nr, err := regionResource(ctx, call, s, np, sec, class)
	if err != nil {
		return sdk.Result{}, err
	}
	if nr == nil {
		return sdk.JSON(out), nil
	}
	out["has_polygon"], out["resource"] = true, nr.where
	if nr.sec == nil {
		out["note"] = "the resource is a binary file; its counts are read in the Godot editor"
		return sdk.JSON(out), nil
	}
	count := func(k string) int {
		v, ok := nr.sec.Get(k)
		if !ok {
			return 0
		}
		switch x := v.(type) {
		case godot.Array:
			return len(x.Items)
		case godot.PackedVector2Array:
			return len(x)
		case godot.PackedVector3Array:
			return len(x)
		}
		return 0
	}
	out["vertex_count"], out["polygon_count"] = count("vertices"), count("polygons")
	if nr.typ == "NavigationPolygon" {
		out["outline_count"] = count("outlines")
	}
	params := map[string]any{}
	for _, p := range nr.sec.Properties() {
		switch p.Key {
		case "vertices", "polygons", "outlines":
			continue
		}
		params[p.Key] = godot.ToJSON(p.Value)
	}
	out["bake_parameters"] = params
	return sdk.JSON(out), nil
}

func getRegionEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in getRegionArgs) (sdk.Result, error) {
	if err := ed.OpenScene(ctx, string(in.Scene)); err != nil {
		return sdk.Result{}, err
	}
	var out map[string]any
	if err := ed.Query(ctx, "cmd_get_navigation_region", map[string]any{"node_path": nodeedit.OrDot(in.NodePath)}, &out); err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(out), nil
}
