package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/godotlog"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// The driver is a GDScript autoload added to a one-shot run of the game
// in the web runtime: it plays a plan (input, waits, property reads,
// screenshots, spawning, random input) frame by frame and prints what it
// saw. Everything happens inside the engine, so frame counts are exact.
//
//go:embed driver.gd
var driverScript []byte

const (
	driverPath     = ".godot/godot-mcp/test_driver.gd"
	driverAutoload = "GodotMcpTestDriver"
	planPath       = ".godot/godot-mcp/test_plan.json"
	stepPrefix     = "GODOT_MCP_STEP "
	donePrefix     = "GODOT_MCP_DONE "
)

// plan is what the driver reads.
type plan struct {
	SpawnScene   string   `json:"spawn_scene,omitempty"`
	Instances    int      `json:"instances,omitempty"`
	Seed         int64    `json:"seed"`
	Frames       int      `json:"frames"`
	RandomEvents int      `json:"random_events,omitempty"`
	Actions      []string `json:"actions,omitempty"`
	Steps        []Step   `json:"steps"`
}

// Step is one step of a scenario. Input steps have the shapes of the
// addon's input events.
type Step struct {
	Type         string   `json:"type" enum:"wait,key,action,mouse,motion,assert,screenshot" jsonschema:"wait: frames or ms; key/action/mouse/motion: one input event; assert: a property against expected; screenshot: capture (and compare with baseline)"`
	Frames       int      `json:"frames,omitempty" minimum:"0" maximum:"100000" jsonschema:"wait: physics ticks to wait (the game's fixed steps: 60 a second by default)"`
	Ms           int      `json:"ms,omitempty" minimum:"0" maximum:"600000" jsonschema:"wait: milliseconds to wait"`
	Key          string   `json:"key,omitempty" jsonschema:"key: the key's name as Godot spells it (A, Space, Right, Escape, F1)"`
	Action       string   `json:"action,omitempty" jsonschema:"action: an input map action"`
	Strength     *float64 `json:"strength,omitempty" minimum:"0" maximum:"1" jsonschema:"action: strength when pressed (default 1)"`
	Pressed      *bool    `json:"pressed,omitempty" jsonschema:"key/action/mouse: pressed (default true) or released"`
	Shift        bool     `json:"shift,omitempty" jsonschema:"key: hold Shift"`
	Ctrl         bool     `json:"ctrl,omitempty" jsonschema:"key: hold Ctrl"`
	Alt          bool     `json:"alt,omitempty" jsonschema:"key: hold Alt"`
	Meta         bool     `json:"meta,omitempty" jsonschema:"key: hold Meta"`
	Button       string   `json:"button,omitempty" enum:"left,right,middle,wheel_up,wheel_down" jsonschema:"mouse: the button (default left)"`
	X            float64  `json:"x,omitempty" jsonschema:"mouse/motion: game viewport x"`
	Y            float64  `json:"y,omitempty" jsonschema:"mouse/motion: game viewport y"`
	NodePath     string   `json:"node_path,omitempty" jsonschema:"assert: the node, relative to the running scene's root (or /root/...)"`
	Property     string   `json:"property,omitempty" jsonschema:"assert: the property (a sub-property as position:x)"`
	Expected     any      `json:"expected,omitempty" jsonschema:"assert: the expected value (vectors as {x,y} or [x,y])"`
	Op           string   `json:"op,omitempty" enum:"==,!=,<,<=,>,>=,contains,approx" jsonschema:"assert: comparison (default ==)"`
	Epsilon      *float64 `json:"epsilon,omitempty" minimum:"0" jsonschema:"assert: approx tolerance per component (default 1e-6)"`
	Baseline     string   `json:"baseline,omitempty" jsonschema:"screenshot: a res:// PNG to compare the capture with"`
	Tolerance    float64  `json:"tolerance,omitempty" minimum:"0" maximum:"1" jsonschema:"screenshot: per-channel tolerance of the comparison"`
	MaxDiffRatio float64  `json:"max_diff_ratio,omitempty" minimum:"0" maximum:"1" jsonschema:"screenshot: fraction of pixels that may differ from the baseline"`
}

// driverStep is one GODOT_MCP_STEP line.
type driverStep struct {
	Index    int    `json:"index"`
	Type     string `json:"type"`
	OK       bool   `json:"ok"`
	Error    string `json:"error"`
	Frame    int    `json:"frame"`
	Actual   any    `json:"actual"`
	Width    int    `json:"width"`
	Height   int    `json:"height"`
	Base64   string `json:"base64"`
	NodePath string `json:"node_path"`
	Property string `json:"property"`
}

// driverDone is the GODOT_MCP_DONE line.
type driverDone struct {
	Frames     int                `json:"frames"`
	FrameUS    []float64          `json:"frame_us"`
	ProcessMS  []float64          `json:"process_ms"`
	PhysicsMS  []float64          `json:"physics_ms"`
	Peak       map[string]float64 `json:"peak"`
	Final      map[string]float64 `json:"final"`
	Spawned    int                `json:"spawned"`
	EventsSent int                `json:"events_sent"`
	Scene      string             `json:"scene"`
	PhysicsTPS int                `json:"physics_ticks_per_second"`
}

// driven is the outcome of a driven run.
type driven struct {
	run   *webRun
	steps []driverStep
	done  *driverDone
}

