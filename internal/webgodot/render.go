package webgodot

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"regexp"

	"github.com/godot-mcp/godot-mcp/sdk"
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

// RenderView is where a render looks from, as a tool argument. 2D: Center
// and Zoom, or Rect (the world rectangle to fit); 3D: Position, LookAt and
// FOV. What is left out comes from the scene's current camera, else from
// the defaults (2D: the window's own view, zoom 1; 3D: (0, 0, 5) looking
// down -Z, fov 75).
type RenderView struct {
	Center   []float64 `json:"center,omitempty" jsonschema:"2D: the world point [x, y] at the middle of the picture"`
	Zoom     float64   `json:"zoom,omitempty" jsonschema:"2D: magnification, 2 shows everything twice as big (default 1, or the scene camera's)"`
	Rect     []float64 `json:"rect,omitempty" jsonschema:"2D: the world rectangle [x, y, width, height] to fit in the picture, instead of center and zoom"`
	Position []float64 `json:"position,omitempty" jsonschema:"3D: the camera's position [x, y, z] (default the scene camera's, else [0, 0, 5])"`
	LookAt   []float64 `json:"look_at,omitempty" jsonschema:"3D: the point [x, y, z] the camera looks at (default: the scene camera's direction, else -Z)"`
	FOV      float64   `json:"fov,omitempty" jsonschema:"3D: vertical field of view in degrees, 1 to 179 (default the scene camera's, else 75)"`
}

// Is3D reports whether the view places a 3D camera.
func (v *RenderView) Is3D() bool {
	return v != nil && (v.Position != nil || v.LookAt != nil || v.FOV != 0)
}

// Check refuses a view the renderer cannot use, as INVALID_ARGUMENT
// naming the field. A nil view (the scene's own camera) is fine.
func (v *RenderView) Check() error {
	if v == nil {
		return nil
	}
	bad := func(msg, hint string) error { return sdk.Errorf(sdk.CodeInvalidArgument, hint, "view: %s", msg) }
	finite := func(xs ...float64) bool {
		for _, x := range xs {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return false
			}
		}
		return true
	}
	for _, c := range []struct {
		name string
		got  []float64
		n    int
	}{{"center", v.Center, 2}, {"rect", v.Rect, 4}, {"position", v.Position, 3}, {"look_at", v.LookAt, 3}} {
		if c.got != nil && (len(c.got) != c.n || !finite(c.got...)) {
			return bad(fmt.Sprintf("%s has %d numbers, want %d finite ones", c.name, len(c.got), c.n),
				fmt.Sprintf("pass %s as an array of %d numbers", c.name, c.n))
		}
	}
	two := v.Center != nil || v.Zoom != 0 || v.Rect != nil
	three := v.Is3D()
	switch {
	case two && three:
		return bad("mixes 2D (center, zoom, rect) and 3D (position, look_at, fov) fields",
			"pass center/zoom or rect for a 2D scene, position/look_at/fov for a 3D one")
	case !two && !three:
		return bad("is empty", "pass center/zoom or rect for a 2D scene, position/look_at/fov for a 3D one, or leave view out to use the scene's camera")
	case v.Rect != nil && (v.Center != nil || v.Zoom != 0):
		return bad("rect and center/zoom both given", "pass either rect, or center and zoom")
	case v.Rect != nil && (v.Rect[2] <= 0 || v.Rect[3] <= 0):
		return bad("rect has no area", "pass rect as [x, y, width, height] with a positive width and height")
	case v.Zoom < 0 || !finite(v.Zoom, v.FOV):
		return bad("zoom must be above 0", "pass zoom > 0 (2 is twice as big)")
	case v.FOV != 0 && (v.FOV < 1 || v.FOV > 179):
		return bad(fmt.Sprintf("fov %g is outside 1..179 degrees", v.FOV), "pass fov in degrees between 1 and 179 (75 is Godot's default)")
	case v.Position != nil && v.LookAt != nil && v.Position[0] == v.LookAt[0] && v.Position[1] == v.LookAt[1] && v.Position[2] == v.LookAt[2]:
		return bad("look_at is the camera's own position", "pass a look_at point away from position")
	}
	return nil
}

// Note is how a render's text names the view: "" for the scene's camera.
func (v *RenderView) Note() string {
	switch {
	case v == nil:
		return ""
	case v.Is3D():
		return " from the given 3D view"
	default:
		return " from the given 2D view"
	}
}

// Render runs a render pack (RenderSpecFiles, packed with BuildPCK): a
// short game session, one frame grab scaled to width x height when set (0:
// keep the aspect ratio; both 0: the window's size), and the session's
// output, whose errors say why a picture may show nothing.
func (r *Runner) Render(ctx context.Context, pck []byte, width, height int) (map[string]any, []SessionLine, error) {
	sess, err := r.StartGame(ctx, pck, GameOptions{})
	if err != nil {
		return nil, nil, err
	}
	defer sess.Stop()
	var out map[string]any
	if err := sess.Call(ctx, "capture", map[string]any{"width": width, "height": height}, &out); err != nil {
		return nil, nil, err
	}
	lines, _, _ := sess.Lines(0)
	return out, lines, nil
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
