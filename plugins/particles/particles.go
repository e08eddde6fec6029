package main

import (
	"context"
	"slices"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

const matClass = "ParticleProcessMaterial"

var particleTypes = []string{"GPUParticles2D", "GPUParticles3D", "CPUParticles2D", "CPUParticles3D"}

func isCPU(class string) bool { return strings.HasPrefix(class, "CPUParticles") }

type createArgs struct {
	ParentPath    string         `json:"parent_path" jsonschema:"path of the parent node relative to the scene root (\".\" is the root)"`
	ParticlesType string         `json:"particles_type,omitempty" jsonschema:"GPUParticles2D (the default), GPUParticles3D, CPUParticles2D or CPUParticles3D"`
	Name          string         `json:"name,omitempty" jsonschema:"name of the new node (default the particles_type)"`
	Amount        *int           `json:"amount,omitempty" jsonschema:"number of particles alive at once (default 8, at least 1)"`
	Lifetime      *float64       `json:"lifetime,omitempty" jsonschema:"seconds each particle lives (default 1.0, at least 0.01)"`
	Properties    map[string]any `json:"properties,omitempty" jsonschema:"properties of the node, e.g. {\"one_shot\": true, \"explosiveness\": 0.8, \"position\": [0, 1, 0]}; headless also inline resources such as {\"draw_pass_1\": {\"type\": \"QuadMesh\"}}"`
	ScenePath     sdk.ScenePath  `json:"scene_path,omitempty" jsonschema:"the res:// scene to edit (in the editor it becomes the active tab); default the active scene"`
}

func (in createArgs) check() (typ, name string, amount int, lifetime float64, err error) {
	typ = in.ParticlesType
	if typ == "" {
		typ = "GPUParticles2D"
	}
	if !slices.Contains(particleTypes, typ) {
		return "", "", 0, 0, nodeedit.Invalid("particles_type", "pass GPUParticles2D, GPUParticles3D, CPUParticles2D or CPUParticles3D",
			"particles_type must be GPUParticles2D or GPUParticles3D (or CPUParticles2D/CPUParticles3D); got '%s'.", in.ParticlesType)
	}
	name = in.Name
	if name == "" {
		name = typ
	}
	amount, lifetime = 8, 1.0
	if in.Amount != nil {
		amount = max(1, *in.Amount)
	}
	if in.Lifetime != nil {
		lifetime = max(0.01, *in.Lifetime)
	}
	return typ, name, amount, lifetime, nodeedit.CheckProps("properties", typ, in.Properties)
}

func createParticles(ctx context.Context, call *sdk.Call, in createArgs) (sdk.Result, error) {
	typ, name, amount, lifetime, err := in.check()
	if err != nil {
		return sdk.Result{}, err
	}
	s, err := nodeedit.OpenScene(ctx, call, string(in.ScenePath))
	if err != nil {
		return sdk.Result{}, err
	}
	n, err := s.CreateNode(in.ParentPath, name, typ)
	if err != nil {
		return sdk.Result{}, err
	}
	props := map[string]any{"amount": float64(amount), "lifetime": lifetime}
	if !isCPU(typ) {
		props["process_material"] = inline(matClass, nil)
	}
	for k, v := range in.Properties {
		props[k] = v
	}
	if err := s.SetProps(n, typ, props); err != nil {
		return sdk.Result{}, err
	}
	return s.CommitAnswer("Add "+n.Name(), map[string]any{"node_path": n.Path(), "particles_type": typ, "created": true})
}

func createParticlesEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in createArgs) (sdk.Result, error) {
	typ, name, amount, lifetime, err := in.check()
	if err != nil {
		return sdk.Result{}, err
	}
	if nodeedit.HasInline(in.Properties) { // the addon takes resources as paths only
		return sdk.HandlerOnSceneFile(ctx, call, ed, &in, &in.ScenePath, createParticles)
	}
	props, err := nodeedit.EditorProps("properties", typ, in.Properties)
	if err != nil {
		return sdk.Result{}, err
	}
	parent := nodeedit.OrDot(in.ParentPath)
	if !isCPU(typ) {
		return forward(ctx, ed, in.ScenePath, "cmd_create_particles", map[string]any{"parent_path": parent, "particles_type": typ,
			"name": name, "amount": amount, "lifetime": lifetime, "properties": props})
	}
	// The addon makes only GPU particles: a CPU one is a node and its
	// properties.
	if err := ed.OpenScene(ctx, string(in.ScenePath)); err != nil {
		return sdk.Result{}, err
	}
	out := map[string]any{}
	if err := ed.Apply(ctx, "cmd_create_node", map[string]any{"node_type": typ, "parent_path": parent, "name": name}, &out); err != nil {
		return sdk.Result{}, err
	}
	np, _ := out["node_path"].(string)
	if np == "" {
		np = nodeedit.ChildPath(parent, name)
	}
	props["amount"], props["lifetime"] = amount, lifetime
	for _, k := range nodeedit.SortedKeys(typ, props) {
		if err := ed.Apply(ctx, "cmd_set_node_property", map[string]any{"node_path": np, "property": k, "value": props[k]}, nil); err != nil {
			return sdk.Result{}, err
		}
	}
	return sdk.JSON(map[string]any{"node_path": np, "particles_type": typ, "created": !ed.DryRun()}), nil
}

