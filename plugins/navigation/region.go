package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

type setupRegionArgs struct {
	ParentPath     string         `json:"parent_path" jsonschema:"path of the parent node from the scene root (\".\" is the root)"`
	RegionType     string         `json:"region_type,omitempty" jsonschema:"NavigationRegion2D or NavigationRegion3D; default NavigationRegion2D, or NavigationRegion3D when the parent is a Node3D"`
	Name           string         `json:"name,omitempty" jsonschema:"name of the new region; default region_type (a clash gets the next free name)"`
	Properties     map[string]any `json:"properties,omitempty" jsonschema:"region properties as JSON: enabled, navigation_layers, use_edge_connections, enter_cost, travel_cost"`
	MeshProperties map[string]any `json:"mesh_properties,omitempty" jsonschema:"bake parameters of the new NavigationPolygon (agent_radius, cell_size, parsed_geometry_type, source_geometry_mode, ...) or NavigationMesh (agent_radius, agent_height, cell_size, cell_height, geometry_parsed_geometry_type, ...)"`
	Outlines       [][][]float64  `json:"outlines,omitempty" jsonschema:"2D: the polygon's traversable outlines, each a list of [x, y] points in the region's space, e.g. [[[0,0],[800,0],[800,600],[0,600]]]; the bake cuts obstacles out of them"`
	Scene          sdk.ScenePath  `json:"scene,omitempty" jsonschema:"res:// path of the scene to edit; default: the active scene (see godot_scene_edit_open_scene). In the editor it is opened first"`
}

// kind picks the 2D or 3D class: the one given, else 3D under a 3D
// parent.
func kind(given, base string, parent3D bool) (string, error) {
	if given == "" {
		if parent3D {
			return base + "3D", nil
		}
		return base + "2D", nil
	}
	return given, checkClass(strings.ToLower(strings.TrimPrefix(base, "Navigation"))+"_type", given, base+"2D", base+"3D")
}

func (in setupRegionArgs) meshType(region string) (string, string) {
	if region == "NavigationRegion3D" {
		return "navigation_mesh", "NavigationMesh"
	}
	return "navigation_polygon", "NavigationPolygon"
}

// outlinesValue is the outlines property as the engine saves it:
// Array[PackedVector2Array]([...]).
func outlinesValue(outlines [][][]float64) (godot.Value, error) {
	arr := godot.Array{Type: &godot.TypeRef{Name: "PackedVector2Array"}}
	for i, o := range outlines {
		if len(o) < 3 {
			return nil, nodeedit.Invalid("outlines", "give each outline at least three [x, y] points", "outline %d has %d points", i, len(o))
		}
		var pts godot.PackedVector2Array
		for _, p := range o {
			if len(p) != 2 {
				return nil, nodeedit.Invalid("outlines", "write each point as [x, y]", "outline %d has a point with %d numbers", i, len(p))
			}
			pts = append(pts, godot.Vector2{X: float64(float32(p[0])), Y: float64(float32(p[1]))})
		}
		arr.Items = append(arr.Items, pts)
	}
	return arr, nil
}

func setupRegion(ctx context.Context, call *sdk.Call, in setupRegionArgs) (sdk.Result, error) {
	s, err := nodeedit.OpenScene(ctx, call, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	parent := nodeedit.OrDot(in.ParentPath)
	if _, _, err := s.Lookup(parent); err != nil {
		return sdk.Result{}, err
	}
	rt, err := kind(in.RegionType, "NavigationRegion", is3D(ctx, call, s, parent))
	if err != nil {
		return sdk.Result{}, err
	}
	if in.Outlines != nil && rt != "NavigationRegion2D" {
		return sdk.Result{}, nodeedit.Invalid("outlines", "outlines are for NavigationRegion2D; a 3D mesh is baked from the geometry under the region", "%s has no outlines", rt)
	}
	name := in.Name
	if name == "" {
		name = rt
	}
	n, err := s.CreateNode(parent, name, rt)
	if err != nil {
		return sdk.Result{}, err
	}
	prop, mt := in.meshType(rt)
	if _, err := s.Set(n, prop, map[string]any{"type": mt, "properties": orEmpty(in.MeshProperties)}); err != nil {
		return sdk.Result{}, err
	}
	if in.Outlines != nil {
		v, err := outlinesValue(in.Outlines)
		if err != nil {
			return sdk.Result{}, err
		}
		ref, _ := n.Get(prop)
		sub := s.Doc.SubResource(ref.(godot.SubResource).ID)
		sub.SetOrdered("outlines", v, db().PropertyRank(mt))
	}
	props, err := s.SetAll(n, orEmpty(in.Properties))
	if err != nil {
		return sdk.Result{}, err
	}
	ref, _ := n.Get(prop)
	out := map[string]any{"node_path": n.Path(), "region_type": rt, "created": true, "properties": props,
		prop: nodeedit.ValueJSON(s.Doc, s.Path, ref, 1)}
	return s.CommitAnswer("Add "+n.Name(), out)
}

func setupRegionEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in setupRegionArgs) (sdk.Result, error) {
	// mesh_properties and outlines fill the region's new
	// NavigationPolygon/NavigationMesh, which the addon makes empty; like
	// an inline property, the scene's file gets them.
	if in.MeshProperties != nil || in.Outlines != nil || nodeedit.HasInline(in.Properties) {
		return sdk.HandlerOnSceneFile(ctx, call, ed, &in, &in.Scene, setupRegion)
	}
	parent := nodeedit.OrDot(in.ParentPath)
	rt, err := kind(in.RegionType, "NavigationRegion", db().Inherits(savedClass(ctx, call, in.Scene, parent), "Node3D"))
	if err != nil {
		return sdk.Result{}, err
	}
	name := in.Name
	if name == "" {
		name = rt
	}
	if err := ed.OpenScene(ctx, string(in.Scene)); err != nil {
		return sdk.Result{}, err
	}
	res, err := ed.Forward(ctx, "cmd_setup_navigation_region", map[string]any{"parent_path": parent, "region_type": rt, "name": name, "properties": orEmpty(in.Properties)})
	if out, ok := res.Structured.(map[string]any); ok && err == nil && ed.DryRun() {
		// The fields headless answers, as far as the arguments and the
		// scene's saved classes tell: the new region and its empty mesh.
		prop, mt := in.meshType(rt)
		out["node_path"], out["region_type"], out["properties"] = godot.JoinNodePath(nodeedit.NormalizePath(parent), name), rt, orEmpty(in.Properties)
		out[prop] = map[string]any{"type": mt}
	}
	return res, err
}

