package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/godot-mcp/godot-mcp/internal/engines"
	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// The two engines a run may use.
const (
	engineNative = engines.Native // a Godot binary found as godotrun finds it
	engineWeb    = engines.Web    // the embedded Godot 4.6 web runtime in headless Chromium
)

// engineInfo says which engine ran, its version, and what it cannot do,
// in every result that ran the game.
type engineInfo struct {
	Kind     string   `json:"kind" jsonschema:"native: a Godot binary; web: the embedded Godot 4.6 web runtime in headless Chromium"`
	Version  string   `json:"version" jsonschema:"the engine's version string"`
	Path     string   `json:"path,omitempty" jsonschema:"the Godot binary (native)"`
	Renderer string   `json:"renderer,omitempty" jsonschema:"the renderer the game ran with (web: Compatibility on WebGL 2)"`
	Cannot   []string `json:"cannot,omitempty" jsonschema:"what this engine cannot do"`
	Notes    []string `json:"notes,omitempty" jsonschema:"how this run differs from the project's own settings"`
}

// target is what a run works on: the project and the engine chosen.
type target struct {
	project  *sdk.Project
	settings *godotrun.Project
	bin      *godotrun.Binary // native only
	web      *webgodot.Setup  // web only
	engine   engineInfo
}

// chooseEngine picks the engine for the call's project: a native Godot
// binary of the project's major version (found as today), else, for a
// Godot 4 project, the web runtime. preferWeb picks the web runtime first
// when it is there (game sessions: their probe speaks through the page).
func chooseEngine(ctx context.Context, call *sdk.Call, preferWeb bool) (*target, error) {
	p, err := call.Project()
	if err != nil {
		return nil, err
	}
	settings, err := godotrun.ReadProject(p.Root())
	if err != nil {
		return nil, err
	}
	t := &target{project: p, settings: settings}
	if preferWeb && settings.Major == 4 {
		if setup, werr := webgodot.Locate(); werr == nil {
			return t.useWeb(setup)
		}
	}
	bin, binErr := finder.Find(ctx, settings.Major)
	if binErr == nil {
		t.bin = bin
		t.engine = engineInfo{Kind: engineNative, Version: bin.Version, Path: bin.Path}
		return t, nil
	}
	// An explicit GODOT_MCP_GODOT_BIN that cannot be used is the user's
	// choice going wrong: say so rather than run another engine.
	if settings.Major != 4 || os.Getenv(godotrun.EnvBin) != "" {
		return nil, binErr
	}
	setup, webErr := webgodot.Locate()
	if webErr != nil {
		return nil, &sdk.Error{Code: sdk.CodePreconditionFailed, Required: godotrun.RequiredBin,
			Message: "no engine can run this Godot 4 project: " + errMessage(binErr) + "; and the embedded web runtime is not set up: " + errMessage(webErr),
			Hint:    "install a Godot 4 binary (GODOT_MCP_GODOT_BIN or godot on PATH), or set up the web runtime: " + webgodot.SetupHint}
	}
	return t.useWeb(setup)
}

var featureRe = regexp.MustCompile(`^(\d+)\.(\d+)$`)

// useWeb checks that the web runtime can run the project and fills in
// what it is. The files themselves (GDExtension) are checked when packed.
func (t *target) useWeb(setup webgodot.Setup) (*target, error) {
	t.web = &setup
	t.engine = engineInfo{Kind: engineWeb, Version: webgodot.RuntimeEngine, Renderer: "Compatibility (WebGL 2)", Cannot: engines.WebLimits}
	for _, f := range projectFeatures(t.settings.Settings) {
		if f == "C#" || f == "DotNet" {
			return nil, webRefusal("the project uses C#, which the web runtime cannot run")
		}
		m := featureRe.FindStringSubmatch(f)
		if m == nil || m[1] != "4" {
			continue
		}
		minor, _ := strconv.Atoi(m[2])
		want := webgodot.RuntimeVersion.Minor
		switch {
		case minor > int(want):
			return nil, webRefusal(fmt.Sprintf("the project is for Godot %s and the web runtime is Godot 4.%d, which may not load what %s added", f, want, f))
		case minor < int(want):
			t.engine.Notes = append(t.engine.Notes, fmt.Sprintf("the project is for Godot %s; it runs on 4.%d", f, want))
		}
	}
	if v, ok := t.settings.Settings.Setting("rendering/renderer/rendering_method"); ok {
		if s := fmt.Sprint(v); s != "gl_compatibility" && s != "" {
			t.engine.Notes = append(t.engine.Notes, fmt.Sprintf("the project asks for the %s renderer; it runs with Compatibility", strings.Trim(s, `"`)))
		}
	}
	return t, nil
}

// checkWebFiles refuses a pack the web runtime cannot run.
func checkWebFiles(files []webgodot.PackFile) error {
	for _, f := range files {
		if strings.HasSuffix(f.Path, ".gdextension") {
			return webRefusal("the project uses GDExtension (res://" + f.Path + "), which the web runtime cannot load")
		}
	}
	return nil
}

func webRefusal(why string) *sdk.Error {
	return &sdk.Error{Code: sdk.CodePreconditionFailed, Required: godotrun.RequiredBin,
		Message: "the embedded web runtime cannot run this project: " + why,
		Hint:    "install a native Godot 4 binary that suits the project (GODOT_MCP_GODOT_BIN, or godot on PATH)"}
}

func projectFeatures(p *godot.Project) []string {
	v, ok := p.Setting("application/config/features")
	if !ok {
		return nil
	}
	if a, ok := v.(godot.PackedStringArray); ok {
		return a
	}
	return nil
}

func errMessage(err error) string {
	var se *sdk.Error
	if errors.As(err, &se) {
		return se.Message
	}
	return err.Error()
}

// web is the plugin's one web runtime (one Chromium) for every run and
// game session of its life.
var web webgodot.Shared

// closeWebRunner stops the browser and every game in it (tests, and the
// end of the plugin).
func closeWebRunner() {
	games.stopAll()
	web.Close()
}

// webGamePack reads the project's game files for the scene the caller
// asked for (given; "" is the main scene) and packs them for the web
// runtime. It returns the checked scene path with the pack and runner.
func webGamePack(t *target, given string) (string, []byte, *webgodot.Runner, error) {
	scene, err := sceneToRun(t, given)
	if err != nil {
		return "", nil, nil, err
	}
	files, err := webgodot.ReadGameFiles(t.project.Root(), sceneArg(given, scene))
	if err != nil {
		return "", nil, nil, err
	}
	pck, r, err := webPack(t, files)
	return scene, pck, r, err
}

// webPack refuses files the web runtime cannot load, builds their pack
// and returns it with the plugin's one runner.
func webPack(t *target, files []webgodot.PackFile) ([]byte, *webgodot.Runner, error) {
	if err := checkWebFiles(files); err != nil {
		return nil, nil, err
	}
	pck, err := webgodot.BuildPCK(webgodot.RuntimeVersion, files)
	if err != nil {
		return nil, nil, sdk.Errorf(sdk.CodeInvalidArgument, "rename the file so that its path is a plain relative resource path", "%v", err)
	}
	r, err := web.Get(*t.web)
	if err != nil {
		return nil, nil, err
	}
	return pck, r, nil
}