// system is a particle node of an open scene.
type system struct {
	s     *nodeedit.Scene
	n     *godot.Node
	tn    *godot.TreeNode
	class string
}

func findSystem(ctx context.Context, call *sdk.Call, s *nodeedit.Scene, path string, write bool) (*system, error) {
	var n *godot.Node
	var tn *godot.TreeNode
	var err error
	if write {
		n, tn, err = s.Override(path)
	} else {
		n, tn, err = s.Lookup(path)
	}
	if err != nil {
		return nil, err
	}
	if n == nil {
		return nil, nodeedit.Invalid("node_path", "attach the Godot editor to edit it", "'%s' lies in an instanced scene that cannot be read headless", path)
	}
	class := n.Type()
	if tn != nil && tn.Class() != "" {
		class = tn.Class()
	}
	if class == "" {
		class = nodeedit.NodeClass(ctx, call, s.Doc, n)
	}
	ok := false
	for _, t := range particleTypes {
		ok = ok || class == t || nodeedit.DB().Inherits(class, t)
	}
	if !ok {
		return nil, nodeedit.Invalid("node_path", "pass the path of a GPUParticles2D/3D or CPUParticles2D/3D node (godot_particles_create adds one)",
			"Node is not a GPUParticles2D/GPUParticles3D. ('%s' is a %s)", path, orUnknown(class))
	}
	return &system{s: s, n: n, tn: tn, class: class}, nil
}

func orUnknown(s string) string {
	if s == "" {
		return "node of unknown class"
	}
	return s
}

func (p *system) cpu() bool {
	return isCPU(p.class) || nodeedit.DB().Inherits(p.class, "CPUParticles2D") || nodeedit.DB().Inherits(p.class, "CPUParticles3D")
}

// material is the process material being edited: a section of doc, the
// scene (a sub-resource) or its own .tres.
type material struct {
	doc     *godot.File
	sec     *godot.Section
	path    string
	version sdk.FileVersion
	ext     bool
	res     *nodeedit.FileResources
}

// processMaterial is the node's value of process_material.
func (p *system) processMaterial() (godot.Value, *godot.File) {
	if v, ok := p.n.Get("process_material"); ok {
		return v, p.s.Doc
	}
	if p.tn != nil {
		if v, f, ok := p.tn.Get("process_material"); ok {
			return v, f
		}
	}
	return nil, nil
}

// stage returns the node's ParticleProcessMaterial: a sub-resource of the
// scene, or a .tres it references. With create, a node without one (or
// with another kind of material) gets a new sub-resource, as the addon
// gives it a new material; without, ok is false then.
func (p *system) stage(ctx context.Context, call *sdk.Call, create bool) (*material, bool, error) {
	v, from := p.processMaterial()
	if from == p.s.Doc {
		switch r := v.(type) {
		case godot.SubResource:
			if sr := p.s.Doc.SubResource(r.ID); sr != nil && sr.Type() == matClass {
				return &material{doc: p.s.Doc, sec: sr.Section, path: p.s.Path, res: p.s.Resources()}, true, nil
			}
		case godot.ExtResource:
			if e := p.s.Doc.ExtResource(r.ID); e != nil && e.Type() == matClass && strings.HasSuffix(e.Path(), ".tres") {
				m, err := readMaterial(ctx, call, e.Path())
				return m, err == nil, err
			}
		}
	}
	if !create {
		return nil, false, nil
	}
	res := p.s.Resources()
	ref, err := res.Inline(matClass, nil)
	if err != nil {
		return nil, false, err
	}
	res.Keep()
	p.replace("process_material", ref)
	sr := p.s.Doc.SubResource(ref.(godot.SubResource).ID)
	return &material{doc: p.s.Doc, sec: sr.Section, path: p.s.Path, res: p.s.Resources()}, true, nil
}

