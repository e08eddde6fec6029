package main

import (
	"bytes"
	"context"
	"image"
	_ "image/gif" // the image formats Go reads
	_ "image/jpeg"
	_ "image/png"
	"math"
	"path"
	"strconv"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

// fit is a shape sized to a sprite or mesh: the shape's properties and the
// collision node's position (nil when the target is not a child of the
// body, so no common frame is known).
type fit struct {
	props map[string]any
	at    map[string]any
}

// fitScene sizes a shape of class shape to the Sprite2D or MeshInstance3D
// at target in s.
func fitScene(ctx context.Context, call *sdk.Call, s *nodeedit.Scene, target, shape string) (fit, error) {
	tp := nodeedit.OrDot(target)
	n, tn, err := s.Lookup(tp)
	if err != nil {
		return fit{}, err
	}
	class := ""
	if n != nil {
		class = n.Type()
	}
	if tn != nil && tn.Class() != "" {
		class = tn.Class()
	}
	get := func(prop string) (godot.Value, bool) {
		if n != nil {
			if v, ok := n.Get(prop); ok {
				return v, true
			}
		}
		if tn != nil {
			if v, _, ok := tn.Base(prop); ok {
				return v, true
			}
		}
		return db().DefaultValue(class, prop)
	}
	switch {
	case db().Inherits(class, "Sprite2D"):
		if dimension(shape) != "2D" {
			return fit{}, nodeedit.Invalid("fit_to", "fit a 3D shape to a MeshInstance3D", "fit_to '%s' is a Sprite2D but %s is a 3D shape", tp, shape)
		}
		return fitSprite(ctx, call, s, tp, get, shape)
	case db().Inherits(class, "MeshInstance3D"):
		if dimension(shape) != "3D" {
			return fit{}, nodeedit.Invalid("fit_to", "fit a 2D shape to a Sprite2D", "fit_to '%s' is a MeshInstance3D but %s is a 2D shape", tp, shape)
		}
		return fitMesh(ctx, call, s, tp, get, shape)
	}
	return fit{}, nodeedit.Invalid("fit_to", "point fit_to at a Sprite2D or a MeshInstance3D, or give the size in properties",
		"fit_to '%s' is a %s; only a Sprite2D or MeshInstance3D can size a shape", tp, class)
}

// r32 is x as the engine holds it (a 32-bit float) in its shortest
// spelling: 23.1, not 23.099999999999998 or 23.100000381469727.
func r32(x float64) float64 {
	f, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', -1, 32), 64)
	return f
}

func vec2(v godot.Value, def godot.Vector2) godot.Vector2 {
	if x, ok := v.(godot.Vector2); ok {
		return x
	}
	return def
}

func num(v godot.Value, def float64) float64 {
	switch x := v.(type) {
	case godot.Float:
		return float64(x)
	case godot.Int:
		return float64(x)
	}
	return def
}

func fitSprite(ctx context.Context, call *sdk.Call, s *nodeedit.Scene, tp string, get func(string) (godot.Value, bool), shape string) (fit, error) {
	var size godot.Vector2
	if on, _ := get("region_enabled"); on == godot.Bool(true) {
		r, _ := get("region_rect")
		if rr, ok := r.(godot.Rect2); ok {
			size = rr.Size
		}
	} else {
		tex, ok := get("texture")
		if !ok || tex == nil || tex.Kind() == godot.KindNil {
			return fit{}, nodeedit.Invalid("fit_to", "give the Sprite2D a texture first, or give the size in properties", "the Sprite2D '%s' has no texture", tp)
		}
		w, h, err := textureSize(ctx, call, s, tex)
		if err != nil {
			return fit{}, err
		}
		size = godot.Vector2{X: float64(w), Y: float64(h)}
	}
	hf, _ := get("hframes")
	vf, _ := get("vframes")
	size.X /= math.Max(1, num(hf, 1))
	size.Y /= math.Max(1, num(vf, 1))
	sc, _ := get("scale")
	scale := vec2(sc, godot.Vector2{X: 1, Y: 1})
	w, h := size.X*math.Abs(scale.X), size.Y*math.Abs(scale.Y)
	props := map[string]any{}
	switch shape {
	case "RectangleShape2D":
		props["size"] = []any{r32(w), r32(h)}
	case "CircleShape2D":
		props["radius"] = r32(math.Max(w, h) / 2)
	case "CapsuleShape2D":
		props["radius"] = r32(w / 2)
		props["height"] = r32(math.Max(h, w))
	default:
		return fit{}, nodeedit.Invalid("shape_type", "fit_to sizes RectangleShape2D, CircleShape2D or CapsuleShape2D; give other shapes their properties",
			"fit_to cannot size a %s", shape)
	}
	pos, _ := get("position")
	off, _ := get("offset")
	centre := vec2(pos, godot.Vector2{})
	o := vec2(off, godot.Vector2{})
	if c, _ := get("centered"); c == godot.Bool(false) {
		o.X += size.X / 2
		o.Y += size.Y / 2
	}
	centre.X += o.X * scale.X
	centre.Y += o.Y * scale.Y
	return fit{props: props, at: map[string]any{"position": []any{r32(centre.X), r32(centre.Y)}}}, nil
}

// textureSize reads the pixel size of a Sprite2D's texture: an image
// file of the project (PNG, JPEG, GIF), an inline PlaceholderTexture2D
// or a GradientTexture2D.
func textureSize(ctx context.Context, call *sdk.Call, s *nodeedit.Scene, tex godot.Value) (int, int, error) {
	switch t := tex.(type) {
	case godot.ExtResource:
		decl := s.Doc.ExtResource(t.ID)
		if decl == nil {
			break
		}
		p := decl.Path()
		f, err := call.Workspace().Read(ctx, p)
		if err != nil {
			return 0, 0, err
		}
		cfg, _, err := image.DecodeConfig(bytes.NewReader(f.Data))
		if err != nil {
			return 0, 0, nodeedit.Invalid("fit_to", "give the size in properties instead (e.g. {\"size\": [32, 32]})",
				"the size of %s cannot be read (%s images are not read headless): %v", p, strings.TrimPrefix(path.Ext(p), "."), err)
		}
		return cfg.Width, cfg.Height, nil
	case godot.SubResource:
		sub := s.Doc.SubResource(t.ID)
		if sub == nil {
			break
		}
		for _, prop := range []string{"size"} {
			if v, ok := sub.Get(prop); ok {
				sz := vec2(v, godot.Vector2{})
				return int(sz.X), int(sz.Y), nil
			}
		}
		w, _ := sub.Get("width")
		h, _ := sub.Get("height")
		if w != nil || h != nil {
			return int(num(w, 64)), int(num(h, 64)), nil
		}
		if d, ok := db().DefaultValue(sub.Type(), "size"); ok {
			sz := vec2(d, godot.Vector2{})
			return int(sz.X), int(sz.Y), nil
		}
		if d, ok := db().DefaultValue(sub.Type(), "width"); ok {
			h, _ := db().DefaultValue(sub.Type(), "height")
			return int(num(d, 64)), int(num(h, 64)), nil
		}
	}
	return 0, 0, nodeedit.Invalid("fit_to", "give the size in properties instead", "the sprite's texture size cannot be read headless")
}

func fitMesh(ctx context.Context, call *sdk.Call, s *nodeedit.Scene, tp string, get func(string) (godot.Value, bool), shape string) (fit, error) {
	mv, ok := get("mesh")
	if !ok || mv == nil || mv.Kind() == godot.KindNil {
		return fit{}, nodeedit.Invalid("fit_to", "give the MeshInstance3D a mesh first, or give the size in properties", "the MeshInstance3D '%s' has no mesh", tp)
	}
	box, err := meshAABB(ctx, call, s.Doc, mv)
	if err != nil {
		return fit{}, err
	}
	tv, _ := get("transform")
	t, _ := tv.(godot.Transform3D)
	if t == (godot.Transform3D{}) {
		t.Basis.Rows = [3]godot.Vector3{{X: 1}, {Y: 1}, {Z: 1}}
	}
	col := func(i int) float64 {
		r := t.Basis.Rows
		get := func(v godot.Vector3) float64 { return [3]float64{v.X, v.Y, v.Z}[i] }
		return math.Sqrt(get(r[0])*get(r[0]) + get(r[1])*get(r[1]) + get(r[2])*get(r[2]))
	}
	x, y, z := box.Size.X*col(0), box.Size.Y*col(1), box.Size.Z*col(2)
	props := map[string]any{}
	switch shape {
	case "BoxShape3D":
		props["size"] = []any{r32(x), r32(y), r32(z)}
	case "SphereShape3D":
		props["radius"] = r32(math.Max(x, math.Max(y, z)) / 2)
	case "CapsuleShape3D":
		props["radius"] = r32(math.Max(x, z) / 2)
		props["height"] = r32(math.Max(y, math.Max(x, z)))
	case "CylinderShape3D":
		props["radius"] = r32(math.Max(x, z) / 2)
		props["height"] = r32(y)
	default:
		return fit{}, nodeedit.Invalid("shape_type", "fit_to sizes BoxShape3D, SphereShape3D, CapsuleShape3D or CylinderShape3D; give other shapes their properties",
			"fit_to cannot size a %s", shape)
	}
	c := godot.Vector3{X: box.Position.X + box.Size.X/2, Y: box.Position.Y + box.Size.Y/2, Z: box.Position.Z + box.Size.Z/2}
	r := t.Basis.Rows
	centre := []any{
		r32(t.Origin.X + r[0].X*c.X + r[0].Y*c.Y + r[0].Z*c.Z),
		r32(t.Origin.Y + r[1].X*c.X + r[1].Y*c.Y + r[1].Z*c.Z),
		r32(t.Origin.Z + r[2].X*c.X + r[2].Y*c.Y + r[2].Z*c.Z),
	}
	return fit{props: props, at: map[string]any{"position": centre}}, nil
}

// meshAABB is the local bounding box of a mesh: a primitive mesh's from
// its parameters (the class defaults for those not written), an
// ArrayMesh's from its surfaces' aabb.
func meshAABB(ctx context.Context, call *sdk.Call, f *godot.File, mv godot.Value) (godot.AABB, error) {
	var sec *godot.Section
	typ := ""
	switch m := mv.(type) {
	case godot.SubResource:
		if sub := f.SubResource(m.ID); sub != nil {
			sec, typ = sub.Section, sub.Type()
		}
	case godot.ExtResource:
		decl := f.ExtResource(m.ID)
		if decl == nil || !strings.HasSuffix(decl.Path(), ".tres") {
			break
		}
		file, err := call.Workspace().Read(ctx, decl.Path())
		if err != nil {
			return godot.AABB{}, err
		}
		doc, err := godot.ParseFile(decl.Path(), file.Data)
		if err != nil || doc.Resource() == nil {
			break
		}
		sec, typ = doc.Resource(), doc.ResourceType()
	}
	if sec == nil {
		return godot.AABB{}, nodeedit.Invalid("fit_to", "give the size in properties instead (e.g. {\"size\": [2, 1, 2]})",
			"the mesh's bounds cannot be read headless (an imported model or a binary resource)")
	}
	get := func(prop string) godot.Value {
		if v, ok := sec.Get(prop); ok {
			return v
		}
		v, _ := db().DefaultValue(typ, prop)
		return v
	}
	box := func(x, y, z float64) godot.AABB {
		return godot.AABB{Position: godot.Vector3{X: -x / 2, Y: -y / 2, Z: -z / 2}, Size: godot.Vector3{X: x, Y: y, Z: z}}
	}
	v3 := func(v godot.Value) godot.Vector3 { x, _ := v.(godot.Vector3); return x }
	switch typ {
	case "BoxMesh", "PrismMesh":
		s := v3(get("size"))
		return box(s.X, s.Y, s.Z), nil
	case "SphereMesh", "CapsuleMesh":
		r, h := num(get("radius"), 0.5), num(get("height"), 1)
		return box(2*r, h, 2*r), nil
	case "CylinderMesh":
		r := math.Max(num(get("top_radius"), 0.5), num(get("bottom_radius"), 0.5))
		return box(2*r, num(get("height"), 2), 2*r), nil
	case "PlaneMesh":
		s := vec2(get("size"), godot.Vector2{X: 2, Y: 2})
		switch num(get("orientation"), 1) {
		case 0:
			return box(0, s.X, s.Y), nil
		case 2:
			return box(s.X, s.Y, 0), nil
		}
		return box(s.X, 0, s.Y), nil
	case "QuadMesh":
		s := vec2(get("size"), godot.Vector2{X: 1, Y: 1})
		return box(s.X, s.Y, 0), nil
	case "ArrayMesh":
		if surfs, ok := sec.Get("_surfaces"); ok {
			if arr, ok := surfs.(godot.Array); ok {
				var out godot.AABB
				first := true
				for _, e := range arr.Items {
					d, ok := e.(godot.Dictionary)
					if !ok {
						continue
					}
					for _, kv := range d.Entries {
						if k, _ := kv.Key.(godot.String); k == "aabb" {
							if a, ok := kv.Value.(godot.AABB); ok {
								if first {
									out, first = a, false
								} else {
									out = merge(out, a)
								}
							}
						}
					}
				}
				if !first {
					return out, nil
				}
			}
		}
	}
	return godot.AABB{}, nodeedit.Invalid("fit_to", "give the size in properties instead", "the bounds of a %s cannot be read headless", typ)
}

func merge(a, b godot.AABB) godot.AABB {
	lo := godot.Vector3{X: math.Min(a.Position.X, b.Position.X), Y: math.Min(a.Position.Y, b.Position.Y), Z: math.Min(a.Position.Z, b.Position.Z)}
	hi := godot.Vector3{
		X: math.Max(a.Position.X+a.Size.X, b.Position.X+b.Size.X),
		Y: math.Max(a.Position.Y+a.Size.Y, b.Position.Y+b.Size.Y),
		Z: math.Max(a.Position.Z+a.Size.Z, b.Position.Z+b.Size.Z),
	}
	return godot.AABB{Position: lo, Size: godot.Vector3{X: hi.X - lo.X, Y: hi.Y - lo.Y, Z: hi.Z - lo.Z}}
}
