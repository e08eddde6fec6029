package main

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
	"github.com/godot-mcp/godot-mcp/sdk/godot/uid"
)

// paramPrefix is how a ShaderMaterial stores a uniform's value.
const paramPrefix = "shader_parameter/"

// materialSlot is the property a node's material goes in, as the addon
// chooses it.
func materialSlot(class string) string {
	db := nodeedit.DB()
	switch {
	case db.Inherits(class, "CanvasItem"):
		return "material"
	case db.Inherits(class, "GeometryInstance3D"):
		return "material_override"
	}
	return ""
}

// sidecarUID returns the uid of a file from its .uid sidecar (Godot 4.4+
// writes one next to each shader), or "".
func sidecarUID(ctx context.Context, call *sdk.Call, p string) string {
	f, err := call.Workspace().Read(ctx, p+".uid")
	if err != nil {
		return ""
	}
	s := strings.TrimSpace(string(bytes.TrimPrefix(f.Data, []byte("\xef\xbb\xbf"))))
	if strings.HasPrefix(s, uid.Prefix) {
		return s
	}
	return ""
}

type nodeArgs struct {
	NodePath string        `json:"node_path" jsonschema:"the node, relative to the scene root (\".\" is the root)"`
	Scene    sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene; default: the active scene"`
}

type assignArgs struct {
	nodeArgs
	ShaderPath   sdk.ResPath `json:"shader_path" jsonschema:"res:// path of the .gdshader" godot:"ext=.gdshader"`
	MaterialPath sdk.ResPath `json:"material_path,omitempty" jsonschema:"save the ShaderMaterial as this new .tres and reference it; default: inline in the scene" godot:"ext=.tres"`
}

type assignResult struct {
	NodePath         string           `json:"node_path"`
	Scene            string           `json:"scene"`
	ShaderPath       string           `json:"shader_path"`
	MaterialProperty string           `json:"material_property"`
	MaterialPath     string           `json:"material_path,omitempty"`
	Assigned         bool             `json:"assigned"`
	Commit           sdk.CommitResult `json:"commit"`
}

// openScene opens the scene a node argument names (or the active one).
func openScene(ctx context.Context, call *sdk.Call, scene sdk.ScenePath) (*nodeedit.Scene, error) {
	p, err := nodeedit.ScenePath(ctx, call, string(scene))
	if err != nil {
		return nil, err
	}
	return nodeedit.Open(ctx, call, p)
}

func noSlot(n *godot.Node) error {
	return &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "node_path",
		Message: fmt.Sprintf("%s (%s) has no material slot: it is neither a CanvasItem nor a GeometryInstance3D", n.Path(), n.Type()),
		Hint:    "pick a Sprite2D, ColorRect, MeshInstance3D or another node that draws"}
}

// noMaterialPath refuses material_path in editor mode. The addon's
// cmd_assign_shader_material takes node_path and shader_path only: it
// builds the ShaderMaterial in the editor and assigns it inline, one
// action of the editor's undo. A .tres written beside it (and set with
// cmd_set_node_property) would be outside that history: godot_undo, which
// drives the editor's undo, would take the assignment back and leave the
// file.
func noMaterialPath() error {
	return &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "headless",
		Message: "with an editor attached, material_path is not supported: the addon assigns the ShaderMaterial inline " +
			"and cannot save it as a .tres in the same undo step",
		Hint: "leave out material_path to assign it inline (the inspector's Save As on the material makes a .tres of it); " +
			"to use a ShaderMaterial .tres that exists, set it with godot_scene_edit_set_node_property (property material, " +
			"or material_override for a 3D node, value its res:// path); or call again with no editor attached, where " +
			"material_path writes the .tres and the scene as one undo step"}
}

func assignMaterialEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in assignArgs) (sdk.Result, error) {
	if in.MaterialPath != "" {
		return sdk.Result{}, noMaterialPath()
	}
	if err := openInEditor(ctx, ed, in.Scene); err != nil {
		return sdk.Result{}, err
	}
	return ed.Forward(ctx, "cmd_assign_shader_material", map[string]any{"node_path": in.NodePath, "shader_path": in.ShaderPath})
}