// replace sets a node property to a reference, dropping the sub-resource
// it replaces when nothing else uses it.
func (p *system) replace(prop string, v godot.Value) {
	old, _ := p.n.Get(prop)
	p.n.SetOrdered(prop, v, nodeedit.DB().PropertyRank(p.class))
	p.s.Edited = true
	if sr, ok := old.(godot.SubResource); ok {
		p.s.Doc.RemoveSubResources(sr.ID)
	}
}

func readMaterial(ctx context.Context, call *sdk.Call, path string) (*material, error) {
	ws := call.Workspace()
	f, err := ws.Read(ctx, path)
	if err != nil {
		return nil, err
	}
	doc, err := ws.ParseFile(ctx, f)
	if err != nil {
		return nil, sdk.Errorf(sdk.CodePreconditionFailed, "fix the file or restore it with godot_undo", "%s cannot be parsed: %v", path, err)
	}
	m := &material{doc: doc, sec: doc.Resource(), path: f.Path, version: f.Version, ext: true}
	m.res = &nodeedit.FileResources{Doc: doc, Path: f.Path, RefFunc: func(typ, p string) (godot.Value, error) {
		t, id := nodeedit.ResourceType(ctx, call, p)
		if t == "" {
			t = typ
		}
		ref, err := doc.AddExtResource(t, p, id)
		if err != nil {
			return nil, nodeedit.EditError(err, "value")
		}
		return ref, nil
	}}
	return m, nil
}

// set converts and sets one field of the material as Godot saves it (a
// default or null removes it); a sub-resource it replaces goes when
// nothing else uses it.
func (m *material) set(prop string, raw any) (godot.Value, error) {
	d := nodeedit.DB()
	old, _ := m.sec.Get(prop)
	defer func() {
		if sr, ok := old.(godot.SubResource); ok {
			if now, _ := m.sec.Get(prop); now != old {
				m.doc.RemoveSubResources(sr.ID)
			}
		}
	}()
	if raw == nil {
		m.sec.Clear(prop)
		return nil, nil
	}
	v, err := d.Coerce(matClass, prop, raw, m.res)
	if err != nil {
		m.res.Discard()
		return nil, nodeedit.Err(err)
	}
	m.res.Keep()
	switch v.(type) {
	case godot.ExtResource, godot.SubResource:
	default:
		v = d.Stored(matClass, prop, v)
		if d.IsDefault(matClass, prop, v) {
			m.sec.Clear(prop)
			return v, nil
		}
	}
	m.sec.SetOrdered(prop, v, d.PropertyRank(matClass))
	return v, nil
}

