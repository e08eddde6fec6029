package main

import (
	"context"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

type meshInstanceArgs struct {
	ParentPath     string         `json:"parent_path" jsonschema:"path of the parent node relative to the scene root (\".\" is the root)"`
	MeshType       string         `json:"mesh_type,omitempty" jsonschema:"primitive Mesh class for a new mesh: BoxMesh (the default), SphereMesh, CylinderMesh, CapsuleMesh, PlaneMesh, PrismMesh, TorusMesh, QuadMesh, TextMesh, …"`
	MeshPath       sdk.ResPath    `json:"mesh_path,omitempty" jsonschema:"instead of mesh_type: res:// path of a Mesh resource of the project (.tres, .mesh, .obj)" godot:"exists"`
	Name           string         `json:"name,omitempty" jsonschema:"name of the new node (default MeshInstance3D; a clash gets Godot's next free name)"`
	Properties     map[string]any `json:"properties,omitempty" jsonschema:"properties of the new primitive mesh, e.g. {\"size\": [2, 1, 2]} for a BoxMesh, {\"radius\": 0.5, \"height\": 1} for a SphereMesh"`
	Material       map[string]any `json:"material,omitempty" jsonschema:"a new material as the node's material_override: StandardMaterial3D properties such as {\"albedo_color\": \"#ff8800\", \"metallic\": 0.2, \"roughness\": 0.6}, or an inline resource {\"type\": \"ORMMaterial3D\", \"properties\": {…}} (with an editor attached, written to the saved scene file, which the editor reloads)"`
	MaterialPath   sdk.ResPath    `json:"material_path,omitempty" jsonschema:"instead of material: res:// path of a Material resource (.tres, .material) to use as material_override" godot:"exists"`
	NodeProperties map[string]any `json:"node_properties,omitempty" jsonschema:"properties of the MeshInstance3D itself, e.g. {\"position\": [0, 1, 0], \"rotation_degrees\": [0, 45, 0], \"cast_shadow\": \"SHADOW_CASTING_SETTING_OFF\"}"`
	ScenePath      sdk.ScenePath  `json:"scene_path,omitempty" jsonschema:"the res:// scene to edit (in the editor it becomes the active tab); default the active scene"`
}

// check validates the arguments the same way in both modes and returns
// the mesh class.
func (in meshInstanceArgs) check() (string, error) {
	if in.MeshPath != "" && in.MeshType != "" {
		return "", nodeedit.Invalid("mesh_type", "pass mesh_type for a new primitive mesh or mesh_path for a mesh resource", "Pass only one of 'mesh_type' or 'mesh_path', not both.")
	}
	if in.MeshPath != "" && len(in.Properties) > 0 {
		return "", nodeedit.Invalid("properties", "properties configure a new primitive mesh; edit the mesh resource itself (godot_resources_edit_set_resource_property)", "properties apply to mesh_type, not to the mesh resource mesh_path")
	}
	if in.Material != nil && in.MaterialPath != "" {
		return "", nodeedit.Invalid("material", "pass material for a new material or material_path for an existing one", "Pass only one of 'material' or 'material_path', not both.")
	}
	if in.MeshPath != "" {
		return "", nodeedit.CheckProps("node_properties", "MeshInstance3D", in.NodeProperties)
	}
	mt := in.MeshType
	if mt == "" {
		mt = "BoxMesh"
	}
	d := nodeedit.DB()
	if !d.Exists(mt) || !d.Inherits(mt, "Mesh") || !d.Instantiable(mt) {
		hint := "pass a primitive mesh class: BoxMesh, SphereMesh, CylinderMesh, CapsuleMesh, PlaneMesh, PrismMesh, TorusMesh, QuadMesh"
		if s := d.Suggest(mt); s != "" && d.Inherits(s, "Mesh") {
			hint = "did you mean " + s + "? " + hint
		}
		return "", nodeedit.Invalid("mesh_type", hint, "'%s' is not an instantiable Mesh class", mt)
	}
	if err := nodeedit.CheckProps("properties", mt, in.Properties); err != nil {
		return "", err
	}
	if err := nodeedit.CheckProps("node_properties", "MeshInstance3D", in.NodeProperties); err != nil {
		return "", err
	}
	if in.Material != nil && !isInline(in.Material) {
		if err := nodeedit.CheckProps("material", "StandardMaterial3D", in.Material); err != nil {
			return "", err
		}
	}
	return mt, nil
}

// material is the material_override value, or nil for none.
func (in meshInstanceArgs) material() any {
	switch {
	case in.MaterialPath != "":
		return string(in.MaterialPath)
	case in.Material == nil:
		return nil
	case isInline(in.Material):
		return in.Material
	}
	return inline("StandardMaterial3D", in.Material)
}

func addMeshInstance(ctx context.Context, call *sdk.Call, in meshInstanceArgs) (sdk.Result, error) {
	mt, err := in.check()
	if err != nil {
		return sdk.Result{}, err
	}
	s, err := nodeedit.OpenScene(ctx, call, string(in.ScenePath))
	if err != nil {
		return sdk.Result{}, err
	}
	name := in.Name
	if name == "" {
		name = "MeshInstance3D"
	}
	n, err := s.CreateNode(in.ParentPath, name, "MeshInstance3D")
	if err != nil {
		return sdk.Result{}, err
	}
	var mesh any = inline(mt, in.Properties)
	out := map[string]any{"node_path": n.Path(), "mesh_type": mt, "created": true}
	if in.MeshPath != "" {
		mesh = string(in.MeshPath)
		out["mesh_type"] = ""
		out["mesh_path"] = string(in.MeshPath)
	}
	if _, err := s.Set(n, "mesh", mesh); err != nil {
		return sdk.Result{}, err
	}
	if m := in.material(); m != nil {
		if _, err := s.Set(n, "material_override", m); err != nil {
			return sdk.Result{}, err
		}
	}
	if err := s.SetProps(n, "MeshInstance3D", in.NodeProperties); err != nil {
		return sdk.Result{}, err
	}
	return s.CommitAnswer("Add "+n.Name(), out)
}

// addMeshInstanceEditor is cmd_add_mesh_instance for a primitive mesh; a
// mesh resource is cmd_create_node and the mesh set by path (the addon
// makes only primitives). The material and node properties follow as
// cmd_set_node_property on the new node, the material by path: the addon
// cannot build one from properties.
func addMeshInstanceEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in meshInstanceArgs) (sdk.Result, error) {
	mt, err := in.check()
	if err != nil {
		return sdk.Result{}, err
	}
	// material builds a new material, and properties may hold inline
	// resources: the addon takes resources as paths only, so the scene's
	// file gets them.
	if in.Material != nil || nodeedit.HasInline(in.Properties) || nodeedit.HasInline(in.NodeProperties) {
		return sdk.HandlerOnSceneFile(ctx, call, ed, &in, &in.ScenePath, addMeshInstance)
	}
	props, err := nodeedit.EditorProps("properties", mt, in.Properties)
	if err != nil {
		return sdk.Result{}, err
	}
	nodeProps, err := nodeedit.EditorProps("node_properties", "MeshInstance3D", in.NodeProperties)
	if err != nil {
		return sdk.Result{}, err
	}
	if err := ed.OpenScene(ctx, string(in.ScenePath)); err != nil {
		return sdk.Result{}, err
	}
	name := in.Name
	if name == "" {
		name = "MeshInstance3D"
	}
	parent := nodeedit.OrDot(in.ParentPath)
	out := map[string]any{}
	if in.MeshPath != "" {
		mt = ""
		if err := ed.Apply(ctx, "cmd_create_node", map[string]any{"node_type": "MeshInstance3D", "parent_path": parent, "name": name}, &out); err != nil {
			return sdk.Result{}, err
		}
		nodeProps["mesh"] = string(in.MeshPath)
		out["mesh_path"] = string(in.MeshPath)
	} else if err := ed.Apply(ctx, "cmd_add_mesh_instance", map[string]any{"parent_path": parent, "mesh_type": mt, "name": name, "properties": props}, &out); err != nil {
		return sdk.Result{}, err
	}
	if in.MaterialPath != "" {
		nodeProps["material_override"] = string(in.MaterialPath)
	}
	np := created(out, parent, name)
	if err := setNodeProps(ctx, ed, np, "MeshInstance3D", nodeProps); err != nil {
		return sdk.Result{}, err
	}
	out["node_path"], out["mesh_type"], out["created"] = np, mt, !ed.DryRun()
	return sdk.JSON(out), nil
}