func assignMaterial(ctx context.Context, call *sdk.Call, in assignArgs) (sdk.Result, error) {
	s, err := openScene(ctx, call, in.Scene)
	if err != nil {
		return sdk.Result{}, err
	}
	n, err := s.Node(in.NodePath)
	if err != nil {
		return sdk.Result{}, err
	}
	slot := materialSlot(n.Type())
	if slot == "" {
		return sdk.Result{}, noSlot(n)
	}
	shader := string(in.ShaderPath)
	if _, err := readCode(ctx, call, shader); err != nil {
		return sdk.Result{}, err
	}
	id := sidecarUID(ctx, call, shader)
	ws := call.Workspace()
	tx := ws.Begin("Assign shader material to " + n.Path())
	if in.MaterialPath != "" {
		mat := string(in.MaterialPath)
		if fi, err := ws.Stat(ctx, mat); err != nil {
			return sdk.Result{}, err
		} else if fi.Exists {
			return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "material_path",
				Message: mat + " already exists", Hint: "pick a new path, or leave out material_path to assign the material inline"}
		}
		src := fmt.Sprintf("[gd_resource type=\"ShaderMaterial\" format=3 uid=%q]\n\n[resource]\n", uid.New().String())
		mf, err := godot.ParseFile(mat, []byte(src))
		if err != nil {
			return sdk.Result{}, fmt.Errorf("building %s: %w", mat, err)
		}
		ref, err := mf.AddExtResource("Shader", shader, id)
		if err != nil {
			return sdk.Result{}, err
		}
		mf.Resource().Set("render_priority", godot.Int(0))
		mf.Resource().Set("shader", ref)
		tx.Write(mat, mf.Bytes(), "")
		mref, err := s.Doc.AddExtResource("ShaderMaterial", mat, mf.UID())
		if err != nil {
			return sdk.Result{}, err
		}
		n.Set(slot, mref)
	} else {
		ref, err := s.Doc.AddExtResource("Shader", shader, id)
		if err != nil {
			return sdk.Result{}, err
		}
		sub, err := s.Doc.AddSubResource("ShaderMaterial")
		if err != nil {
			return sdk.Result{}, err
		}
		sub.Set("render_priority", godot.Int(0))
		sub.Set("shader", ref)
		n.Set(slot, sub.Ref())
	}
	cr, err := tx.Write(s.Path, s.Bytes(), s.File.Version).Commit(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(assignResult{NodePath: n.Path(), Scene: s.Path, ShaderPath: shader, MaterialProperty: slot,
		MaterialPath: string(in.MaterialPath), Assigned: !cr.DryRun, Commit: cr}), nil
}

// material is a node's ShaderMaterial: its section, in the scene
// (inline) or in a .tres of its own, and the shader it uses.
type material struct {
	doc     *godot.File    // the file holding the material
	file    sdk.File       // that file as read
	section *godot.Section // the ShaderMaterial's properties
	shader  string         // res:// path of the shader, or "" when inline
	code    string         // the shader's source
	source  Source
	slot    string
}

func noMaterial(n *godot.Node, slot string) error {
	return &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "shader_material",
		Message: fmt.Sprintf("%s has no ShaderMaterial in %s", n.Path(), slot),
		Hint:    "assign one first with godot_shader_assign_material"}
}

