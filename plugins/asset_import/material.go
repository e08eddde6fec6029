package main

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/importfile"
	"github.com/godot-mcp/godot-mcp/sdk/godot/uid"
)

type materialArgs struct {
	Albedo    sdk.ResPath `json:"albedo,omitempty" jsonschema:"res:// path of the albedo (base colour) texture" godot:"ext=.png|.jpg|.jpeg|.webp|.svg|.bmp|.tga|.exr|.hdr|.tres|.res,exists"`
	Normal    sdk.ResPath `json:"normal,omitempty" jsonschema:"res:// path of the normal map (sets normal_enabled)" godot:"ext=.png|.jpg|.jpeg|.webp|.svg|.bmp|.tga|.exr|.hdr|.tres|.res,exists"`
	Roughness sdk.ResPath `json:"roughness,omitempty" jsonschema:"res:// path of the roughness texture (its red channel)" godot:"ext=.png|.jpg|.jpeg|.webp|.svg|.bmp|.tga|.exr|.hdr|.tres|.res,exists"`
	Metallic  sdk.ResPath `json:"metallic,omitempty" jsonschema:"res:// path of the metallic texture (its red channel; sets metallic to 1.0 so the texture decides)" godot:"ext=.png|.jpg|.jpeg|.webp|.svg|.bmp|.tga|.exr|.hdr|.tres|.res,exists"`
	AO        sdk.ResPath `json:"ao,omitempty" jsonschema:"res:// path of the ambient occlusion texture (its red channel; sets ao_enabled)" godot:"ext=.png|.jpg|.jpeg|.webp|.svg|.bmp|.tga|.exr|.hdr|.tres|.res,exists"`
	Emission  sdk.ResPath `json:"emission,omitempty" jsonschema:"res:// path of the emission texture (sets emission_enabled)" godot:"ext=.png|.jpg|.jpeg|.webp|.svg|.bmp|.tga|.exr|.hdr|.tres|.res,exists"`
	Path      sdk.ResPath `json:"path,omitempty" jsonschema:"res:// path of the material to create (.tres); default res://materials/<albedo's name>.tres" godot:"ext=.tres"`
	Overwrite bool        `json:"overwrite,omitempty" jsonschema:"replace a file already at path"`
}

// channel is one texture slot of a StandardMaterial3D and what else the
// editor's inspector needs set for the slot to take effect.
type channel struct {
	name     string // the argument
	property string // the texture property
	extra    []prop // set with it, in the material's property order
}

type prop struct {
	name  string
	value godot.Value
}

// channels are in the class's property order, which is the order the
// editor's saver writes them.
var channels = []channel{
	{name: "albedo", property: "albedo_texture"},
	// metallic multiplies the texture and defaults to 0, which would
	// make a metallic texture do nothing.
	{name: "metallic", property: "metallic_texture", extra: []prop{{"metallic", godot.Float(1)}}},
	{name: "roughness", property: "roughness_texture"},
	{name: "emission", property: "emission_texture", extra: []prop{{"emission_enabled", godot.Bool(true)}}},
	{name: "normal", property: "normal_texture", extra: []prop{{"normal_enabled", godot.Bool(true)}}},
	{name: "ao", property: "ao_texture", extra: []prop{{"ao_enabled", godot.Bool(true)}}},
}

func (in materialArgs) texture(name string) string {
	switch name {
	case "albedo":
		return string(in.Albedo)
	case "normal":
		return string(in.Normal)
	case "roughness":
		return string(in.Roughness)
	case "metallic":
		return string(in.Metallic)
	case "ao":
		return string(in.AO)
	}
	return string(in.Emission)
}

type materialResult struct {
	MaterialPath string            `json:"material_path"`
	Created      bool              `json:"created" jsonschema:"the material was written (false in a dry run)"`
	ChannelsSet  []string          `json:"channels_set" jsonschema:"the texture channels set, in the material's order"`
	UID          string            `json:"uid,omitempty"`
	Properties   []string          `json:"properties" jsonschema:"every property written, in order"`
	Commit       *sdk.CommitResult `json:"commit,omitempty"`
}

// materialPath is where the material goes: path, else beside the others
// under res://materials, named after the first texture given with its
// channel suffix (_albedo, _basecolor, ...) removed.
func materialPath(in materialArgs) (string, []string, error) {
	var set []string
	first := ""
	for _, c := range channels {
		if t := in.texture(c.name); t != "" {
			set = append(set, c.name)
			if first == "" || c.name == "albedo" {
				first = t
			}
		}
	}
	if len(set) == 0 {
		return "", nil, sdk.Errorf(sdk.CodeInvalidArgument, "pass at least one of albedo, normal, roughness, metallic, ao, emission (res:// paths of textures)",
			"no texture given")
	}
	if in.Path != "" {
		return string(in.Path), set, nil
	}
	stem := strings.TrimSuffix(path.Base(first), path.Ext(first))
	for _, suf := range []string{"_albedo", "_basecolor", "_base_color", "_diffuse", "_color", "_col", "_normal", "_nrm", "_roughness", "_metallic", "_ao", "_emission"} {
		if s, ok := strings.CutSuffix(strings.ToLower(stem), suf); ok && s != "" {
			stem = stem[:len(s)]
			break
		}
	}
	return "res://materials/" + stem + ".tres", set, nil
}