// created is the new node's path from the addon's answer (node_path), or
// where it goes when the answer has none (a dry run).
func created(out map[string]any, parent, name string) string {
	if p, ok := out["node_path"].(string); ok && p != "" {
		return p
	}
	return nodeedit.ChildPath(parent, name)
}

// setNodeProps sets props on the node at np in the editor, one
// cmd_set_node_property each, in the order Godot saves them.
func setNodeProps(ctx context.Context, ed *sdk.Editor, np, class string, props map[string]any) error {
	for _, k := range nodeedit.SortedKeys(class, props) {
		if err := ed.Apply(ctx, "cmd_set_node_property", map[string]any{"node_path": np, "property": k, "value": props[k]}, nil); err != nil {
			return err
		}
	}
	return nil
}

type cameraArgs struct {
	ParentPath  string         `json:"parent_path" jsonschema:"path of the parent node relative to the scene root (\".\" is the root)"`
	Name        string         `json:"name,omitempty" jsonschema:"name of the new camera (default Camera3D)"`
	MakeCurrent *bool          `json:"make_current,omitempty" jsonschema:"make it the scene's current camera (default true)"`
	Properties  map[string]any `json:"properties,omitempty" jsonschema:"Camera3D properties, e.g. {\"fov\": 60, \"near\": 0.1, \"far\": 500, \"position\": [0, 2, 6], \"rotation_degrees\": [-15, 0, 0]}"`
	ScenePath   sdk.ScenePath  `json:"scene_path,omitempty" jsonschema:"the res:// scene to edit (in the editor it becomes the active tab); default the active scene"`
}