// commitSystem writes the scene and, when the material is a .tres of its
// own, that file, as one undoable action.
func commitSystem(ctx context.Context, call *sdk.Call, p *system, m *material, name string, out map[string]any) (sdk.Result, error) {
	tx := call.Workspace().Begin(name)
	if p.s.Edited {
		tx.Write(p.s.Path, p.s.Bytes(), p.s.File.Version)
	}
	if m != nil && m.ext {
		tx.Write(m.path, m.doc.Bytes(), m.version)
		out["material_path"] = m.path
	}
	res, err := tx.Commit(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	out["scene_path"] = p.s.Path
	out["dry_run"] = res.DryRun
	return sdk.JSON(out), nil
}

type nodeArgs struct {
	NodePath  string        `json:"node_path" jsonschema:"path of the particle node relative to the scene root"`
	ScenePath sdk.ScenePath `json:"scene_path,omitempty" jsonschema:"the res:// scene to edit (in the editor it becomes the active tab); default the active scene"`
}

type setMaterialArgs struct {
	nodeArgs
	Properties map[string]any `json:"properties" jsonschema:"ParticleProcessMaterial fields, e.g. {\"direction\": [0, -1, 0], \"spread\": 25, \"gravity\": [0, 98, 0], \"initial_velocity_min\": 20, \"initial_velocity_max\": 40, \"scale_min\": 0.5, \"color\": \"#ffaa00\", \"emission_shape\": \"EMISSION_SHAPE_SPHERE\"}; null resets a field"`
}

func setMaterial(ctx context.Context, call *sdk.Call, in setMaterialArgs) (sdk.Result, error) {
	s, err := nodeedit.OpenScene(ctx, call, string(in.ScenePath))
	if err != nil {
		return sdk.Result{}, err
	}
	p, err := findSystem(ctx, call, s, in.NodePath, true)
	if err != nil {
		return sdk.Result{}, err
	}
	applied := map[string]any{}
	if p.cpu() {
		props, err := cpuProps(p.class, in.Properties)
		if err != nil {
			return sdk.Result{}, err
		}
		for _, k := range nodeedit.SortedKeys(p.class, props) {
			a, err := s.Set(p.n, k, props[k])
			if err != nil {
				return sdk.Result{}, err
			}
			applied[k] = godot.ToJSONIn(a.Now(), s.Doc, s.Path)
		}
		return commitSystem(ctx, call, p, nil, "Configure particle material", map[string]any{"node_path": in.NodePath, "properties": applied})
	}
	if err := nodeedit.CheckProps("properties", matClass, in.Properties); err != nil {
		return sdk.Result{}, err
	}
	m, _, err := p.stage(ctx, call, true)
	if err != nil {
		return sdk.Result{}, err
	}
	for _, k := range nodeedit.SortedKeys(matClass, in.Properties) {
		v, err := m.set(k, in.Properties[k])
		if err != nil {
			return sdk.Result{}, err
		}
		if v == nil {
			v, _ = nodeedit.DB().DefaultValue(matClass, k)
		}
		applied[k] = godot.ToJSONIn(v, m.doc, m.path)
	}
	if !m.ext {
		s.Edited = true
	}
	return commitSystem(ctx, call, p, m, "Configure particle material", map[string]any{"node_path": in.NodePath, "properties": applied})
}

// cpuProps spells material fields as a CPUParticles node has them:
// scale_min is scale_amount_min, a 2D node's vectors are Vector2 (the z of
// a 3D vector dropped) and its box emission a rectangle.
func cpuProps(class string, props map[string]any) (map[string]any, error) {
	out := map[string]any{}
	twoD := strings.HasSuffix(class, "2D")
	for k, v := range props {
		k = cpuName(k)
		if twoD {
			if k == "emission_box_extents" {
				k = "emission_rect_extents"
			}
			if v == "EMISSION_SHAPE_BOX" {
				v = "EMISSION_SHAPE_RECTANGLE"
			}
			if t, _ := nodeedit.DB().PropertyType(class, k); t == "Vector2" {
				if a, ok := v.([]any); ok && len(a) == 3 {
					v = a[:2]
				}
			}
		}
		out[k] = v
	}
	return out, nodeedit.CheckProps("properties", class, out)
}

func setMaterialEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in setMaterialArgs) (sdk.Result, error) {
	if nodeedit.HasInline(in.Properties) { // the addon takes resources as paths only
		return sdk.HandlerOnSceneFile(ctx, call, ed, &in, &in.ScenePath, setMaterial)
	}
	props, err := nodeedit.EditorProps("properties", matClass, in.Properties)
	if err != nil {
		return sdk.Result{}, err
	}
	return forward(ctx, ed, in.ScenePath, "cmd_set_particle_material", map[string]any{"node_path": in.NodePath, "properties": props})
}

type gradientArgs struct {
	nodeArgs
	Colors  []any     `json:"colors" jsonschema:"the gradient's colour stops, first to last: \"#rrggbb\" or \"#rrggbbaa\" strings, [r, g, b, a] lists or {\"r\", \"g\", \"b\", \"a\"} objects (0..1)" godot:"value"`
	Offsets []float64 `json:"offsets,omitempty" jsonschema:"the stops' positions 0..1, one per colour (default evenly spaced from 0 to 1)"`
}

// decodedColors gives the addon each colour as JSON: a stop sent as the
// JSON text of a list or an object ("[1, 0, 0, 1]", by a client bound to
// the schema's string type) is sent as that list or object.
func decodedColors(colors []any) []any {
	out := make([]any, len(colors))
	for i, c := range colors {
		out[i] = c
		if s, ok := c.(string); ok {
			if j, ok := godot.JSONText(s); ok {
				out[i] = j
			}
		}
	}
	return out
}

