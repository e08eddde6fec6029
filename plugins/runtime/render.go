package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk"
)

type renderArgs struct {
	Scene          sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the .tscn/.scn scene to render (default: the main scene, when no resource is given)"`
	Resource       string        `json:"resource,omitempty" jsonschema:"res:// path of a resource to render instead of a scene, in a small preview scene: a Texture2D or Gradient fills the picture, a Mesh is framed and lit, a spatial Material or Shader covers a sphere (a canvas_item one a rectangle), a StyleBox is a Panel, a Theme dresses a few controls, a PackedScene is rendered as a scene; a sub-resource as res://file.tscn::id"`
	View           *viewArgs     `json:"view,omitempty" jsonschema:"where to look from instead of the scene's own camera: 2D center and zoom, or rect; 3D position, look_at and fov. What is left out comes from the scene's current camera"`
	Width          int           `json:"width,omitempty" minimum:"1" maximum:"4096" jsonschema:"scale the picture to this width in pixels (keeps the aspect ratio when height is not given)"`
	Height         int           `json:"height,omitempty" minimum:"1" maximum:"4096" jsonschema:"scale the picture to this height in pixels (keeps the aspect ratio when width is not given)"`
	TimeoutSeconds int           `json:"timeout_seconds,omitempty" default:"120" minimum:"5" maximum:"600" jsonschema:"deadline for the whole render, engine start included (default 120, at most 600)"`
}

// viewArgs is the view of a render, 2D or 3D (webgodot.RenderView).
type viewArgs struct {
	Center   []float64 `json:"center,omitempty" jsonschema:"2D: the world point [x, y] at the middle of the picture"`
	Zoom     float64   `json:"zoom,omitempty" jsonschema:"2D: magnification, 2 shows everything twice as big (default 1, or the scene camera's)"`
	Rect     []float64 `json:"rect,omitempty" jsonschema:"2D: the world rectangle [x, y, width, height] to fit in the picture, instead of center and zoom"`
	Position []float64 `json:"position,omitempty" jsonschema:"3D: the camera's position [x, y, z] (default the scene camera's, else [0, 0, 5])"`
	LookAt   []float64 `json:"look_at,omitempty" jsonschema:"3D: the point [x, y, z] the camera looks at (default: the scene camera's direction, else -Z)"`
	FOV      float64   `json:"fov,omitempty" jsonschema:"3D: vertical field of view in degrees, 1 to 179 (default the scene camera's, else 75)"`
}

// spec checks the view and turns it into the renderer's.
func (v *viewArgs) spec() (*webgodot.RenderView, error) {
	if v == nil {
		return nil, nil
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
			return nil, bad(fmt.Sprintf("%s has %d numbers, want %d finite ones", c.name, len(c.got), c.n),
				fmt.Sprintf("pass %s as an array of %d numbers", c.name, c.n))
		}
	}
	two := v.Center != nil || v.Zoom != 0 || v.Rect != nil
	three := v.Position != nil || v.LookAt != nil || v.FOV != 0
	switch {
	case two && three:
		return nil, bad("mixes 2D (center, zoom, rect) and 3D (position, look_at, fov) fields",
			"pass center/zoom or rect for a 2D scene, position/look_at/fov for a 3D one")
	case !two && !three:
		return nil, bad("is empty", "pass center/zoom or rect for a 2D scene, position/look_at/fov for a 3D one, or leave view out to use the scene's camera")
	case v.Rect != nil && (v.Center != nil || v.Zoom != 0):
		return nil, bad("rect and center/zoom both given", "pass either rect, or center and zoom")
	case v.Rect != nil && (v.Rect[2] <= 0 || v.Rect[3] <= 0):
		return nil, bad("rect has no area", "pass rect as [x, y, width, height] with a positive width and height")
	case v.Zoom < 0 || !finite(v.Zoom, v.FOV):
		return nil, bad("zoom must be above 0", "pass zoom > 0 (2 is twice as big)")
	case v.FOV != 0 && (v.FOV < 1 || v.FOV > 179):
		return nil, bad(fmt.Sprintf("fov %g is outside 1..179 degrees", v.FOV), "pass fov in degrees between 1 and 179 (75 is Godot's default)")
	case v.Position != nil && v.LookAt != nil && v.Position[0] == v.LookAt[0] && v.Position[1] == v.LookAt[1] && v.Position[2] == v.LookAt[2]:
		return nil, bad("look_at is the camera's own position", "pass a look_at point away from position")
	}
	return &webgodot.RenderView{Center: v.Center, Zoom: v.Zoom, Rect: v.Rect, Position: v.Position, LookAt: v.LookAt, FOV: v.FOV}, nil
}

