package main

import (
	"context"
	"fmt"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk"
)

type renderArgs struct {
	Scene          sdk.ScenePath `json:"scene" jsonschema:"res:// path of the .tscn/.scn scene to render"`
	Width          int           `json:"width,omitempty" minimum:"1" maximum:"4096" jsonschema:"scale the picture to this width in pixels (keeps the aspect ratio when height is not given)"`
	Height         int           `json:"height,omitempty" minimum:"1" maximum:"4096" jsonschema:"scale the picture to this height in pixels (keeps the aspect ratio when width is not given)"`
	TimeoutSeconds int           `json:"timeout_seconds,omitempty" default:"120" minimum:"5" maximum:"600" jsonschema:"deadline for the whole render, engine start included (default 120, at most 600)"`
}

// renderScene renders a scene as it is saved, with none of its scripts
// running, in the web runtime: a short game session whose main scene
// instantiates the scene with every script taken off, and one frame grab.
// It reads the files, so with an editor attached it shows what is saved.
func renderScene(ctx context.Context, call *sdk.Call, in renderArgs) (sdk.Result, error) {
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
	scene, err := sceneToRun(t, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	files, err := webgodot.RenderFiles(t.project.Root(), scene)
	if err != nil {
		return sdk.Result{}, err
	}
	pck, r, err := webPack(t, files)
	if err != nil {
		return sdk.Result{}, err
	}
	rctx, cancel := context.WithTimeout(ctx, time.Duration(cmp(in.TimeoutSeconds, 120))*time.Second)
	defer cancel()
	call.Progress(0, 1, "rendering "+scene+" in the web runtime")
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
			return sdk.Result{}, sdk.Errorf(sdk.CodeToolError, "fix the scene (check it with godot-mcp check --engine), then render again",
				"the scene did not render cleanly: %s", e.Text)
		}
	}
	res, err := screenshotResult(out, 0, 0)
	if err != nil {
		return sdk.Result{}, err
	}
	for i, c := range res.Content {
		if tc, ok := c.(sdk.TextContent); ok {
			res.Content[i] = sdk.TextContent{Text: fmt.Sprintf("render of %s without its scripts (Godot %s, %s): %s", scene, t.engine.Version, t.engine.Renderer, tc.Text)}
		}
	}
	return res, nil
}
