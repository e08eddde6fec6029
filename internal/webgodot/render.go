package webgodot

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"regexp"
)

//go:embed render.gd
var renderScript []byte

// Where RenderFiles puts the renderer, next to the probe.
const (
	renderScene      = ".godot/godot-mcp/render.tscn"
	renderScriptPath = ".godot/godot-mcp/render.gd"
	renderConfig     = ".godot/godot-mcp/render.json"
)

// RenderFiles returns the files of a pack that shows scene (a res://
// path) without running its scripts, for StartGame and a "capture" call:
// the project's files and the probe as in ReadGameFiles, a main scene
// that instantiates scene with every script taken off, and the project's
// autoloads commented out of project.godot (they are scripts too; line
// numbers are kept).
func RenderFiles(dir, scene string) ([]PackFile, error) {
	return RenderSpecFiles(dir, RenderSpec{Scene: scene})
}

// RenderSpec says what a render pack shows (see render.gd): a scene, or a
// resource in a small preview scene, and optionally from where.
type RenderSpec struct {
	// Scene is the res:// path of a scene to show, its scripts taken off.
	Scene string `json:"scene,omitempty"`
	// Resource, when Scene is empty, is the res:// path of a resource to
	// show in a preview scene: a Texture2D or Gradient fills the window, a
	// Mesh is framed and lit, a spatial Material or Shader covers a
	// sphere, a canvas_item one a rectangle, a StyleBox is a Panel, a
	// Theme dresses a few controls, a PackedScene is a scene. A
	// sub-resource of a scene or resource file is "res://file.tscn::id".
	Resource string `json:"resource,omitempty"`
	// View, when set, replaces the scene's own camera.
	View *RenderView `json:"view,omitempty"`
}

// RenderView is where a render looks from. 2D: Center and Zoom, or Rect
// (the world rectangle to fit); 3D: Position, LookAt and FOV. What is left
// out comes from the scene's current camera, else from the defaults
// (2D: the window's own view, zoom 1; 3D: (0, 0, 5) looking down -Z).
type RenderView struct {
	Center   []float64 `json:"center,omitempty"`
	Zoom     float64   `json:"zoom,omitempty"`
	Rect     []float64 `json:"rect,omitempty"`
	Position []float64 `json:"position,omitempty"`
	LookAt   []float64 `json:"look_at,omitempty"`
	FOV      float64   `json:"fov,omitempty"`
}

// Is3D reports whether the view places a 3D camera.
func (v *RenderView) Is3D() bool {
	return v != nil && (v.Position != nil || v.LookAt != nil || v.FOV != 0)
}

// RenderSpecFiles is RenderFiles for what spec names.
func RenderSpecFiles(dir string, spec RenderSpec) ([]PackFile, error) {
	files, err := ReadGameFiles(dir, "res://"+renderScene)
	if err != nil {
		return nil, err
	}
	for i, f := range files {
		if f.Path == "project.godot" {
			files[i].Data = WithoutAutoloads(f.Data)
		}
	}
	cfg, err := json.Marshal(spec)
	if err != nil {
		return nil, err
	}
	tscn := "[gd_scene load_steps=2 format=3]\n\n[ext_resource type=\"Script\" path=\"res://" + renderScriptPath + "\" id=\"1\"]\n\n" +
		"[node name=\"GodotMcpRender\" type=\"Node\"]\nscript = ExtResource(\"1\")\n"
	return append(files,
		PackFile{Path: renderScriptPath, Data: renderScript},
		PackFile{Path: renderScene, Data: []byte(tscn)},
		PackFile{Path: renderConfig, Data: cfg}), nil
}

// sectionRe matches a named section header; an empty "[]" opens none.
var sectionRe = regexp.MustCompile(`^\s*\[([^\]]+)\]`)

// WithoutAutoloads blanks the [autoload] section of project.godot: a
// render or a load check must not run the project's singletons, and an
// override cannot remove them. Lines are commented out, not removed, so
// line numbers in engine errors still match the user's file.
func WithoutAutoloads(src []byte) []byte {
	lines := bytes.SplitAfter(src, []byte("\n"))
	in := false
	for i, l := range lines {
		if m := sectionRe.FindSubmatch(l); m != nil {
			in = string(m[1]) == "autoload"
		}
		if in && len(bytes.TrimSpace(l)) > 0 {
			lines[i] = append([]byte("; "), l...)
		}
	}
	return bytes.Join(lines, nil)
}