type setupAgentArgs struct {
	ParentPath string         `json:"parent_path" jsonschema:"path of the parent node (usually the CharacterBody that moves) from the scene root"`
	AgentType  string         `json:"agent_type,omitempty" jsonschema:"NavigationAgent2D or NavigationAgent3D; default NavigationAgent2D, or NavigationAgent3D when the parent is a Node3D"`
	Name       string         `json:"name,omitempty" jsonschema:"name of the new agent; default agent_type (a clash gets the next free name)"`
	Properties map[string]any `json:"properties,omitempty" jsonschema:"agent properties as JSON: radius, height, path_desired_distance, target_desired_distance, max_speed, avoidance_enabled, navigation_layers, path_postprocessing, ..."`
	Scene      sdk.ScenePath  `json:"scene,omitempty" jsonschema:"res:// path of the scene to edit; default: the active scene (see godot_scene_edit_open_scene). In the editor it is opened first"`
}

func setupAgent(ctx context.Context, call *sdk.Call, in setupAgentArgs) (sdk.Result, error) {
	s, err := nodeedit.OpenScene(ctx, call, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	parent := nodeedit.OrDot(in.ParentPath)
	if _, _, err := s.Lookup(parent); err != nil {
		return sdk.Result{}, err
	}
	at, err := kind(in.AgentType, "NavigationAgent", is3D(ctx, call, s, parent))
	if err != nil {
		return sdk.Result{}, err
	}
	name := in.Name
	if name == "" {
		name = at
	}
	n, err := s.CreateNode(parent, name, at)
	if err != nil {
		return sdk.Result{}, err
	}
	props, err := s.SetAll(n, orEmpty(in.Properties))
	if err != nil {
		return sdk.Result{}, err
	}
	return s.CommitAnswer("Add "+n.Name(), map[string]any{"node_path": n.Path(), "agent_type": at, "created": true, "properties": props})
}

func setupAgentEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in setupAgentArgs) (sdk.Result, error) {
	if nodeedit.HasInline(in.Properties) {
		return sdk.HandlerOnSceneFile(ctx, call, ed, &in, &in.Scene, setupAgent)
	}
	parent := nodeedit.OrDot(in.ParentPath)
	at, err := kind(in.AgentType, "NavigationAgent", db().Inherits(savedClass(ctx, call, in.Scene, parent), "Node3D"))
	if err != nil {
		return sdk.Result{}, err
	}
	name := in.Name
	if name == "" {
		name = at
	}
	if err := ed.OpenScene(ctx, string(in.Scene)); err != nil {
		return sdk.Result{}, err
	}
	res, err := ed.Forward(ctx, "cmd_setup_navigation_agent", map[string]any{"parent_path": parent, "agent_type": at, "name": name, "properties": orEmpty(in.Properties)})
	if out, ok := res.Structured.(map[string]any); ok && err == nil && ed.DryRun() {
		// The fields headless answers, as far as the arguments and the
		// scene's saved classes tell.
		out["node_path"], out["agent_type"], out["properties"] = godot.JoinNodePath(nodeedit.NormalizePath(parent), name), at, orEmpty(in.Properties)
	}
	return res, err
}

