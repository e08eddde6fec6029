// Command editor is the first-party "editor" toolset: capture_screenshot,
// a picture for the agent of what it just built.
//
// With an editor attached it is the editor's own window, through the
// godot-mcp addon's cmd_capture_editor_screenshot (polled until the
// editor has drawn it). Without one it renders a scene, or a resource in a
// small preview scene, as saved and with none of its scripts running, from
// its own camera or a given view, in the embedded Godot 4.6 web runtime
// (internal/webgodot, render.gd). See docs/toolsets/editor.md.
//
// Install it as godot-mcp-toolset-editor in the plugins directory.
package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk"
)

func main() {
	sdk.Serve(Toolset())
}

type shotArgs struct {
	Scene     sdk.ScenePath        `json:"scene,omitempty" jsonschema:"headless only: res:// path of the .tscn/.scn scene to render (default: the main scene, when no resource is given)"`
	Resource  string               `json:"resource,omitempty" jsonschema:"headless only: res:// path of a resource to render instead of a scene, in a small preview scene: a Texture2D or Gradient fills the picture, a Mesh is framed and lit, a spatial Material or Shader covers a sphere (a canvas_item one a rectangle), a StyleBox is a Panel, a Theme dresses a few controls, a PackedScene is rendered as a scene; a sub-resource as res://file.tscn::id"`
	View      *webgodot.RenderView `json:"view,omitempty" jsonschema:"headless only: where to look from instead of the scene's own camera: 2D center and zoom, or rect; 3D position, look_at and fov. What is left out comes from the scene's current camera"`
	Width     int                  `json:"width,omitempty" minimum:"1" maximum:"4096" jsonschema:"scale the picture to this width in pixels (keeps the aspect ratio when height is not given)"`
	Height    int                  `json:"height,omitempty" minimum:"1" maximum:"4096" jsonschema:"scale the picture to this height in pixels (keeps the aspect ratio when width is not given)"`
	TimeoutMs int                  `json:"timeout_ms,omitempty" minimum:"1" maximum:"600000" jsonschema:"deadline in milliseconds (default: 10 s for the editor, 120 s for a headless render, engine start included)"`
}

// headlessOnly names the arguments given that only a headless render uses.
func (in shotArgs) headlessOnly() []string {
	var out []string
	if in.Scene != "" {
		out = append(out, "scene")
	}
	if in.Resource != "" {
		out = append(out, "resource")
	}
	if in.View != nil {
		out = append(out, "view")
	}
	return out
}

func (in shotArgs) deadline(def time.Duration) time.Duration {
	if in.TimeoutMs > 0 {
		return time.Duration(in.TimeoutMs) * time.Millisecond
	}
	return def
}

// Toolset returns the editor toolset.
func Toolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name:    "editor",
		Version: "0.1.0",
		Description: "See what was built: a PNG of the Godot editor's window with an editor attached; " +
			"without one, a render of a scene or resource as saved, from its camera or a given view, in the embedded Godot 4.6 web runtime.",
		Godot: ">= 4.0, < 5.0",
		Tools: []sdk.Tool{
			sdk.NewTool("capture_screenshot",
				"Return a PNG (an image and a file) of what was built. With the Godot editor attached: the editor's main window as it is now "+
					"(scene, resource and view are refused there; the editor shows what it shows). Without an editor: the scene (default the main scene), "+
					"or a resource (Texture2D, Gradient, Mesh, Material, Shader, StyleBox, Theme; a sub-resource as res://file.tscn::id) in a small preview scene, "+
					"rendered as saved with none of its scripts running, through the scene's own camera or from view (2D center+zoom or rect; 3D position, look_at, fov), "+
					"in the embedded Godot 4.6 web runtime (Compatibility renderer). Save the scene first; to see the running game use godot_runtime_capture_game_screenshot.",
				sdk.ReadOnly, captureHeadless, sdk.EditorFunc(captureEditor),
				sdk.WithTitle("Screenshot of the editor, or a render of a scene or resource")),
		},
	}
}

