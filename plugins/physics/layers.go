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

type setLayersArgs struct {
	NodePath   string        `json:"node_path" jsonschema:"path of the body or area (CollisionObject2D/3D) from the scene root"`
	Layers     []int         `json:"layers,omitempty" jsonschema:"1-based indices (1..32) of the collision layers the body is on, e.g. [1, 3] (bitmask 5); [] clears; omit to leave collision_layer unchanged"`
	Mask       []int         `json:"mask,omitempty" jsonschema:"1-based indices (1..32) of the layers the body scans; [] clears; omit to leave collision_mask unchanged"`
	LayerNames []string      `json:"layer_names,omitempty" jsonschema:"the layers by the project's names (layer_names/2d_physics/layer_N or 3d_physics in project.godot), added to layers"`
	MaskNames  []string      `json:"mask_names,omitempty" jsonschema:"the mask's layers by the project's names, added to mask"`
	Scene      sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene to edit; default: the active scene (see godot_scene_edit_open_scene). In the editor it is opened first"`
}

// layerNames reads the project's names of the physics layers of
// dimension dim ("2D", "3D", or "" for both): index by name.
func layerNames(ctx context.Context, call *sdk.Call, kind, dim string) (map[string][]int, error) {
	out := map[string][]int{}
	f, err := call.Workspace().Read(ctx, "res://project.godot")
	if err != nil {
		return out, nil
	}
	p, err := godot.ParseProject("project.godot", f.Data)
	if err != nil {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "fix project.godot (godot-mcp check project.godot shows where)", "project.godot does not parse: %v", err)
	}
	for _, d := range []string{"2d", "3d"} {
		if dim != "" && !strings.EqualFold(dim, d) {
			continue
		}
		for i := 1; i <= 32; i++ {
			v, ok := p.Setting(fmt.Sprintf("layer_names/%s_%s/layer_%d", d, kind, i))
			if !ok {
				continue
			}
			if s, ok := v.(godot.String); ok && s != "" {
				if !slices.Contains(out[string(s)], i) {
					out[string(s)] = append(out[string(s)], i)
				}
			}
		}
	}
	return out, nil
}

// resolveLayers turns indices and names into the set bits; nil when
// neither was given (leave the property unchanged).
func resolveLayers(arg string, idx []int, names []string, known map[string][]int, kind, dim string) (*int64, error) {
	if idx == nil && names == nil {
		return nil, nil
	}
	var mask int64
	for _, i := range idx {
		if i < 1 || i > 32 {
			return nil, nodeedit.Invalid(arg, "layers are 1-based: 1..32", "'%s' must be an array of bit indices in [1, 32]; got %d", arg, i)
		}
		mask |= 1 << (i - 1)
	}
	for _, n := range names {
		bits := known[n]
		switch {
		case len(bits) == 1:
			mask |= 1 << (bits[0] - 1)
		case len(bits) > 1:
			return nil, nodeedit.Invalid(arg, "pass scene so the body's dimension picks the 2D or 3D name, or give the index", "layer name %q names layer %v in 2D and 3D", n, bits)
		default:
			var have []string
			for k := range known {
				have = append(have, k)
			}
			slices.Sort(have)
			hint := fmt.Sprintf("the project names no %s %s layers; name them in Project Settings > Layer Names or pass indices", strings.ToUpper(dim), kind)
			if len(have) > 0 {
				hint = fmt.Sprintf("the project's %s %s layer names are %s", strings.ToUpper(dim), kind, strings.Join(have, ", "))
			}
			return nil, nodeedit.Invalid(arg, hint, "no %s layer is named %q", kind, n)
		}
	}
	return &mask, nil
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
	if !isCollisionObject(class) {
		return sdk.Result{}, notBody(np, class)
	}
	layer, mask, err := bits(ctx, call, in, dimension(class))
	if err != nil {
		return sdk.Result{}, err
	}
	if layer != nil {
		if _, err := s.Set(n, "collision_layer", float64(*layer)); err != nil {
			return sdk.Result{}, err
		}
	}
	if mask != nil {
		if _, err := s.Set(n, "collision_mask", float64(*mask)); err != nil {
			return sdk.Result{}, err
		}
	}
	now := func(p string) any {
		v, ok := n.Get(p)
		if !ok {
			v, _ = db().DefaultValue(class, p)
		}
		return godot.ToJSON(v)
	}
	out := map[string]any{"node_path": np, "collision_layer": now("collision_layer"), "collision_mask": now("collision_mask")}
	return s.CommitAnswer("Set physics layers on "+n.Name(), out)
}

func bits(ctx context.Context, call *sdk.Call, in setLayersArgs, dim string) (layer, mask *int64, err error) {
	var known map[string][]int
	if in.LayerNames != nil || in.MaskNames != nil {
		if known, err = layerNames(ctx, call, "physics", dim); err != nil {
			return nil, nil, err
		}
	}
	if layer, err = resolveLayers("layers", in.Layers, in.LayerNames, known, "physics", dim); err != nil {
		return nil, nil, err
	}
	if mask, err = resolveLayers("mask", in.Mask, in.MaskNames, known, "physics", dim); err != nil {
		return nil, nil, err
	}
	return layer, mask, nil
}

// indices lists the set bits of mask as 1-based indices, the addon's
// form.
func indices(mask *int64) any {
	if mask == nil {
		return nil
	}
	out := []int{}
	for i := 0; i < 32; i++ {
		if *mask&(1<<i) != 0 {
			out = append(out, i+1)
		}
	}
	return out
}

func setLayersEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in setLayersArgs) (sdk.Result, error) {
	dim := ""
	if in.Scene != "" && (in.LayerNames != nil || in.MaskNames != nil) {
		// The body's dimension picks the 2D or 3D names: read it from the
		// saved scene.
		if s, err := nodeedit.OpenScene(ctx, call, string(in.Scene)); err == nil {
			if _, class, err := s.NodeAndClass(ctx, call, nodeedit.OrDot(in.NodePath)); err == nil {
				dim = dimension(class)
			}
		}
	}
	layer, mask, err := bits(ctx, call, in, dim)
	if err != nil {
		return sdk.Result{}, err
	}
	if err := ed.OpenScene(ctx, string(in.Scene)); err != nil {
		return sdk.Result{}, err
	}
	return ed.Forward(ctx, "cmd_set_physics_layers", map[string]any{"node_path": nodeedit.OrDot(in.NodePath), "layers": indices(layer), "mask": indices(mask)})
}