func (in cameraArgs) current() bool { return in.MakeCurrent == nil || *in.MakeCurrent }

func (in cameraArgs) name() string {
	if in.Name == "" {
		return "Camera3D"
	}
	return in.Name
}

func setupCamera(ctx context.Context, call *sdk.Call, in cameraArgs) (sdk.Result, error) {
	if err := nodeedit.CheckProps("properties", "Camera3D", in.Properties); err != nil {
		return sdk.Result{}, err
	}
	s, err := nodeedit.OpenScene(ctx, call, string(in.ScenePath))
	if err != nil {
		return sdk.Result{}, err
	}
	n, err := addNode(s, in.ParentPath, in.name(), "Camera3D", in.Properties)
	if err != nil {
		return sdk.Result{}, err
	}
	// make_current wins over properties.current, as in the addon.
	if _, err := s.Set(n, "current", in.current()); err != nil {
		return sdk.Result{}, err
	}
	return s.CommitAnswer("Add "+n.Name(), map[string]any{"node_path": n.Path(), "current": in.current(), "created": true})
}

func setupCameraEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in cameraArgs) (sdk.Result, error) {
	if nodeedit.HasInline(in.Properties) {
		return sdk.HandlerOnSceneFile(ctx, call, ed, &in, &in.ScenePath, setupCamera)
	}
	props, err := nodeedit.EditorProps("properties", "Camera3D", in.Properties)
	if err != nil {
		return sdk.Result{}, err
	}
	return forward(ctx, ed, in.ScenePath, "cmd_setup_camera", map[string]any{
		"parent_path": nodeedit.OrDot(in.ParentPath), "name": in.name(), "make_current": in.current(), "properties": props})
}

type lightArgs struct {
	ParentPath string         `json:"parent_path" jsonschema:"path of the parent node relative to the scene root (\".\" is the root)"`
	LightType  string         `json:"light_type,omitempty" jsonschema:"DirectionalLight3D (the default: sun-like, lights everything), OmniLight3D (a point light) or SpotLight3D (a cone); directional, omni and spot also work"`
	Name       string         `json:"name,omitempty" jsonschema:"name of the new light (default the light_type)"`
	Properties map[string]any `json:"properties,omitempty" jsonschema:"Light3D properties, e.g. {\"light_color\": \"#fff4e0\", \"light_energy\": 1.5, \"rotation_degrees\": [-45, 30, 0], \"omni_range\": 8, \"spot_angle\": 30}"`
	Shadows    *bool          `json:"shadows,omitempty" jsonschema:"cast shadows (sets shadow_enabled)"`
	ScenePath  sdk.ScenePath  `json:"scene_path,omitempty" jsonschema:"the res:// scene to edit (in the editor it becomes the active tab); default the active scene"`
}