// captureEditor polls the addon's cmd_capture_editor_screenshot: it grabs
// the editor's window after its next drawn frame, and answers
// {ready:false} until then.
func captureEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in shotArgs) (sdk.Result, error) {
	if given := in.headlessOnly(); len(given) > 0 {
		e := sdk.Errorf(sdk.CodePreconditionFailed,
			"leave "+strings.Join(given, ", ")+" out to capture the editor's window; to render saved files from a view with an editor open, use godot_runtime_render_scene",
			"%s only work in headless mode (no editor attached), where this tool renders the saved files; with an editor attached it captures the editor's window", strings.Join(given, ", "))
		e.Required = "headless"
		return sdk.Result{}, e
	}
	wait := in.deadline(10 * time.Second)
	p, err := ed.Poll(ctx, "cmd_capture_editor_screenshot", map[string]any{}, wait)
	if err != nil {
		return sdk.Result{}, err
	}
	if !p.Ready {
		reason := p.Reason
		if reason == "" {
			reason = "not ready"
		}
		return sdk.Result{}, sdk.Errorf(sdk.CodeTimeout,
			"bring the Godot editor's window to the front (a minimised editor does not draw), then retry, with a longer timeout_ms if needed",
			"the editor did not hand over a screenshot after %d polls in %s; last reason: %s", p.Polls, wait, reason)
	}
	return imageResult(p.Answer, in.Width, in.Height, "the editor's window")
}

// web is the plugin's one web runtime (one Chromium) for its life.
var web webgodot.Shared

func runner() (*webgodot.Runner, error) {
	if r := web.Started(); r != nil {
		return r, nil // Locate looks on disk: only before the first start
	}
	setup, err := webgodot.Locate()
	if err != nil {
		e := sdk.Errorf(sdk.CodePreconditionFailed, "set up the web runtime: "+webgodot.SetupHint,
			"rendering without an editor uses the embedded Godot 4.6 web runtime, and it is not available here: %v", err)
		e.Required = "godot_web_runtime"
		return nil, e
	}
	return web.Get(setup)
}

// captureHeadless renders what the arguments name in the web runtime.
func captureHeadless(ctx context.Context, call *sdk.Call, in shotArgs) (sdk.Result, error) {
	if err := in.View.Check(); err != nil {
		return sdk.Result{}, err
	}
	if in.Scene != "" && in.Resource != "" {
		return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "pass either scene or resource", "both scene and resource were given")
	}
	p, err := call.Project()
	if err != nil {
		return sdk.Result{}, err
	}
	spec := webgodot.RenderSpec{View: in.View}
	switch {
	case in.Resource != "":
		file, sub, _ := strings.Cut(in.Resource, "::")
		clean, err := sdk.CleanResPath("resource", file)
		if err != nil {
			return sdk.Result{}, err
		}
		if err := mustExist(p, clean, "resource"); err != nil {
			return sdk.Result{}, err
		}
		spec.Resource = clean
		if sub != "" {
			spec.Resource += "::" + sub
		}
	case in.Scene != "":
		if err := mustExist(p, string(in.Scene), "scene"); err != nil {
			return sdk.Result{}, err
		}
		spec.Scene = string(in.Scene)
	default:
		main, err := mainScene(p.Root())
		if err != nil {
			return sdk.Result{}, err
		}
		spec.Scene = main
	}
	shown := spec.Scene + spec.Resource
	files, err := webgodot.RenderSpecFiles(p.Root(), spec)
	if err != nil {
		return sdk.Result{}, err
	}
	for _, f := range files {
		if strings.HasSuffix(f.Path, ".gdextension") {
			return sdk.Result{}, sdk.Errorf(sdk.CodePreconditionFailed, "attach the Godot editor and call again: it captures the editor's own window",
				"the project uses GDExtension (res://%s), which the web runtime cannot load", f.Path)
		}
	}
	pck, err := webgodot.BuildPCK(webgodot.RuntimeVersion, files)
	if err != nil {
		return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "rename the file so that its path is a plain relative resource path", "%v", err)
	}
	r, err := runner()
	if err != nil {
		return sdk.Result{}, err
	}
	rctx, cancel := context.WithTimeout(ctx, in.deadline(120*time.Second))
	defer cancel()
	call.Progress(0, 1, "rendering "+shown+" in the web runtime")
	out, lines, err := r.Render(rctx, pck, in.Width, in.Height)
	if err != nil {
		return sdk.Result{}, err
	}
	// A scene that did not load is a picture of nothing: say why.
	for _, l := range lines {
		if l.Stream == webgodot.Stderr && (strings.HasPrefix(l.Text, "ERROR:") || strings.HasPrefix(l.Text, "SCRIPT ERROR:") || strings.HasPrefix(l.Text, "godot-mcp render:")) {
			return sdk.Result{}, sdk.Errorf(sdk.CodeToolError, "fix the scene or resource (check it with godot_runtime_check_project), then render again",
				"%s did not render cleanly: %s", shown, l.Text)
		}
	}
	return imageResult(out, 0, 0, fmt.Sprintf("%s%s, rendered without its scripts (Godot %s, Compatibility renderer)", shown, in.View.Note(), webgodot.RuntimeEngine))
}