// minor is the minor version of a 4.x version text, or 99 when unknown
// (the newest form).
func minor(version string) int {
	parts := strings.Split(version, ".")
	if len(parts) < 2 || parts[0] != "4" {
		return 99
	}
	n, err := strconv.Atoi(parts[1])
	if err != nil {
		return 99
	}
	return n
}

// textureRef is how the material declares a texture: its class and uid.
func textureRef(ctx context.Context, ws *sdk.Workspace, tex string) (typ, id string, err error) {
	if ext := strings.ToLower(path.Ext(tex)); ext == ".tres" || ext == ".res" {
		f, err := ws.Read(ctx, tex)
		if err != nil {
			return "", "", err
		}
		if ext == ".res" {
			return "Texture2D", "", nil
		}
		rf, err := ws.ParseFile(ctx, f)
		if err != nil {
			return "", "", sdk.Errorf(sdk.CodeInvalidArgument, "fix or recreate the texture resource", "%s does not parse: %v", tex, err)
		}
		if !strings.Contains(rf.ResourceType(), "Texture") {
			return "", "", sdk.Errorf(sdk.CodeInvalidArgument, "pass a texture: an image, or a .tres of a Texture2D class such as GradientTexture2D",
				"%s is a %s, not a texture", tex, rf.ResourceType())
		}
		return rf.ResourceType(), rf.UID(), nil
	}
	f, err := ws.Read(ctx, tex+".import")
	if err != nil {
		return "Texture2D", "", nil //nolint:nilerr // not imported yet: no uid to record
	}
	info, err := importfile.Parse(tex+".import", f.Data)
	if err != nil || !uid.IsCanonical(info.UID) {
		return "Texture2D", "", nil //nolint:nilerr // an unreadable .import has no uid to offer
	}
	return "Texture2D", info.UID, nil
}

func createMaterial(ctx context.Context, call *sdk.Call, in materialArgs) (sdk.Result, error) {
	target, set, err := materialPath(in)
	if err != nil {
		return sdk.Result{}, err
	}
	ws := call.Workspace()
	st, err := statNew(ctx, ws, target, in.Overwrite, "pass overwrite: true to replace it, or another path")
	if err != nil {
		return sdk.Result{}, err
	}
	rf, id, err := newResourceFile(ctx, ws, "StandardMaterial3D", target)
	if err != nil {
		return sdk.Result{}, err
	}
	// The editor's saver numbers the external resources in the order of
	// their paths, and writes the properties in the class's order.
	refs := map[string]godot.ExtResource{}
	var texPaths []string
	for _, c := range channels {
		if tex := in.texture(c.name); tex != "" && !slices.Contains(texPaths, tex) {
			texPaths = append(texPaths, tex)
		}
	}
	slices.Sort(texPaths)
	for _, tex := range texPaths {
		typ, tid, err := textureRef(ctx, ws, tex)
		if err != nil {
			return sdk.Result{}, err
		}
		ref, err := rf.AddExtResource(typ, tex, tid)
		if err != nil {
			return sdk.Result{}, fmt.Errorf("declaring %s: %w", tex, err)
		}
		refs[tex] = ref
	}
	var props []string
	for _, c := range channels {
		tex := in.texture(c.name)
		if tex == "" {
			continue
		}
		for _, p := range c.extra {
			rf.Resource().Set(p.name, p.value)
			props = append(props, p.name)
		}
		rf.Resource().Set(c.property, refs[tex])
		props = append(props, c.property)
	}
	cr, err := ws.Begin("Create material "+target).Write(target, rf.Bytes(), st.Version).Commit(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(materialResult{MaterialPath: target, Created: !cr.DryRun, ChannelsSet: set, UID: id, Properties: props, Commit: &cr}), nil
}

// createMaterialInEditor has the addon build the material with its own
// ResourceSaver (cmd_create_material_from_textures), then sets the flags
// the addon leaves out (normal_enabled, emission_enabled, ao_enabled,
// metallic), without which those textures do nothing.
func createMaterialInEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in materialArgs) (sdk.Result, error) {
	target, set, err := materialPath(in)
	if err != nil {
		return sdk.Result{}, err
	}
	// The addon's saver replaces any file; the refusal is ours, as headless.
	if _, err := statNew(ctx, call.Workspace(), target, in.Overwrite, "pass overwrite: true to replace it, or another path"); err != nil {
		return sdk.Result{}, err
	}
	params := map[string]any{"path": target}
	for _, c := range channels {
		params[c.name] = in.texture(c.name)
	}
	var out struct {
		MaterialPath string   `json:"material_path"`
		Created      bool     `json:"created"`
		ChannelsSet  []string `json:"channels_set"`
	}
	if err := ed.Apply(ctx, "cmd_create_material_from_textures", params, &out); err != nil {
		return sdk.Result{}, err
	}
	if out.MaterialPath == "" {
		out.MaterialPath = target
	}
	var props []string
	for _, c := range channels {
		if in.texture(c.name) == "" {
			continue
		}
		for _, p := range c.extra {
			var v any
			switch x := p.value.(type) {
			case godot.Bool:
				v = bool(x)
			case godot.Float:
				v = float64(x)
			}
			if err := ed.Apply(ctx, "cmd_set_resource_property", map[string]any{"resource_path": out.MaterialPath, "property": p.name, "value": v}, nil); err != nil {
				return sdk.Result{}, err
			}
			props = append(props, p.name)
		}
		props = append(props, c.property)
	}
	return sdk.JSON(materialResult{MaterialPath: out.MaterialPath, Created: !ed.DryRun(), ChannelsSet: set, Properties: props}), nil
}