// check resolves light_type and merges shadows into the properties.
func (in lightArgs) check() (string, map[string]any, error) {
	lt := in.LightType
	switch strings.ToLower(lt) {
	case "", "directional", "sun":
		lt = "DirectionalLight3D"
	case "omni", "point":
		lt = "OmniLight3D"
	case "spot":
		lt = "SpotLight3D"
	}
	d := nodeedit.DB()
	if !d.Inherits(lt, "Light3D") || !d.Instantiable(lt) {
		return "", nil, nodeedit.Invalid("light_type", "pass DirectionalLight3D, OmniLight3D or SpotLight3D", "'%s' is not a 3D light class", in.LightType)
	}
	props := map[string]any{}
	for k, v := range in.Properties {
		props[k] = v
	}
	if in.Shadows != nil {
		props["shadow_enabled"] = *in.Shadows
	}
	return lt, props, nodeedit.CheckProps("properties", lt, props)
}

func setupLighting(ctx context.Context, call *sdk.Call, in lightArgs) (sdk.Result, error) {
	lt, props, err := in.check()
	if err != nil {
		return sdk.Result{}, err
	}
	s, err := nodeedit.OpenScene(ctx, call, string(in.ScenePath))
	if err != nil {
		return sdk.Result{}, err
	}
	name := in.Name
	if name == "" {
		name = lt
	}
	n, err := addNode(s, in.ParentPath, name, lt, props)
	if err != nil {
		return sdk.Result{}, err
	}
	return s.CommitAnswer("Add "+n.Name(), map[string]any{"node_path": n.Path(), "light_type": lt, "created": true})
}

func setupLightingEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in lightArgs) (sdk.Result, error) {
	lt, props, err := in.check()
	if err != nil {
		return sdk.Result{}, err
	}
	if nodeedit.HasInline(props) {
		return sdk.HandlerOnSceneFile(ctx, call, ed, &in, &in.ScenePath, setupLighting)
	}
	if props, err = nodeedit.EditorProps("properties", lt, props); err != nil {
		return sdk.Result{}, err
	}
	name := in.Name
	if name == "" {
		name = lt
	}
	return forward(ctx, ed, in.ScenePath, "cmd_setup_lighting", map[string]any{
		"parent_path": nodeedit.OrDot(in.ParentPath), "light_type": lt, "name": name, "properties": props})
}

type environmentArgs struct {
	ParentPath string         `json:"parent_path" jsonschema:"path of the parent node relative to the scene root (\".\" is the root)"`
	Name       string         `json:"name,omitempty" jsonschema:"name of the new node (default WorldEnvironment)"`
	Properties map[string]any `json:"properties,omitempty" jsonschema:"Environment properties, e.g. {\"background_mode\": \"BG_COLOR\", \"background_color\": \"#203040\", \"ambient_light_source\": \"AMBIENT_SOURCE_COLOR\", \"ambient_light_color\": \"#ffffff\", \"ambient_light_energy\": 0.5, \"tonemap_mode\": \"TONE_MAPPER_FILMIC\", \"glow_enabled\": true, \"fog_enabled\": true, \"fog_density\": 0.02}"`
	Sky        map[string]any `json:"sky,omitempty" jsonschema:"give the Environment a Sky with a ProceduralSkyMaterial of these properties (e.g. {\"sky_top_color\": \"#3a6bb5\", \"ground_bottom_color\": \"#2a2520\"}; {} for its defaults) and background_mode BG_SKY unless properties sets it (with an editor attached, written to the saved scene file, which the editor reloads)"`
	ScenePath  sdk.ScenePath  `json:"scene_path,omitempty" jsonschema:"the res:// scene to edit (in the editor it becomes the active tab); default the active scene"`
}

func (in environmentArgs) name() string {
	if in.Name == "" {
		return "WorldEnvironment"
	}
	return in.Name
}