// headlessTarget is the engine for a driven run: the web runtime, for a
// Godot 4 project.
func headlessTarget(ctx context.Context, call *sdk.Call) (*target, error) {
	p, err := call.Project()
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(p.Root(), "project.godot")); err != nil {
		return nil, sdk.Errorf(sdk.CodePreconditionFailed, "point godot-mcp at a Godot project folder", "the project has no project.godot")
	}
	t, err := chooseEngine(ctx, call, engineWeb)
	if err != nil {
		var se *sdk.Error
		if ok := asSDK(err, &se); ok && se.Code == sdk.CodePreconditionFailed && strings.Contains(se.Message, "cannot run a Godot") {
			se.Hint = "open the project in the Godot editor with the godot-mcp addon (these tools then drive the editor's game), or run the game's own tests with godot_testing_run_tests"
		}
		return nil, err
	}
	return t, nil
}

// drive packs the project to run scene ("" = main scene) with the driver
// and its plan, runs it until the driver is done or timeout passes, and
// reads the driver's lines.
func drive(ctx context.Context, call *sdk.Call, t *target, scene string, p plan, timeout time.Duration, what string) (*driven, error) {
	if scene != "" {
		abs, err := t.project.Resolve(scene)
		if err != nil {
			return nil, err
		}
		if _, err := os.Stat(abs); err != nil {
			return nil, sdk.Errorf(sdk.CodeNotFound, "pass the res:// path of an existing scene (list them with godot_inspection_list_scenes)", "no scene at %s", scene)
		}
		scene = t.project.ResPath(filepath.Clean(abs))
	} else if t.settings.MainScene == "" {
		e := sdk.Errorf(sdk.CodePreconditionFailed, "pass scene (a res:// .tscn path), or set application/run/main_scene in project.godot",
			"the project has no main scene and no scene was given")
		e.Required = "main_scene"
		return nil, e
	}
	if p.SpawnScene != "" {
		abs, err := t.project.Resolve(p.SpawnScene)
		if err != nil {
			return nil, err
		}
		if _, err := os.Stat(abs); err != nil {
			return nil, sdk.Errorf(sdk.CodeNotFound, "pass the res:// path of an existing scene to spawn", "no scene at %s", p.SpawnScene)
		}
		p.SpawnScene = t.project.ResPath(filepath.Clean(abs))
	}
	files, err := webgodot.ReadGameFiles(t.project.Root(), scene)
	if err != nil {
		return nil, err
	}
	planJSON, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	for i := range files {
		if files[i].Path == "override.cfg" {
			// ReadGameFiles ends override.cfg with its [autoload] section.
			files[i].Data = append(slices.Clip(files[i].Data), []byte(fmt.Sprintf("%s=\"*res://%s\"\n", driverAutoload, driverPath))...)
		}
	}
	files = append(files, webgodot.PackFile{Path: driverPath, Data: driverScript}, webgodot.PackFile{Path: planPath, Data: planJSON})
	o, err := runPack(ctx, call, t, files, nil, timeout, what)
	if err != nil {
		return nil, err
	}
	if o.Cancelled {
		return nil, sdk.Errorf(sdk.CodeCancelled, "", "the run was cancelled; the game's tab was closed")
	}
	// What the engine prints while quitting (after the driver is done)
	// is not the game's doing.
	if i := strings.Index(o.Output, "\n"+donePrefix); i >= 0 {
		end := strings.IndexByte(o.Output[i+1:], '\n')
		if end >= 0 {
			o.Errors, o.Warnings, _ = godotlog.Parse(o.Output[:i+1+end+1])
		}
	}
	d := &driven{run: o}
	for line := range strings.Lines(o.Output) {
		line = strings.TrimRight(line, "\r\n")
		switch {
		case strings.HasPrefix(line, stepPrefix):
			var s driverStep
			if json.Unmarshal([]byte(line[len(stepPrefix):]), &s) == nil {
				d.steps = append(d.steps, s)
			}
		case strings.HasPrefix(line, donePrefix):
			var done driverDone
			if json.Unmarshal([]byte(line[len(donePrefix):]), &done) == nil {
				d.done = &done
			}
		}
	}
	return d, nil
}

// quietOutput is the run's output without the driver's lines (which
// carry screenshots), capped.
func quietOutput(s string) string {
	var b strings.Builder
	for line := range strings.Lines(s) {
		if strings.HasPrefix(line, stepPrefix) || strings.HasPrefix(line, donePrefix) {
			continue
		}
		if b.Len() > 16<<10 {
			b.WriteString("[... output cut ...]\n")
			break
		}
		b.WriteString(line)
	}
	return b.String()
}

// Stats summarises samples.
type Stats struct {
	Avg float64 `json:"avg"`
	P50 float64 `json:"p50"`
	P95 float64 `json:"p95"`
	Max float64 `json:"max"`
	Min float64 `json:"min"`
	N   int     `json:"samples"`
}

func statsOf(v []float64, scale float64) Stats {
	if len(v) == 0 {
		return Stats{}
	}
	s := slices.Clone(v)
	slices.Sort(s)
	sum := 0.0
	for _, x := range s {
		sum += x
	}
	q := func(p float64) float64 {
		i := int(math.Ceil(p*float64(len(s)))) - 1
		return s[max(0, min(i, len(s)-1))]
	}
	r := func(x float64) float64 { return math.Round(x*scale*1000) / 1000 }
	return Stats{Avg: r(sum / float64(len(s))), P50: r(q(0.5)), P95: r(q(0.95)), Max: r(s[len(s)-1]), Min: r(s[0]), N: len(s)}
}