func mustExist(p *sdk.Project, res, arg string) error {
	abs, err := p.Resolve(res)
	if err != nil {
		return err
	}
	if _, err := os.Stat(abs); err != nil {
		return sdk.Errorf(sdk.CodeNotFound, "pass the res:// path of an existing file (list them with godot_project_search_files)", "%s: no file at %s", arg, res)
	}
	return nil
}

// mainScene is application/run/main_scene of project.godot.
func mainScene(root string) (string, error) {
	b, err := os.ReadFile(filepath.Join(root, "project.godot"))
	if err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(l), "run/main_scene="); ok {
				if s := strings.Trim(strings.TrimSpace(v), `"`); s != "" {
					return s, nil
				}
			}
		}
	}
	e := sdk.Errorf(sdk.CodePreconditionFailed, "pass scene (a res:// .tscn path) or resource, or set application/run/main_scene in project.godot",
		"the project has no main scene and no scene or resource was given")
	e.Required = "main_scene"
	return "", e
}

// imageResult turns a capture answer ({format, width, height, base64} or
// {error}, the addon's or the probe's) into an MCP image, a PNG file
// outside the project, and a line of text; width/height, when set and not
// already applied (the editor's picture), scale it here.
func imageResult(out map[string]any, width, height int, what string) (sdk.Result, error) {
	if msg, _ := out["error"].(string); msg != "" {
		return sdk.Result{}, sdk.Errorf(sdk.CodeToolError, "make sure the editor is visible and drawing, then retry", "no screenshot: %s", msg)
	}
	b64, _ := out["base64"].(string)
	data, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(data) == 0 {
		return sdk.Result{}, sdk.Errorf(sdk.CodeToolError, "update the godot-mcp addon", "the screenshot answer holds no base64 image")
	}
	format := strings.TrimPrefix(fmt.Sprint(out["format"]), "image/")
	if format == "" || format == "<nil>" {
		format = "png"
	}
	w, _ := out["width"].(float64)
	h, _ := out["height"].(float64)
	if (width > 0 && int(w) != width) || (height > 0 && int(h) != height) {
		scaled, sw, sh, err := scale(data, width, height)
		if err != nil {
			return sdk.Result{}, sdk.Errorf(sdk.CodeToolError, "retry without width and height", "cannot scale the screenshot: %v", err)
		}
		data, w, h, format = scaled, float64(sw), float64(sh), "png"
	}
	dir := filepath.Join(os.TempDir(), "godot-mcp-screenshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return sdk.Result{}, sdk.Errorf(sdk.CodeToolError, "check that the temporary folder is writable", "cannot keep the screenshot: %v", err)
	}
	id := make([]byte, 3)
	_, _ = rand.Read(id)
	file := filepath.Join(dir, fmt.Sprintf("editor-%s-%s.%s", time.Now().UTC().Format("20060102T150405.000"), hex.EncodeToString(id), format))
	if err := os.WriteFile(file, data, 0o644); err != nil {
		return sdk.Result{}, sdk.Errorf(sdk.CodeToolError, "check that the temporary folder is writable", "cannot keep the screenshot: %v", err)
	}
	meta, _ := json.Marshal(map[string]any{"format": format, "width": w, "height": h, "bytes": len(data), "file": file})
	return sdk.Result{Content: []sdk.Content{
		sdk.ImageContent{Data: data, MIMEType: "image/" + format},
		sdk.TextContent{Text: fmt.Sprintf("%s, %dx%d %s, saved as %s: %s", what, int(w), int(h), format, file, meta)},
	}}, nil
}

// scale resizes a PNG to width x height (one of them 0 keeps the aspect
// ratio), nearest neighbour: the editor's window scaled down to look at.
func scale(data []byte, width, height int) ([]byte, int, int, error) {
	src, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, 0, 0, err
	}
	b := src.Bounds()
	sw, sh := b.Dx(), b.Dy()
	if sw == 0 || sh == 0 {
		return nil, 0, 0, fmt.Errorf("the image is empty")
	}
	if width <= 0 {
		width = max(1, (sw*height+sh/2)/sh)
	}
	if height <= 0 {
		height = max(1, (sh*width+sw/2)/sw)
	}
	dst := image.NewNRGBA(image.Rect(0, 0, width, height))
	for y := range height {
		for x := range width {
			dst.Set(x, y, src.At(b.Min.X+x*sw/width, b.Min.Y+y*sh/height))
		}
	}
	var out bytes.Buffer
	if err := png.Encode(&out, dst); err != nil {
		return nil, 0, 0, err
	}
	return out.Bytes(), width, height, nil
}
