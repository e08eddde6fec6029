package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/engines"
	"github.com/godot-mcp/godot-mcp/internal/godotlog"
	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// engineInfo says which engine ran, in every result that ran one (the
// runtime toolset's shape).
type engineInfo struct {
	Kind    string   `json:"kind" jsonschema:"native: a Godot binary; web: the embedded Godot 4.6 web runtime in headless Chromium"`
	Version string   `json:"version"`
	Path    string   `json:"path,omitempty"`
	Cannot  []string `json:"cannot,omitempty" jsonschema:"what this engine cannot do"`
}

// target is a project and the engine chosen for it.
type target struct {
	project  *sdk.Project
	settings *godotrun.Project
	bin      *godotrun.Binary // native
	web      *webgodot.Setup  // web
	engine   engineInfo
}

// Engine choices of the engine argument.
const (
	engineAuto   = "auto"
	engineNative = engines.Native
	engineWeb    = engines.Web
)

// chooseEngine picks the engine for the call's project: want "native" or
// "web" forces one; "auto" (or "") takes a native Godot binary of the
// project's major version, else for a Godot 4 project the web runtime. A
// set GODOT_MCP_GODOT_BIN that cannot be used is an error, never a switch.
func chooseEngine(ctx context.Context, call *sdk.Call, want string) (*target, error) {
	p, err := call.Project()
	if err != nil {
		return nil, err
	}
	settings, err := godotrun.ReadProject(p.Root())
	if err != nil {
		return nil, err
	}
	t := &target{project: p, settings: settings}
	switch want {
	case "", engineAuto, engineNative, engineWeb:
	default:
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, `pass engine "auto", "native" or "web"`, "unknown engine %q", want)
	}
	if want == engineWeb {
		return t.useWeb()
	}
	bin, binErr := finder.Find(ctx, settings.Major)
	if binErr == nil {
		t.bin = bin
		t.engine = engineInfo{Kind: engineNative, Version: bin.Version, Path: bin.Path}
		return t, nil
	}
	if want == engineNative || settings.Major != 4 || os.Getenv(godotrun.EnvBin) != "" {
		return nil, binErr
	}
	if _, err := webgodot.Locate(); err != nil {
		return nil, &sdk.Error{Code: sdk.CodePreconditionFailed, Required: godotrun.RequiredBin,
			Message: "no engine can run this Godot 4 project: " + errMessage(binErr) + "; and the embedded web runtime is not set up: " + errMessage(err),
			Hint:    "install a Godot 4 binary (GODOT_MCP_GODOT_BIN or godot on PATH), or set up the web runtime: " + webgodot.SetupHint}
	}
	return t.useWeb()
}

func (t *target) useWeb() (*target, error) {
	if t.settings.Major != 4 {
		e := sdk.Errorf(sdk.CodePreconditionFailed,
			"use engine \"native\" with a Godot 3 binary (GODOT_MCP_GODOT_BIN or godot3 on PATH)",
			"the web runtime is Godot %s and cannot run a Godot %d project", webgodot.RuntimeEngine, t.settings.Major)
		e.Required = godotrun.RequiredBin
		return nil, e
	}
	setup, err := webgodot.Locate()
	if err != nil {
		return nil, err
	}
	t.web = &setup
	t.engine = engineInfo{Kind: engineWeb, Version: webgodot.RuntimeEngine, Cannot: engines.WebLimits}
	return t, nil
}

func errMessage(err error) string {
	var se *sdk.Error
	if errors.As(err, &se) {
		return se.Message
	}
	return err.Error()
}

// web is the plugin's one web runtime (one Chromium) for all its runs.
var web webgodot.Shared

// webRun is one run of a pack in the web runtime until the engine exits or
// the deadline passes.
type webRun struct {
	Output    string
	ExitCode  *int
	TimedOut  bool
	Duration  time.Duration
	Errors    []godotlog.Entry
	Warnings  []godotlog.Entry
	Command   []string
	Cancelled bool
}

// runPack runs files (from webgodot.ReadGameFiles plus the caller's own)
// with args on the engine's command line, rendering, until the game quits
// or timeout passes.
func runPack(ctx context.Context, call *sdk.Call, t *target, files []webgodot.PackFile, args []string, timeout time.Duration, what string) (*webRun, error) {
	for _, f := range files {
		if strings.HasSuffix(f.Path, ".gdextension") {
			return nil, sdk.Errorf(sdk.CodePreconditionFailed, "install a native Godot 4 binary (GODOT_MCP_GODOT_BIN) and pass engine \"native\"",
				"the project uses GDExtension (res://%s), which the web runtime cannot load", f.Path)
		}
	}
	pck, err := webgodot.BuildPCK(webgodot.RuntimeVersion, files)
	if err != nil {
		return nil, sdk.Errorf(sdk.CodeInvalidArgument, "rename the file so that its path is a plain relative resource path", "%v", err)
	}
	r, err := web.Get(*t.web)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	dctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	sess, err := r.StartGame(dctx, pck, webgodot.GameOptions{NoProbe: true, Args: args})
	if err != nil {
		return nil, err
	}
	defer sess.Stop()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	out := &webRun{Command: append([]string{"godot-web " + webgodot.RuntimeEngine, "--main-pack", "main.pck"}, args...)}
wait:
	for {
		select {
		case <-sess.Done():
			break wait
		case <-tick.C:
			_, n, _ := sess.Lines(0)
			el := time.Since(start)
			call.Progress(el.Seconds(), timeout.Seconds(), fmt.Sprintf("%s in the web runtime: %ds, %d lines of output", what, int(el.Seconds()), n))
		case <-dctx.Done():
			if errors.Is(ctx.Err(), context.Canceled) {
				out.Cancelled = true
			} else {
				out.TimedOut = true
			}
			break wait
		}
	}
	sess.Stop()
	out.Duration = time.Since(start)
	lines, _, _ := sess.Lines(0)
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	out.Output = b.String()
	if exited, code := sess.Exited(); exited {
		out.ExitCode = &code
	}
	out.Errors, out.Warnings, _ = godotlog.Parse(out.Output)
	return out, nil
}

func asSDK(err error, target **sdk.Error) bool { return errors.As(err, target) }