// gradient returns the Gradient's offsets and colors as Godot stores them.
func (in gradientArgs) gradient() (godot.Value, godot.Value, error) {
	if len(in.Colors) == 0 {
		return nil, nil, nodeedit.Invalid("colors", "pass at least one colour, e.g. [\"#ffcc00\", \"#ff000000\"]", "'colors' must be a non-empty array of color stops.")
	}
	if in.Offsets != nil && len(in.Offsets) != len(in.Colors) {
		return nil, nil, nodeedit.Invalid("offsets", "pass one offset per colour, or none for evenly spaced stops", "%d offsets for %d colors", len(in.Offsets), len(in.Colors))
	}
	cols := make([]any, len(in.Colors))
	offs := make([]any, len(in.Colors))
	for i, c := range in.Colors {
		v, err := godot.FromJSON(c, "Color")
		if err != nil {
			return nil, nil, nodeedit.Invalid("colors", "pass \"#rrggbb\", \"#rrggbbaa\", [r, g, b, a] or {\"r\", \"g\", \"b\", \"a\"}", "colors[%d]: %v", i, err)
		}
		col := v.(godot.Color)
		cols[i] = map[string]any{"r": col.R, "g": col.G, "b": col.B, "a": col.A}
		switch {
		case in.Offsets != nil:
			offs[i] = min(1, max(0, in.Offsets[i]))
		case len(in.Colors) > 1:
			offs[i] = float64(i) / float64(len(in.Colors)-1)
		default:
			offs[i] = 0.0
		}
	}
	d := nodeedit.DB()
	o, err := d.Coerce("Gradient", "offsets", offs, nil)
	if err != nil {
		return nil, nil, nodeedit.Err(err)
	}
	c, err := d.Coerce("Gradient", "colors", cols, nil)
	if err != nil {
		return nil, nil, nodeedit.Err(err)
	}
	return d.Stored("Gradient", "offsets", o), d.Stored("Gradient", "colors", c), nil
}

// newGradient adds a Gradient (and, for a process material, the
// GradientTexture1D holding it) to res's file and returns the value for
// color_ramp.
func newGradient(res *nodeedit.FileResources, offsets, colors godot.Value, texture bool) (godot.Value, error) {
	d := nodeedit.DB()
	var props []godot.Property
	if !d.IsDefault("Gradient", "offsets", offsets) {
		props = append(props, godot.Property{Key: "offsets", Value: offsets})
	}
	if !d.IsDefault("Gradient", "colors", colors) {
		props = append(props, godot.Property{Key: "colors", Value: colors})
	}
	g, err := res.Inline("Gradient", props)
	if err != nil || !texture {
		return g, err
	}
	return res.Inline("GradientTexture1D", []godot.Property{{Key: "gradient", Value: g}})
}

func setColorGradient(ctx context.Context, call *sdk.Call, in gradientArgs) (sdk.Result, error) {
	offsets, colors, err := in.gradient()
	if err != nil {
		return sdk.Result{}, err
	}
	s, err := nodeedit.OpenScene(ctx, call, string(in.ScenePath))
	if err != nil {
		return sdk.Result{}, err
	}
	p, err := findSystem(ctx, call, s, in.NodePath, true)
	if err != nil {
		return sdk.Result{}, err
	}
	out := map[string]any{"node_path": in.NodePath, "stops": len(in.Colors)}
	if p.cpu() {
		ramp, err := newGradient(s.Resources(), offsets, colors, false)
		if err != nil {
			return sdk.Result{}, err
		}
		p.replace("color_ramp", ramp)
		return commitSystem(ctx, call, p, nil, "Set particle color gradient", out)
	}
	m, _, err := p.stage(ctx, call, true)
	if err != nil {
		return sdk.Result{}, err
	}
	ramp, err := newGradient(m.res, offsets, colors, true)
	if err != nil {
		return sdk.Result{}, err
	}
	old, _ := m.sec.Get("color_ramp")
	m.sec.SetOrdered("color_ramp", ramp, nodeedit.DB().PropertyRank(matClass))
	if sr, ok := old.(godot.SubResource); ok {
		m.doc.RemoveSubResources(sr.ID)
	}
	if !m.ext {
		s.Edited = true
	}
	return commitSystem(ctx, call, p, m, "Set particle color gradient", out)
}

func setColorGradientEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in gradientArgs) (sdk.Result, error) {
	if _, _, err := in.gradient(); err != nil {
		return sdk.Result{}, err
	}
	params := map[string]any{"node_path": in.NodePath, "colors": decodedColors(in.Colors)}
	if in.Offsets != nil {
		params["offsets"] = in.Offsets
	}
	return forward(ctx, ed, in.ScenePath, "cmd_set_particle_color_gradient", params)
}

type presetArgs struct {
	nodeArgs
	Preset string `json:"preset" jsonschema:"fire, smoke, explosion, sparks, rain or snow"`
}

func (in presetArgs) check() (preset, error) {
	pr, ok := presets[in.Preset]
	if !ok {
		return pr, nodeedit.Invalid("preset", "pass one of "+strings.Join(presetNames, ", "), "Unknown preset '%s'.", in.Preset)
	}
	return pr, nil
}

func applyPreset(ctx context.Context, call *sdk.Call, in presetArgs) (sdk.Result, error) {
	pr, err := in.check()
	if err != nil {
		return sdk.Result{}, err
	}
	s, err := nodeedit.OpenScene(ctx, call, string(in.ScenePath))
	if err != nil {
		return sdk.Result{}, err
	}
	p, err := findSystem(ctx, call, s, in.NodePath, true)
	if err != nil {
		return sdk.Result{}, err
	}
	grad := gradientArgs{Colors: pr.gradient}
	offsets, colors, err := grad.gradient()
	if err != nil {
		return sdk.Result{}, err
	}
	out := map[string]any{"node_path": in.NodePath, "preset": in.Preset}
	if p.cpu() {
		props, err := cpuProps(p.class, pr.material)
		if err != nil {
			return sdk.Result{}, err
		}
		if err := s.SetProps(p.n, p.class, props); err != nil {
			return sdk.Result{}, err
		}
		ramp, err := newGradient(s.Resources(), offsets, colors, false)
		if err != nil {
			return sdk.Result{}, err
		}
		p.replace("color_ramp", ramp)
	} else {
		// A new material, as the addon makes one: the node's old one goes
		// (a .tres it referenced stays on disk).
		res := s.Resources()
		ramp, err := newGradient(res, offsets, colors, true)
		if err != nil {
			return sdk.Result{}, err
		}
		mat := map[string]any{}
		for k, v := range pr.material {
			mat[k] = v
		}
		mat["color_ramp"] = map[string]any{"sub_resource": ramp.(godot.SubResource).ID}
		v, err := nodeedit.DB().CoerceType(matClass, inline(matClass, mat), res)
		if err != nil {
			res.Discard()
			return sdk.Result{}, nodeedit.Err(err)
		}
		p.replace("process_material", v)
	}
	if err := s.SetProps(p.n, p.class, pr.node); err != nil {
		return sdk.Result{}, err
	}
	return commitSystem(ctx, call, p, nil, "Apply particle preset "+in.Preset, out)
}

func applyPresetEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in presetArgs) (sdk.Result, error) {
	pr, err := in.check()
	if err != nil {
		return sdk.Result{}, err
	}
	if slices.Contains(referencePresets, in.Preset) {
		return forward(ctx, ed, in.ScenePath, "cmd_apply_particle_preset", map[string]any{"node_path": in.NodePath, "preset": in.Preset})
	}
	// A preset the addon does not know: its material fields, ramp and node
	// properties, one command each.
	mat, err := nodeedit.EditorProps("preset", matClass, pr.material)
	if err != nil {
		return sdk.Result{}, err
	}
	if err := ed.OpenScene(ctx, string(in.ScenePath)); err != nil {
		return sdk.Result{}, err
	}
	if err := ed.Apply(ctx, "cmd_set_particle_material", map[string]any{"node_path": in.NodePath, "properties": mat}, nil); err != nil {
		return sdk.Result{}, err
	}
	if err := ed.Apply(ctx, "cmd_set_particle_color_gradient", map[string]any{"node_path": in.NodePath, "colors": pr.gradient}, nil); err != nil {
		return sdk.Result{}, err
	}
	for _, k := range nodeedit.SortedKeys("GPUParticles2D", pr.node) {
		if err := ed.Apply(ctx, "cmd_set_node_property", map[string]any{"node_path": in.NodePath, "property": k, "value": pr.node[k]}, nil); err != nil {
			return sdk.Result{}, err
		}
	}
	return sdk.JSON(map[string]any{"node_path": in.NodePath, "preset": in.Preset}), nil
}

