package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk"
)

type renderArgs struct {
	Scene          sdk.ScenePath        `json:"scene,omitempty" jsonschema:"res:// path of the .tscn/.scn scene to render (default: the main scene, when no resource is given)"`
	Resource       string               `json:"resource,omitempty" jsonschema:"res:// path of a resource to render instead of a scene, in a small preview scene: a Texture2D or Gradient fills the picture, a Mesh is framed and lit, a spatial Material or Shader covers a sphere (a canvas_item one a rectangle), a StyleBox is a Panel, a Theme dresses a few controls, a PackedScene is rendered as a scene; a sub-resource as res://file.tscn::id"`
	View           *webgodot.RenderView `json:"view,omitempty" jsonschema:"where to look from instead of the scene's own camera: 2D center and zoom, or rect; 3D position, look_at and fov. What is left out comes from the scene's current camera"`
	Width          int                  `json:"width,omitempty" minimum:"1" maximum:"4096" jsonschema:"scale the picture to this width in pixels (keeps the aspect ratio when height is not given)"`
	Height         int                  `json:"height,omitempty" minimum:"1" maximum:"4096" jsonschema:"scale the picture to this height in pixels (keeps the aspect ratio when width is not given)"`
	TimeoutSeconds int                  `json:"timeout_seconds,omitempty" default:"120" minimum:"5" maximum:"600" jsonschema:"deadline for the whole render, engine start included (default 120, at most 600)"`
}

// renderScene renders a scene as it is saved, with none of its scripts
// running, in the web runtime: a short game session whose main scene
// instantiates the scene with every script taken off, and one frame grab.
// A resource is rendered in a small preview scene built around it, and a
// view replaces the scene's camera. It reads the files, so with an editor
// attached it shows what is saved.
func renderScene(ctx context.Context, call *sdk.Call, in renderArgs) (sdk.Result, error) {
	if err := in.View.Check(); err != nil {
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
	spec := webgodot.RenderSpec{View: in.View}
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
	out, lines, err := r.Render(rctx, pck, in.Width, in.Height)
	if err != nil {
		return sdk.Result{}, err
	}
	// A scene that did not load is a picture of nothing: say why.
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
			res.Content[i] = sdk.TextContent{Text: fmt.Sprintf("render of %s%s without its scripts (Godot %s, %s): %s", shown, in.View.Note(), t.engine.Version, t.engine.Renderer, tc.Text)}
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