// findMaterial follows a node's material slot to its ShaderMaterial and
// that material's shader.
func findMaterial(ctx context.Context, call *sdk.Call, s *nodeedit.Scene, n *godot.Node) (*material, error) {
	slot := materialSlot(n.Type())
	if slot == "" {
		return nil, noSlot(n)
	}
	v, ok := n.Get(slot)
	if !ok {
		return nil, noMaterial(n, slot)
	}
	m := &material{doc: s.Doc, file: s.File, slot: slot}
	switch r := v.(type) {
	case godot.SubResource:
		sub := s.Doc.SubResource(r.ID)
		if sub == nil || sub.Type() != "ShaderMaterial" {
			return nil, noMaterial(n, slot)
		}
		m.section = sub.Section
	case godot.ExtResource:
		e := s.Doc.ExtResource(r.ID)
		if e == nil {
			return nil, noMaterial(n, slot)
		}
		f, err := call.Workspace().Read(ctx, e.Path())
		if err != nil {
			return nil, err
		}
		doc, err := call.Workspace().ParseFile(ctx, f)
		if err != nil {
			return nil, sdk.Errorf(sdk.CodePreconditionFailed, "fix the file or assign a new material", "%s does not parse: %v", e.Path(), err)
		}
		if doc.ResourceType() != "ShaderMaterial" || doc.Resource() == nil {
			return nil, noMaterial(n, slot)
		}
		m.doc, m.file, m.section = doc, f, doc.Resource()
	default:
		return nil, noMaterial(n, slot)
	}
	sv, ok := m.section.Get("shader")
	if !ok {
		return nil, &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "shader_material",
			Message: fmt.Sprintf("the ShaderMaterial of %s has no shader", n.Path()), Hint: "assign one with godot_shader_assign_material"}
	}
	switch r := sv.(type) {
	case godot.ExtResource:
		e := m.doc.ExtResource(r.ID)
		if e == nil {
			return nil, noMaterial(n, slot)
		}
		m.shader = e.Path()
		code, err := readCode(ctx, call, m.shader)
		if err != nil {
			return nil, err
		}
		m.code = code
	case godot.SubResource:
		sub := m.doc.SubResource(r.ID)
		if sub == nil {
			return nil, noMaterial(n, slot)
		}
		if c, ok := sub.Get("code"); ok {
			if str, ok := c.(godot.String); ok {
				m.code = string(str)
			}
		}
	}
	m.source = ParseSource(m.code)
	return m, nil
}

// uniformFor finds a uniform the material can store.
func (m *material) uniformFor(name string) (Uniform, error) {
	u, ok := m.source.Uniform(name)
	if !ok || u.Scope != "" {
		hint := "the shader declares none; add `uniform <type> " + name + ";` to it first"
		if names := m.source.Names(); len(names) > 0 {
			hint = "its uniforms are " + strings.Join(names, ", ")
		}
		what := "declares no uniform"
		if ok {
			what = "declares " + name + " as a " + u.Scope + " uniform, which a material does not store:"
		}
		return Uniform{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "name",
			Message: fmt.Sprintf("the shader %s %s %q", m.shaderName(), what, name), Hint: hint}
	}
	return u, nil
}

func (m *material) shaderName() string {
	if m.shader == "" {
		return "(inline)"
	}
	return m.shader
}

type paramArgs struct {
	nodeArgs
	Name string `json:"name" jsonschema:"the uniform's name"`
}

type setParamArgs struct {
	paramArgs
	Value     any    `json:"value" jsonschema:"the value, converted to the uniform's declared type; a res:// path for a sampler; null removes it" godot:"value"`
	ParamType string `json:"param_type,omitempty" jsonschema:"float, int, bool, vector2, vector3, vector4 or color: checked against the declared type (optional; the declared type decides)"`
}

type paramResult struct {
	NodePath  string   `json:"node_path"`
	Name      string   `json:"name"`
	Value     any      `json:"value"`
	Text      string   `json:"text,omitempty" jsonschema:"the value as written in the file"`
	Type      string   `json:"type" jsonschema:"the uniform's shader type"`
	GodotType string   `json:"godot_type"`
	Hints     []string `json:"hints,omitempty"`
	Default   string   `json:"default,omitempty" jsonschema:"the declared default, as written in the shader"`
	Exists    bool     `json:"exists" jsonschema:"the shader declares the uniform"`
	Stored    bool     `json:"stored" jsonschema:"the material stores a value (else the shader's default applies)"`
	Set       bool     `json:"set,omitempty"`
	Removed   bool     `json:"removed,omitempty"`
	Material  string   `json:"material" jsonschema:"the file holding the material"`
	Shader    string   `json:"shader_path,omitempty"`

	Commit *sdk.CommitResult `json:"commit,omitempty"`
}

