package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/gamesession"
	"github.com/godot-mcp/godot-mcp/internal/godotlog"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// Game sessions without an editor: the game runs in the web runtime with
// the probe of webgodot.GamePack, and the runtime tools that drive an
// editor's game drive it instead, with the addon's result shapes.

// Limits of a headless game session.
const (
	defaultSessionSeconds = 600
	maxSessionSeconds     = 3600
	// startTimeout bounds a cold start: Chromium, the 37 MB engine, the
	// pack and the first frame.
	startTimeout = 120 * time.Second
)

// game is the one session of a project.
type game struct {
	sess   *webgodot.Session
	scene  string
	engine engineInfo
	timer  *time.Timer
	// pub makes the session reachable by other toolsets (input,
	// profiling, testing) through internal/gamesession; nil when it could
	// not be published.
	pub *gamesession.Publication
	// deadlineHit is set when the session's deadline stopped it.
	deadlineHit atomic.Bool
}

// gameTable holds at most one game per project root, the last one kept
// after it ended so its output can still be read.
type gameTable struct {
	mu sync.Mutex
	m  map[string]*game
}

var games = &gameTable{m: map[string]*game{}}

func (gt *gameTable) get(root string) *game {
	gt.mu.Lock()
	defer gt.mu.Unlock()
	return gt.m[root]
}

// replace stops the project's current game, if any, and records g.
func (gt *gameTable) replace(root string, g *game) {
	gt.mu.Lock()
	old := gt.m[root]
	gt.m[root] = g
	gt.mu.Unlock()
	if old != nil && old != g {
		old.stop()
	}
}

func (gt *gameTable) stopAll() {
	gt.mu.Lock()
	all := gt.m
	gt.m = map[string]*game{}
	gt.mu.Unlock()
	for _, g := range all {
		if g != nil {
			g.stop()
		}
	}
}

func (g *game) stop() {
	if g.timer != nil {
		g.timer.Stop()
	}
	if g.pub != nil {
		g.pub.Close()
	}
	g.sess.Stop()
}

// publish makes the session reachable by the other toolsets of the
// project until it ends. A failure only costs them the session, so it is
// logged, not returned.
func (g *game) publish(call *sdk.Call, root string, fixedFPS int) {
	sess := g.sess
	pub, err := gamesession.Publish(gamesession.Info{Project: root, Scene: g.scene, Engine: g.engine.Version, FixedFPS: fixedFPS, Started: time.Now()},
		func(ctx context.Context, cmd string, params json.RawMessage) (json.RawMessage, error) {
			var out json.RawMessage
			if err := sess.Call(ctx, cmd, params, &out); err != nil {
				if !sess.Running() {
					return nil, g.endedError()
				}
				return nil, err
			}
			return out, nil
		})
	if err != nil {
		call.Logger().Warn("the game session is not reachable by other toolsets", "error", err)
		return
	}
	g.pub = pub
	go func() {
		<-sess.Done()
		pub.Close()
	}()
}

// noSession is the addon's refusal when nothing plays.
func noSession() *sdk.Error {
	return &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "play_session",
		Message: "no game is running for this project", Hint: "start it with godot_runtime_play_scene first"}
}

// liveGame returns the project's running game, or the refusal saying why
// there is none (never started, stopped, exited, deadline).
func liveGame(call *sdk.Call) (*game, error) {
	p, err := call.Project()
	if err != nil {
		return nil, err
	}
	g := games.get(p.Root())
	if g == nil {
		return nil, noSession()
	}
	if !g.sess.Running() {
		return nil, g.endedError()
	}
	return g, nil
}

func (g *game) endedError() *sdk.Error {
	exited, code := g.sess.Exited()
	e := noSession()
	switch {
	case g.deadlineHit.Load():
		e.Message = "the game was stopped at its deadline (timeout_seconds of play_scene)"
		e.Hint = "start it again with godot_runtime_play_scene, with a longer timeout_seconds if needed"
	case exited:
		e.Message = fmt.Sprintf("the game exited with code %d", code)
		e.Hint = "read why with godot_runtime_get_game_output, then start it again with godot_runtime_play_scene"
	default:
		e.Message = "the game was stopped"
	}
	return e
}