// environment is the Environment's properties, the sky added.
func (in environmentArgs) environment() (map[string]any, error) {
	props := map[string]any{}
	for k, v := range in.Properties {
		props[k] = v
	}
	if in.Sky != nil {
		if _, ok := props["sky"]; ok {
			return nil, nodeedit.Invalid("sky", "pass the sky once: either sky or properties.sky", "both sky and properties.sky are given")
		}
		if err := nodeedit.CheckProps("sky", "ProceduralSkyMaterial", in.Sky); err != nil {
			return nil, err
		}
		props["sky"] = inline("Sky", map[string]any{"sky_material": inline("ProceduralSkyMaterial", in.Sky)})
		if _, ok := props["background_mode"]; !ok {
			props["background_mode"] = "BG_SKY"
		}
	}
	return props, nodeedit.CheckProps("properties", "Environment", props)
}

func setupEnvironment(ctx context.Context, call *sdk.Call, in environmentArgs) (sdk.Result, error) {
	env, err := in.environment()
	if err != nil {
		return sdk.Result{}, err
	}
	s, err := nodeedit.OpenScene(ctx, call, string(in.ScenePath))
	if err != nil {
		return sdk.Result{}, err
	}
	n, err := s.CreateNode(in.ParentPath, in.name(), "WorldEnvironment")
	if err != nil {
		return sdk.Result{}, err
	}
	// Always an Environment of its own, even with no properties, as the
	// addon makes one.
	if _, err := s.Set(n, "environment", inline("Environment", env)); err != nil {
		return sdk.Result{}, err
	}
	return s.CommitAnswer("Add "+n.Name(), map[string]any{"node_path": n.Path(), "created": true})
}

func setupEnvironmentEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in environmentArgs) (sdk.Result, error) {
	// sky builds a Sky and a ProceduralSkyMaterial, and properties may
	// hold inline resources: the addon sets only plain Environment values,
	// so the scene's file gets them.
	if in.Sky != nil || nodeedit.HasInline(in.Properties) {
		return sdk.HandlerOnSceneFile(ctx, call, ed, &in, &in.ScenePath, setupEnvironment)
	}
	props, err := nodeedit.EditorProps("properties", "Environment", in.Properties)
	if err != nil {
		return sdk.Result{}, err
	}
	return forward(ctx, ed, in.ScenePath, "cmd_setup_environment", map[string]any{
		"parent_path": nodeedit.OrDot(in.ParentPath), "name": in.name(), "properties": props})
}

// forward opens scene (if given) and sends one addon command.
func forward(ctx context.Context, ed *sdk.Editor, scene sdk.ScenePath, cmd string, params map[string]any) (sdk.Result, error) {
	if err := ed.OpenScene(ctx, string(scene)); err != nil {
		return sdk.Result{}, err
	}
	return ed.Forward(ctx, cmd, params)
}

// onScene makes cmd, with params built from the arguments, a tool's
// editor path, on scene_path's tab.
func onScene[In interface{ scene() sdk.ScenePath }](cmd string, params func(In) (map[string]any, error)) sdk.ToolOption {
	return sdk.EditorFunc(func(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in In) (sdk.Result, error) {
		p, err := params(in)
		if err != nil {
			return sdk.Result{}, err
		}
		return forward(ctx, ed, in.scene(), cmd, p)
	})
}

// What a dry run answers without adding (sdk.DryRunAnswer).

func under(parent, name string) string {
	return godot.JoinNodePath(nodeedit.NormalizePath(nodeedit.OrDot(parent)), name)
}

func cameraDryRun(in cameraArgs) map[string]any {
	return map[string]any{"node_path": under(in.ParentPath, in.name()), "current": in.current(), "scene_path": sdk.EditedScene}
}

func environmentDryRun(in environmentArgs) map[string]any {
	return map[string]any{"node_path": under(in.ParentPath, in.name()), "scene_path": sdk.EditedScene}
}

func lightingDryRun(in lightArgs) map[string]any {
	lt, _, err := in.check()
	if err != nil {
		return nil
	}
	name := in.Name
	if name == "" {
		name = lt
	}
	return map[string]any{"node_path": under(in.ParentPath, name), "light_type": lt, "scene_path": sdk.EditedScene}
}