// paramTypes maps the addon's param_type words to Godot types.
var paramTypes = map[string][]string{
	"float": {"float"}, "int": {"int"}, "bool": {"bool"},
	"vector2": {"Vector2", "Vector2i"}, "vector3": {"Vector3", "Vector3i"}, "vector4": {"Vector4", "Vector4i"}, "color": {"Color"},
}

// openInEditor opens scene in the editor before a forwarded command; with no
// scene the command acts on the scene the editor has open.
func openInEditor(ctx context.Context, ed *sdk.Editor, scene sdk.ScenePath) error {
	if scene == "" {
		return nil
	}
	return ed.OpenScene(ctx, string(scene))
}

// nodeMaterial opens the scene and finds the node at nodePath and the
// material that node draws with, the start of each headless parameter tool.
func nodeMaterial(ctx context.Context, call *sdk.Call, scene sdk.ScenePath, nodePath string) (*godot.Node, *material, error) {
	s, err := openScene(ctx, call, scene)
	if err != nil {
		return nil, nil, err
	}
	n, err := s.Node(nodePath)
	if err != nil {
		return nil, nil, err
	}
	m, err := findMaterial(ctx, call, s, n)
	if err != nil {
		return nil, nil, err
	}
	return n, m, nil
}

func setParamEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in setParamArgs) (sdk.Result, error) {
	if err := openInEditor(ctx, ed, in.Scene); err != nil {
		return sdk.Result{}, err
	}
	return ed.Forward(ctx, "cmd_set_shader_param", map[string]any{"node_path": in.NodePath, "name": in.Name, "value": in.Value, "param_type": in.ParamType})
}

func getParamEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in paramArgs) (sdk.Result, error) {
	if err := openInEditor(ctx, ed, in.Scene); err != nil {
		return sdk.Result{}, err
	}
	var out map[string]any
	if err := ed.Query(ctx, "cmd_get_shader_param", map[string]any{"node_path": in.NodePath, "name": in.Name}, &out); err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(out), nil
}

func setParam(ctx context.Context, call *sdk.Call, in setParamArgs) (sdk.Result, error) {
	if in.Name == "" {
		return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "name", Message: "name is empty", Hint: "pass the uniform's name"}
	}
	n, m, err := nodeMaterial(ctx, call, in.Scene, in.NodePath)
	if err != nil {
		return sdk.Result{}, err
	}
	u, err := m.uniformFor(in.Name)
	if err != nil {
		return sdk.Result{}, err
	}
	if u.GodotType == "" {
		return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "name",
			Message: fmt.Sprintf("uniform %s is a %s, which this tool cannot set", u.Name, u.Type), Hint: "set it in the editor's inspector"}
	}
	if in.ParamType != "" {
		want, ok := paramTypes[strings.ToLower(in.ParamType)]
		if !ok {
			return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "param_type", Message: fmt.Sprintf("unknown param_type %q", in.ParamType),
				Hint: "pass float, int, bool, vector2, vector3, vector4 or color, or leave it out: the uniform's declared type decides"}
		}
		if !slices.Contains(want, u.GodotType) {
			return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "param_type",
				Message: fmt.Sprintf("uniform %s is declared %s (a %s), not a %s", u.Name, u.Type, u.GodotType, in.ParamType), Hint: "leave out param_type, or pass a value for a " + u.Type}
		}
	}
	key := paramPrefix + u.Name
	out := paramResult{NodePath: n.Path(), Name: u.Name, Type: u.Type, GodotType: u.GodotType, Hints: u.Hints, Default: u.Default,
		Exists: true, Material: m.file.Path, Shader: m.shader}
	if in.Value == nil {
		out.Removed = m.section.Clear(key)
	} else {
		var v godot.Value
		if u.IsTexture() {
			p, ok := in.Value.(string)
			if !ok {
				return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "value",
					Message: fmt.Sprintf("uniform %s is a %s: its value is a texture file", u.Name, u.Type), Hint: "pass a res:// path, e.g. \"res://icon.svg\""}
			}
			clean, err := sdk.CleanResPath("value", p)
			if err != nil {
				return sdk.Result{}, err
			}
			if fi, err := call.Workspace().Stat(ctx, clean); err != nil {
				return sdk.Result{}, err
			} else if !fi.Exists {
				return sdk.Result{}, sdk.Errorf(sdk.CodeNotFound, "check the path with godot_project_search_files", "%s does not exist", clean)
			}
			ref, err := m.doc.AddExtResource(resourceType(ctx, call, clean, u.GodotType), clean, sidecarUID(ctx, call, clean))
			if err != nil {
				return sdk.Result{}, err
			}
			v = ref
		} else {
			v, err = godot.FromJSON(in.Value, u.GodotType)
			if err != nil {
				return sdk.Result{}, nodeedit.Err(err)
			}
		}
		m.set(key, v)
		out.Set, out.Stored = true, true
		out.Value, out.Text = godot.ToJSON(v), godot.FormatValue(v)
	}
	tx := call.Workspace().Begin("Set shader parameter " + u.Name + " on " + n.Path())
	cr, err := tx.Write(m.file.Path, m.doc.Bytes(), m.file.Version).Commit(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	if cr.DryRun {
		out.Set = false
	}
	out.Commit = &cr
	return sdk.JSON(out), nil
}