type headlessPlayArgs struct {
	Scene          sdk.ScenePath `json:"scene,omitempty" alias:"scene_path" jsonschema:"res:// path of the .tscn/.scn scene to play; default: the main scene"`
	TimeoutSeconds int           `json:"timeout_seconds,omitempty" default:"600" minimum:"1" maximum:"3600" jsonschema:"without an editor only: the game is stopped after this many seconds (default 600, at most 3600); the editor's game plays until stopped"`
	FixedFPS       int           `json:"fixed_fps,omitempty" minimum:"0" maximum:"1000" jsonschema:"without an editor only: run the engine with --fixed-fps N, so every frame advances game time by exactly 1/N s however long it took; with the input toolset's pause and step_frames the same inputs then give the same positions every run (0 or absent: real time)"`
}

// playHeadless starts the project's game in the web runtime and returns
// while it runs. A game already running for the project is stopped first,
// as the editor does.
func playHeadless(ctx context.Context, call *sdk.Call, in headlessPlayArgs) (sdk.Result, error) {
	t, err := chooseEngine(ctx, call, true)
	if err != nil {
		return sdk.Result{}, err
	}
	if t.web == nil {
		e := sdk.Errorf(sdk.CodePreconditionFailed,
			"set up the web runtime ("+webgodot.SetupHint+") for a Godot 4 project, or open the project in the Godot editor with the godot-mcp addon; godot_runtime_run_and_capture runs the game once with "+t.engine.Version,
			"a live game session without an editor runs in the embedded web runtime (Godot 4 projects), and it is not available here")
		e.Required = "godot_web_runtime"
		return sdk.Result{}, e
	}
	scene, pck, r, err := webGamePack(t, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	// One session per project: the old one goes first, before the new
	// one takes the browser's time.
	games.replace(t.project.Root(), nil)
	call.Progress(0, 1, "starting the game in the web runtime")
	sctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	sess, err := r.StartGame(sctx, pck, webgodot.GameOptions{FixedFPS: in.FixedFPS})
	if err != nil {
		return sdk.Result{}, err
	}
	g := &game{sess: sess, scene: scene, engine: t.engine}
	secs := cmp(in.TimeoutSeconds, defaultSessionSeconds)
	g.timer = time.AfterFunc(time.Duration(secs)*time.Second, func() {
		g.deadlineHit.Store(true)
		sess.Stop()
	})
	g.publish(call, t.project.Root(), in.FixedFPS)
	games.replace(t.project.Root(), g)
	return sdk.JSON(map[string]any{
		"playing": true, "scene": scene, "engine": t.engine,
		"timeout_seconds": secs, "fixed_fps": in.FixedFPS,
		"summary": fmt.Sprintf("the game plays %s in the web runtime (Godot %s, %s); it is stopped after %ds or with godot_runtime_stop_scene",
			scene, t.engine.Version, t.engine.Renderer, secs),
	}), nil
}

// sceneToRun checks the scene argument, or the main scene, and returns
// the res:// path that runs.
func sceneToRun(t *target, scene string) (string, error) {
	if scene == "" {
		if t.settings.MainScene == "" {
			e := sdk.Errorf(sdk.CodePreconditionFailed,
				"pass scene (a res:// .tscn path), or set application/run/main_scene in project.godot",
				"the project has no main scene and no scene was given")
			e.Required = "main_scene"
			return "", e
		}
		return t.settings.MainScene, nil
	}
	abs, err := t.project.Resolve(scene)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(abs); err != nil {
		return "", sdk.Errorf(sdk.CodeNotFound, "pass the res:// path of an existing scene (list them with the inspection toolset)", "no scene at %s", scene)
	}
	return t.project.ResPath(filepath.Clean(abs)), nil
}

func stopHeadless(_ context.Context, call *sdk.Call, _ noArgs) (sdk.Result, error) {
	p, err := call.Project()
	if err != nil {
		return sdk.Result{}, err
	}
	if g := games.get(p.Root()); g != nil {
		g.stop()
	}
	return sdk.JSON(map[string]any{"playing": false}), nil
}

func isPlayingHeadless(ctx context.Context, call *sdk.Call, _ noArgs) (sdk.Result, error) {
	p, err := call.Project()
	if err != nil {
		return sdk.Result{}, err
	}
	g := games.get(p.Root())
	if g == nil || !g.sess.Running() {
		out := map[string]any{"playing": false, "scene": "", "paused": false}
		if g != nil {
			out["ended"] = g.endedError().Message
		}
		return sdk.JSON(out), nil
	}
	var pong struct {
		Paused bool `json:"paused"`
	}
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := g.sess.Call(cctx, "ping", nil, &pong); err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(map[string]any{"playing": true, "scene": g.scene, "paused": pong.Paused, "engine": g.engine,
		"uptime_seconds": g.sess.Uptime().Round(time.Millisecond).Seconds()}), nil
}

// probeCall runs one probe call on the project's game within wait.
func probeCall(ctx context.Context, call *sdk.Call, wait time.Duration, cmd string, params any) (map[string]any, *game, error) {
	g, err := liveGame(call)
	if err != nil {
		return nil, nil, err
	}
	cctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	var out map[string]any
	if err := g.sess.Call(cctx, cmd, params, &out); err != nil {
		if !g.sess.Running() {
			return nil, nil, g.endedError()
		}
		return nil, nil, err
	}
	return out, g, nil
}

func sceneTreeHeadless(ctx context.Context, call *sdk.Call, _ noArgs) (sdk.Result, error) {
	out, _, err := probeCall(ctx, call, waitFor(0), "scene_tree", nil)
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(map[string]any{"playing": true, "connected": true, "tree": out["tree"]}), nil
}

func readPropertyHeadless(ctx context.Context, call *sdk.Call, in readArgs) (sdk.Result, error) {
	out, _, err := probeCall(ctx, call, waitFor(in.TimeoutSeconds), "read_property",
		map[string]any{"node_path": in.NodePath, "property": in.Property, "request_id": requestID()})
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(out), nil
}

func monitorHeadless(ctx context.Context, call *sdk.Call, in monitorArgs) (sdk.Result, error) {
	p := monitorParams(in)
	if _, _, err := probeCall(ctx, call, waitFor(0), "monitor_property", p); err != nil {
		return sdk.Result{}, err
	}
	// The addon answers with the monitor's settings, defaults filled in.
	out := map[string]any{"monitoring": true, "node_path": in.NodePath, "property": in.Property,
		"samples": cmp(in.Samples, 30), "on_change_only": in.OnChangeOnly == nil || *in.OnChangeOnly, "epsilon": 0.0001}
	if in.Epsilon != nil {
		out["epsilon"] = *in.Epsilon
	}
	return sdk.JSON(out), nil
}

func samplesHeadless(ctx context.Context, call *sdk.Call, in waitArgs) (sdk.Result, error) {
	wait := waitFor(in.TimeoutSeconds)
	deadline := time.Now().Add(wait)
	for polls := 1; ; polls++ {
		out, _, err := probeCall(ctx, call, time.Until(deadline)+time.Second, "property_samples", nil)
		if err != nil {
			return sdk.Result{}, err
		}
		if ready, _ := out["ready"].(bool); ready {
			out["connected"] = true
			return sdk.JSON(out), nil
		}
		if time.Now().Add(pollInterval).After(deadline) {
			return sdk.Result{}, sdk.Errorf(sdk.CodeTimeout,
				"start a monitor with godot_runtime_monitor_property first, or retry with a longer timeout_seconds (a monitor takes one sample per frame)",
				"no property samples after %d polls in %s; last reason: %v", polls, wait, out["reason"])
		}
		select {
		case <-ctx.Done():
			return sdk.Result{}, ctx.Err()
		case <-time.After(pollInterval):
		}
	}
}

func findUIHeadless(ctx context.Context, call *sdk.Call, in findUIArgs) (sdk.Result, error) {
	out, _, err := probeCall(ctx, call, waitFor(in.seconds()), "find_ui",
		map[string]any{"name_contains": in.NameContains, "class_filter": in.ClassFilter, "visible_only": in.VisibleOnly})
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(map[string]any{"ready": true, "elements": out["elements"]}), nil
}

func screenshotHeadless(ctx context.Context, call *sdk.Call, in shotArgs) (sdk.Result, error) {
	out, _, err := probeCall(ctx, call, waitFor(in.seconds()), "capture",
		map[string]any{"width": in.Width, "height": in.Height})
	if err != nil {
		return sdk.Result{}, err
	}
	return screenshotResult(out, 0, 0)
}

// outputEntry is one entry of get_game_output: the addon's
// {seq, kind, text, time_ms}, and for errors the place Godot named.
type outputEntry struct {
	Seq      int     `json:"seq"`
	Kind     string  `json:"kind"`
	Text     string  `json:"text"`
	TimeMS   float64 `json:"time_ms"`
	File     string  `json:"file,omitempty"`
	Line     int     `json:"line,omitempty"`
	Function string  `json:"function,omitempty"`
	At       string  `json:"at,omitempty"`
}

func outputHeadless(_ context.Context, call *sdk.Call, in outputArgs) (sdk.Result, error) {
	p, err := call.Project()
	if err != nil {
		return sdk.Result{}, err
	}
	g := games.get(p.Root())
	if g == nil {
		return sdk.Result{}, noSession()
	}
	lines, last, dropped := g.sess.Lines(0)
	all := gameEntries(lines)
	entries := []outputEntry{}
	for _, e := range all {
		if e.Seq > in.SinceSeq {
			entries = append(entries, e)
		}
	}
	out := map[string]any{"playing": g.sess.Running(), "connected": true, "entries": entries,
		"next_seq": last, "total": len(all), "dropped": dropped, "ready": true}
	if !g.sess.Running() {
		out["ended"] = g.endedError().Message
	}
	return sdk.JSON(out), nil
}

// gameEntries turns the engine's lines into entries: one per print line,
// one per error or warning block (its head line and the indented lines
// under it), with the res:// place godotlog finds in the block.
func gameEntries(lines []webgodot.SessionLine) []outputEntry {
	var out []outputEntry
	var block []string
	var head webgodot.SessionLine
	flush := func() {
		if len(block) == 0 {
			return
		}
		e := outputEntry{Seq: head.Seq, Kind: "error", Text: strings.Join(block, "\n"), TimeMS: ms(head.At)}
		errs, warns, _ := godotlog.Parse(e.Text + "\n")
		var found *godotlog.Entry
		if len(errs) > 0 {
			found = &errs[0]
		} else if len(warns) > 0 {
			found, e.Kind = &warns[0], "warning"
		}
		if found != nil {
			e.File, e.Line, e.Function = found.File, found.Line, found.Function
			if e.File != "" && e.Line > 0 {
				e.At = fmt.Sprintf("%s:%d", e.File, e.Line)
			}
		}
		out = append(out, e)
		block = nil
	}
	for _, l := range lines {
		if l.Stream == webgodot.Stderr && len(block) > 0 && strings.HasPrefix(l.Text, " ") {
			block = append(block, l.Text)
			continue
		}
		flush()
		switch {
		case l.Stream == webgodot.Stderr && isHead(l.Text):
			head, block = l, []string{l.Text}
		case l.Stream == webgodot.Stdout:
			out = append(out, outputEntry{Seq: l.Seq, Kind: "stdout", Text: l.Text, TimeMS: ms(l.At)})
		default: // printerr, and the page's own failures
			out = append(out, outputEntry{Seq: l.Seq, Kind: "error", Text: l.Text, TimeMS: ms(l.At)})
		}
	}
	flush()
	return out
}

func isHead(s string) bool {
	s = strings.TrimPrefix(s, "USER ")
	for _, k := range []string{"ERROR:", "WARNING:", "SCRIPT ERROR:", "SHADER ERROR:"} {
		if strings.HasPrefix(s, k) {
			return true
		}
	}
	return false
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// sceneArg is the scene to name in the pack's override.cfg: the checked
// path when the caller gave one, else "" (the project's main scene).
func sceneArg[S ~string](given S, checked string) string {
	if given == "" {
		return ""
	}
	return checked
}