func getMaterial(ctx context.Context, call *sdk.Call, in nodeArgs) (sdk.Result, error) {
	s, err := nodeedit.OpenScene(ctx, call, string(in.ScenePath))
	if err != nil {
		return sdk.Result{}, err
	}
	p, err := findSystem(ctx, call, s, in.NodePath, false)
	if err != nil {
		return sdk.Result{}, err
	}
	out := map[string]any{"node_path": in.NodePath, "has_material": false, "properties": map[string]any{}, "color_ramp": nil}
	if p.cpu() {
		out["properties"], out["color_ramp"] = fields(p.class, p.n.Section, s.Doc, s.Path), ramp(p.n.Section, s.Doc)
		out["particles_type"] = p.class
		return sdk.JSON(out), nil
	}
	m, ok, err := p.stage(ctx, call, false)
	if err != nil || !ok {
		return sdk.JSON(out), err
	}
	out["has_material"] = true
	out["properties"], out["color_ramp"] = fields(matClass, m.sec, m.doc, m.path), ramp(m.sec, m.doc)
	if m.ext {
		out["material_path"] = m.path
	}
	return sdk.JSON(out), nil
}

// fields lists the saved properties class declares itself (for a
// CPUParticles node, its particle fields), each with its value in sec or
// its default; color_ramp is answered apart.
func fields(class string, sec *godot.Section, doc *godot.File, path string) map[string]any {
	d := nodeedit.DB()
	out := map[string]any{}
	props := d.Properties(class)
	if c, ok := d.Class(class); ok {
		props = c.Properties
	}
	for _, pr := range props {
		if !pr.Saved() || pr.Name == "color_ramp" || strings.Contains(pr.Name, "/") {
			continue
		}
		if v, ok := sec.Get(pr.Name); ok {
			out[pr.Name] = nodeedit.ValueJSON(doc, path, v, 0)
		} else if def, ok := d.DefaultValue(class, pr.Name); ok {
			out[pr.Name] = godot.ToJSON(def)
		}
	}
	return out
}

// ramp reads a color_ramp (a GradientTexture1D's Gradient, or a Gradient)
// as {colors: [{r, g, b, a}], offsets}, or nil.
func ramp(sec *godot.Section, doc *godot.File) any {
	v, ok := sec.Get("color_ramp")
	if !ok {
		return nil
	}
	r, ok := v.(godot.SubResource)
	if !ok {
		return nil
	}
	sr := doc.SubResource(r.ID)
	if sr != nil && sr.Type() != "Gradient" {
		g, _ := sr.Get("gradient")
		gr, ok := g.(godot.SubResource)
		if !ok {
			return nil
		}
		sr = doc.SubResource(gr.ID)
	}
	if sr == nil {
		return nil
	}
	d := nodeedit.DB()
	get := func(k string) godot.Value {
		if v, ok := sr.Get(k); ok {
			return v
		}
		v, _ := d.DefaultValue("Gradient", k)
		return v
	}
	offs, _ := get("offsets").(godot.PackedFloat32Array)
	cols, _ := get("colors").(godot.PackedColorArray)
	colors := make([]any, len(cols))
	for i, c := range cols {
		colors[i] = map[string]any{"r": c.R, "g": c.G, "b": c.B, "a": c.A}
	}
	offsets := make([]any, len(offs))
	for i, o := range offs {
		offsets[i] = float64(o)
	}
	return map[string]any{"colors": colors, "offsets": offsets}
}

func getMaterialEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in nodeArgs) (sdk.Result, error) {
	return forward(ctx, ed, in.ScenePath, "cmd_get_particle_material", map[string]any{"node_path": in.NodePath})
}

// createDryRun is what a dry run of create answers without adding.
func createDryRun(in createArgs) map[string]any {
	typ, name, _, _, err := in.check()
	if err != nil {
		return nil
	}
	return map[string]any{"node_path": godot.JoinNodePath(nodeedit.NormalizePath(nodeedit.OrDot(in.ParentPath)), name),
		"particles_type": typ, "scene_path": sdk.EditedScene}
}
