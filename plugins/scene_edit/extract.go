package main

import (
	"context"
	"path"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/uid"
)

type extractArgs struct {
	NodePath            string        `json:"node_path" jsonschema:"path of the subtree's root node"`
	ScenePath           sdk.ScenePath `json:"scene_path" jsonschema:"res:// path of the new scene (.tscn); must not exist" godot:"ext=.tscn"`
	ReplaceWithInstance bool          `json:"replace_with_instance,omitempty" jsonschema:"replace the subtree with an instance of the new scene"`
	SaveCurrent         bool          `json:"save_current,omitempty" jsonschema:"editor: save the edited scene afterwards (headless it is always written)"`
	Preview             bool          `json:"preview,omitempty" jsonschema:"only report what would be extracted"`
	Scene               sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene to edit; default: the active scene (see godot_scene_edit_open_scene)"`
}

func extractScene(ctx context.Context, call *sdk.Call, in extractArgs) (sdk.Result, error) {
	return extractHeadless(ctx, call, in, normalizeNodePath(in.NodePath), string(in.ScenePath))
}

// extractHeadless copies the subtree into a new scene file: its nodes,
// groups, properties (with the ext and sub resources they use, declared
// afresh in the new file), the connections inside it and its editable
// instances. With replace_with_instance the subtree is then replaced by an
// instance of the new scene at the same place. Both files are written in
// one action, so one godot_undo reverts the extraction.
func extractHeadless(ctx context.Context, call *sdk.Call, in extractArgs, np, sp string) (sdk.Result, error) {
	s, n, err := loadNode(ctx, call, string(in.Scene), np)
	if err != nil {
		return sdk.Result{}, err
	}
	if n.IsRoot() {
		return sdk.Result{}, invalid(requiredNodePath, "extract a child subtree; the whole scene is already a scene", "Cannot extract the scene root.")
	}
	if n.Type() == "" {
		return sdk.Result{}, invalid(requiredNodePath, "extract a node the scene declares with a type", "'%s' is an instance or belongs to another scene", np)
	}
	// inside says whether a node path is in the extracted subtree.
	inside := func(p string) bool { return p == n.Path() || strings.HasPrefix(p, n.Path()+"/") }
	var sub []*godot.Node
	for _, m := range s.file.Nodes() {
		if inside(m.Path()) {
			if !m.Declared() {
				return sdk.Result{}, invalid(requiredNodePath, "make the instance's children local in the editor first",
					"the subtree contains '%s', which belongs to an instanced scene", m.Path())
			}
			sub = append(sub, m)
		}
	}
	if fi, err := call.Workspace().Stat(ctx, sp); err == nil && fi.Exists {
		return sdk.Result{}, invalid(requiredScenePath, "choose a path that does not exist", "%s already exists", sp)
	}
	out := map[string]any{"node_path": np, "scene_path": sp, "node_count": len(sub)}
	if in.Preview {
		out["extracted"], out["replaced"], out["saved"] = false, false, false
		return sdk.JSON(out), nil
	}
	_, ids := s.file.Root().UniqueID()
	nf, err := godot.NewScene(sp, uid.New().String(), ids)
	if err != nil {
		return sdk.Result{}, err
	}
	nf.SetFloatStyle(s.file.FloatStyle())
	cp := &copier{src: s.file, dst: nf, ext: map[string]godot.Value{}, sub: map[string]godot.Value{}}
	rel := func(p string) string {
		if p == n.Path() {
			return "."
		}
		return strings.TrimPrefix(p, n.Path()+"/")
	}
	for _, m := range sub {
		var nn *godot.Node
		switch {
		case m == n:
			nn, err = nf.AddNode("", m.Name(), m.Type())
		case m.Type() != "":
			nn, err = nf.AddNode(rel(path.Dir("/" + m.Path())[1:]), m.Name(), m.Type())
		default:
			inst, _ := m.Instance()
			ref := cp.value(inst)
			nn, err = nf.AddInstance(rel(path.Dir("/" + m.Path())[1:]), m.Name(), ref.(godot.ExtResource))
		}
		if err != nil {
			return sdk.Result{}, editError(err, requiredNodePath)
		}
		for _, g := range m.Groups() {
			_ = nn.AddGroup(g)
		}
		for _, p := range m.Properties() {
			nn.Set(p.Key, cp.value(p.Value))
		}
	}
	for _, c := range s.file.Connections() {
		if inside(c.From) && inside(c.To) {
			c.From, c.To = rel(c.From), rel(c.To)
			if err := nf.AddConnection(c); err != nil {
				return sdk.Result{}, editError(err, requiredNodePath)
			}
		}
	}
	for _, e := range s.file.EditablePaths() {
		if inside(e) {
			_, _ = nf.SetEditable(rel(e), true)
		}
	}
	out["extracted"], out["saved"], out["replaced"] = true, true, false
	if in.ReplaceWithInstance {
		parent, index, name := path.Dir("/" + n.Path())[1:], n.Index(), n.Name()
		if parent == "" {
			parent = "."
		}
		// Connections between the branch and the rest of the scene stay
		// in this scene: the instance takes the branch's name and place,
		// so their paths (now through the instance) are unchanged.
		// RemoveNode drops them with the branch; they are put back after.
		var across []godot.Connection
		for _, c := range s.file.Connections() {
			if inside(c.From) != inside(c.To) {
				across = append(across, c)
			}
		}
		if err := s.file.RemoveNode(n.Path()); err != nil {
			return sdk.Result{}, editError(err, requiredNodePath)
		}
		ref, err := s.file.AddExtResource("PackedScene", sp, nf.UID())
		if err != nil {
			return sdk.Result{}, editError(err, requiredScenePath)
		}
		inst, err := s.file.AddInstance(parent, name, ref)
		if err != nil {
			return sdk.Result{}, editError(err, requiredNodePath)
		}
		if err := s.file.MoveNodeTo(inst.Path(), parent, index); err != nil {
			return sdk.Result{}, editError(err, requiredNodePath)
		}
		fromInside := false
		for _, c := range across {
			if err := s.file.AddConnection(c); err != nil {
				return sdk.Result{}, editError(err, requiredNodePath)
			}
			fromInside = fromInside || c.From != n.Path() && inside(c.From)
		}
		if fromInside {
			// The editor saves the connections of a node inside an
			// instance only when the instance's children are editable.
			_, _ = s.file.SetEditable(inst.Path(), true)
		}
		if len(across) > 0 {
			out["connections_kept"] = len(across)
		}
		out["replaced"] = true
		out["instance_path"] = inst.Path()
	}
	data := nf.Bytes()
	return s.commit(ctx, call, "Extract "+n.Name()+" to "+path.Base(sp), out, func(tx *sdk.Tx) { tx.Write(sp, data, "") })
}