// renderScene renders a scene as it is saved, with none of its scripts
// running, in the web runtime: a short game session whose main scene
// instantiates the scene with every script taken off, and one frame grab.
// A resource is rendered in a small preview scene built around it, and a
// view replaces the scene's camera. It reads the files, so with an editor
// attached it shows what is saved.
func renderScene(ctx context.Context, call *sdk.Call, in renderArgs) (sdk.Result, error) {
	view, err := in.View.spec()
	if err != nil {
		return sdk.Result{}, err
	}
	if in.Scene != "" && in.Resource != "" {
		return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "pass either scene or resource", "both scene and resource were given")
	}
	t, err := chooseEngine(ctx, call, true)
	if err != nil {
		return sdk.Result{}, err
	}
	if t.web == nil {
		e := sdk.Errorf(sdk.CodePreconditionFailed, "set up the web runtime: "+webgodot.SetupHint,
			"rendering a scene without an editor uses the embedded web runtime (Godot 4 projects), and it is not available here")
		e.Required = "godot_web_runtime"
		return sdk.Result{}, e
	}
	spec := webgodot.RenderSpec{View: view}
	shown := ""
	if in.Resource != "" {
		if spec.Resource, err = resourceToRender(t, in.Resource); err != nil {
			return sdk.Result{}, err
		}
		shown = spec.Resource
	} else {
		if spec.Scene, err = sceneToRun(t, string(in.Scene)); err != nil {
			return sdk.Result{}, err
		}
		shown = spec.Scene
	}
	files, err := webgodot.RenderSpecFiles(t.project.Root(), spec)
	if err != nil {
		return sdk.Result{}, err
	}
	pck, r, err := webPack(t, files)
	if err != nil {
		return sdk.Result{}, err
	}
	rctx, cancel := context.WithTimeout(ctx, time.Duration(cmp(in.TimeoutSeconds, 120))*time.Second)
	defer cancel()
	call.Progress(0, 1, "rendering "+shown+" in the web runtime")
	sess, err := r.StartGame(rctx, pck, webgodot.GameOptions{})
	if err != nil {
		return sdk.Result{}, err
	}
	defer sess.Stop()
	var out map[string]any
	if err := sess.Call(rctx, "capture", map[string]any{"width": in.Width, "height": in.Height}, &out); err != nil {
		return sdk.Result{}, err
	}
	// A scene that did not load is a picture of nothing: say why.
	lines, _, _ := sess.Lines(0)
	for _, e := range gameEntries(lines) {
		if e.Kind == "error" {
			return sdk.Result{}, sdk.Errorf(sdk.CodeToolError, "fix the scene or resource (check it with godot_runtime_check_project), then render again",
				"%s did not render cleanly: %s", shown, e.Text)
		}
	}
	res, err := screenshotResult(out, 0, 0)
	if err != nil {
		return sdk.Result{}, err
	}
	for i, c := range res.Content {
		if tc, ok := c.(sdk.TextContent); ok {
			res.Content[i] = sdk.TextContent{Text: fmt.Sprintf("render of %s%s without its scripts (Godot %s, %s): %s", shown, viewNote(view), t.engine.Version, t.engine.Renderer, tc.Text)}
		}
	}
	return res, nil
}

// resourceToRender checks a resource argument: a res:// path of an
// existing file, with an optional ::id of a sub-resource in it.
func resourceToRender(t *target, raw string) (string, error) {
	file, sub, _ := strings.Cut(raw, "::")
	clean, err := sdk.CleanResPath("resource", file)
	if err != nil {
		return "", err
	}
	abs, err := t.project.Resolve(clean)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(abs); err != nil {
		return "", sdk.Errorf(sdk.CodeNotFound, "pass the res:// path of an existing resource file (list them with godot_project_search_files)", "no resource at %s", clean)
	}
	if sub != "" {
		return clean + "::" + sub, nil
	}
	return clean, nil
}

func viewNote(v *webgodot.RenderView) string {
	switch {
	case v == nil:
		return ""
	case v.Is3D():
		return " from the given 3D view"
	default:
		return " from the given 2D view"
	}
}