type setLayersArgs struct {
	NodePath   string        `json:"node_path" jsonschema:"path from the scene root of a node with navigation_layers: a NavigationRegion, NavigationAgent or NavigationLink (2D or 3D)"`
	Layers     []int         `json:"layers,omitempty" jsonschema:"1-based navigation layer indices (1..32), e.g. [1, 3] (bitmask 5); [] clears"`
	LayerNames []string      `json:"layer_names,omitempty" jsonschema:"the layers by the project's names (layer_names/2d_navigation/layer_N or 3d_navigation in project.godot), added to layers"`
	Scene      sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene to edit; default: the active scene (see godot_scene_edit_open_scene). In the editor it is opened first"`
}

// mask resolves indices and names (of the dimension dim, "" for both) to
// the bitmask.
func (in setLayersArgs) mask(ctx context.Context, call *sdk.Call, dim string) (int64, error) {
	if in.Layers == nil && in.LayerNames == nil {
		return 0, nodeedit.Invalid("layers", "pass layers (1-based indices, [] to clear) or layer_names", "'layers' must be an array of bit indices in [1, 32]")
	}
	var m int64
	for _, i := range in.Layers {
		if i < 1 || i > 32 {
			return 0, nodeedit.Invalid("layers", "layers are 1-based: 1..32", "'layers' must be an array of bit indices in [1, 32]; got %d", i)
		}
		m |= 1 << (i - 1)
	}
	if len(in.LayerNames) == 0 {
		return m, nil
	}
	known := map[string][]int{}
	if f, err := call.Workspace().Read(ctx, "res://project.godot"); err == nil {
		if p, err := godot.ParseProject("project.godot", f.Data); err == nil {
			for _, d := range []string{"2d", "3d"} {
				if dim != "" && !strings.EqualFold(d, dim) {
					continue
				}
				for i := 1; i <= 32; i++ {
					if v, ok := p.Setting(fmt.Sprintf("layer_names/%s_navigation/layer_%d", d, i)); ok {
						if s, ok := v.(godot.String); ok && s != "" && !slices.Contains(known[string(s)], i) {
							known[string(s)] = append(known[string(s)], i)
						}
					}
				}
			}
		}
	}
	for _, name := range in.LayerNames {
		bits := known[name]
		switch len(bits) {
		case 1:
			m |= 1 << (bits[0] - 1)
		case 0:
			var have []string
			for k := range known {
				have = append(have, k)
			}
			slices.Sort(have)
			hint := "the project names no navigation layers; name them in Project Settings > Layer Names > 2D/3D Navigation, or pass indices"
			if len(have) > 0 {
				hint = "the project's navigation layer names are " + strings.Join(have, ", ")
			}
			return 0, nodeedit.Invalid("layer_names", hint, "no navigation layer is named %q", name)
		default:
			return 0, nodeedit.Invalid("layer_names", "pass scene so the node's dimension picks the 2D or 3D name, or give the index", "layer name %q names layers %v in 2D and 3D", name, bits)
		}
	}
	return m, nil
}

func dimOf(class string) string {
	switch {
	case db().Inherits(class, "Node3D"), strings.HasSuffix(class, "3D"):
		return "3D"
	case db().Inherits(class, "Node2D"), strings.HasSuffix(class, "2D"):
		return "2D"
	}
	return ""
}

func setLayers(ctx context.Context, call *sdk.Call, in setLayersArgs) (sdk.Result, error) {
	s, err := nodeedit.OpenScene(ctx, call, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	np := nodeedit.OrDot(in.NodePath)
	n, class, err := s.NodeAndClass(ctx, call, np)
	if err != nil {
		return sdk.Result{}, err
	}
	if _, ok := db().Property(class, "navigation_layers"); !ok {
		return sdk.Result{}, nodeedit.Invalid("node_path", "point node_path at a NavigationRegion, NavigationAgent or NavigationLink", "Node has no 'navigation_layers' property (%s).", class)
	}
	m, err := in.mask(ctx, call, dimOf(class))
	if err != nil {
		return sdk.Result{}, err
	}
	if _, err := s.Set(n, "navigation_layers", float64(m)); err != nil {
		return sdk.Result{}, err
	}
	return s.CommitAnswer("Set navigation layers on "+n.Name(), map[string]any{"node_path": np, "navigation_layers": m})
}

func setLayersEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in setLayersArgs) (sdk.Result, error) {
	m, err := in.mask(ctx, call, dimOf(savedClass(ctx, call, in.Scene, in.NodePath)))
	if err != nil {
		return sdk.Result{}, err
	}
	layers := []int{}
	for i := 0; i < 32; i++ {
		if m&(1<<i) != 0 {
			layers = append(layers, i+1)
		}
	}
	if err := ed.OpenScene(ctx, string(in.Scene)); err != nil {
		return sdk.Result{}, err
	}
	return ed.Forward(ctx, "cmd_set_navigation_layers", map[string]any{"node_path": nodeedit.OrDot(in.NodePath), "layers": layers})
}