// set stores a parameter where the editor would: parameters are saved in
// the order the shader declares its uniforms, so a new one goes before
// the stored parameters of uniforms declared after it.
func (m *material) set(key string, v godot.Value) {
	if m.section.Has(key) {
		m.section.Set(key, v)
		return
	}
	order := func(k string) int {
		for i, u := range m.source.Uniforms {
			if paramPrefix+u.Name == k {
				return i
			}
		}
		return len(m.source.Uniforms)
	}
	var later []godot.Property
	for _, p := range m.section.Properties() {
		if strings.HasPrefix(p.Key, paramPrefix) && order(p.Key) > order(key) {
			later = append(later, p)
		}
	}
	for _, p := range later {
		m.section.Clear(p.Key)
	}
	m.section.Set(key, v)
	for _, p := range later {
		m.section.Set(p.Key, p.Value)
	}
}

func getParam(ctx context.Context, call *sdk.Call, in paramArgs) (sdk.Result, error) {
	n, m, err := nodeMaterial(ctx, call, in.Scene, in.NodePath)
	if err != nil {
		return sdk.Result{}, err
	}
	out := paramResult{NodePath: n.Path(), Name: in.Name, Material: m.file.Path, Shader: m.shader}
	if u, ok := m.source.Uniform(in.Name); ok && u.Scope == "" {
		out.Exists, out.Type, out.GodotType, out.Hints, out.Default = true, u.Type, u.GodotType, u.Hints, u.Default
	}
	if v, ok := m.section.Get(paramPrefix + in.Name); ok {
		out.Stored, out.Value, out.Text = true, godot.ToJSONIn(v, m.doc, m.file.Path), godot.FormatValue(v)
	}
	return sdk.JSON(out), nil
}

// resourceType is the type an ext_resource declares for a file, as the
// editor writes it: a text resource's own class, else the uniform's type
// (an imported image is a "Texture2D").
func resourceType(ctx context.Context, call *sdk.Call, p, fallback string) string {
	if !strings.HasSuffix(p, ".tres") {
		return fallback
	}
	f, err := call.Workspace().Read(ctx, p)
	if err != nil {
		return fallback
	}
	doc, err := godot.ParseFile(p, f.Data)
	if err != nil || doc.ResourceType() == "" {
		return fallback
	}
	return doc.ResourceType()
}