// copier declares the resources a copied value uses in the destination
// file, once each.
type copier struct {
	src, dst *godot.File
	ext, sub map[string]godot.Value
}

func (c *copier) value(v godot.Value) godot.Value {
	switch x := v.(type) {
	case godot.ExtResource:
		if r, ok := c.ext[x.ID]; ok {
			return r
		}
		d := c.src.ExtResource(x.ID)
		if d == nil {
			return v
		}
		r, err := c.dst.AddExtResource(d.Type(), d.Path(), d.UID())
		if err != nil {
			return v
		}
		c.ext[x.ID] = r
		return r
	case godot.SubResource:
		if r, ok := c.sub[x.ID]; ok {
			return r
		}
		d := c.src.SubResource(x.ID)
		if d == nil {
			return v
		}
		// Dependencies first, as the saver orders them.
		props := d.Properties()
		vals := make([]godot.Value, len(props))
		for i, p := range props {
			vals[i] = c.value(p.Value)
		}
		nd, err := c.dst.AddSubResource(d.Type())
		if err != nil {
			return v
		}
		for i, p := range props {
			nd.Set(p.Key, vals[i])
		}
		r := nd.Ref()
		c.sub[x.ID] = r
		return r
	case godot.Array:
		items := make([]godot.Value, len(x.Items))
		for i, it := range x.Items {
			items[i] = c.value(it)
		}
		x.Items = items
		return x
	case godot.Dictionary:
		es := make([]godot.DictEntry, len(x.Entries))
		for i, e := range x.Entries {
			es[i] = godot.DictEntry{Key: c.value(e.Key), Value: c.value(e.Value)}
		}
		x.Entries = es
		return x
	}
	return v
}
