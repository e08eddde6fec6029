// Package engines says which Godot engines can run a project on this
// machine: a native Godot binary (found as godotrun finds it) and the
// embedded Godot 4.6 web runtime (internal/webgodot), with what each
// cannot do. The runtime toolset picks between them per call;
// godot_get_server_info shows the same answer.
package engines

import (
	"context"
	"errors"
	"os"

	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// The two kinds of engine.
const (
	Native = "native" // a Godot binary
	Web    = "web"    // the embedded web runtime in headless Chromium
)

// WebLimits is what the web runtime cannot do.
var WebLimits = []string{
	"it is Godot " + webgodot.RuntimeEngine + " whatever 4.x the project declares",
	"Compatibility renderer only (WebGL 2, rendered on the CPU), whatever rendering_method the project sets",
	"no GDExtension and no C#",
	"a release build: GDScript runtime errors (a call on null, a missing key) are not reported and the function carries on; push_error has no script line; parse and load errors are reported with res://file:line",
	"no import pipeline: assets an editor never imported (.godot/imported) do not load",
	"single-threaded: no threads",
}

// Engine is one engine and whether it can be used.
type Engine struct {
	Kind      string   `json:"kind"`
	Available bool     `json:"available"`
	Version   string   `json:"version,omitempty"`
	Path      string   `json:"path,omitempty"`
	Renderer  string   `json:"renderer,omitempty"`
	Cannot    []string `json:"cannot,omitempty"`
	// Why is the reason it is not available, and Hint its fix.
	Why  string `json:"why,omitempty"`
	Hint string `json:"hint,omitempty"`
}

// Info is what Describe found.
type Info struct {
	Native Engine `json:"native"`
	Web    Engine `json:"web"`
	// RunsWith is the engine run_and_capture uses for the project
	// ("native", "web", or "" when none can); GameSessions the one
	// play_scene uses without an editor.
	RunsWith     string `json:"run_and_capture"`
	GameSessions string `json:"play_scene_headless"`
}

// Describe looks for both engines for a project of Godot major version
// major (3 or 4; 0 when unknown). It starts nothing but `godot --version`
// (cached by f) and a checksum of the web runtime (once per process).
func Describe(ctx context.Context, f *godotrun.Finder, major int) Info {
	var in Info
	in.Native.Kind, in.Web.Kind = Native, Web
	if b, err := f.Find(ctx, major); err == nil {
		in.Native.Available, in.Native.Version, in.Native.Path = true, b.Version, b.Path
	} else {
		in.Native.Why, in.Native.Hint = split(err)
	}
	if _, err := webgodot.Locate(); err == nil {
		in.Web.Available, in.Web.Version = true, webgodot.RuntimeEngine
		in.Web.Renderer = "Compatibility (WebGL 2)"
		in.Web.Cannot = WebLimits
	} else {
		in.Web.Why, in.Web.Hint = split(err)
	}
	switch {
	case in.Native.Available:
		in.RunsWith = Native
	case in.Web.Available && major == 4 && os.Getenv(godotrun.EnvBin) == "":
		in.RunsWith = Web
	}
	if in.Web.Available && major == 4 {
		in.GameSessions = Web
	}
	return in
}

func split(err error) (string, string) {
	var se *sdk.Error
	if errors.As(err, &se) {
		return se.Message, se.Hint
	}
	return err.Error(), ""
}
