package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/gamesession"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// Where assert_node_state read its values.
const (
	sourceRunning = "running game" // the session godot_runtime_play_scene started
	sourceFresh   = "fresh run"    // a one-shot run of the scene with the driver
	sourceEditor  = "editor"       // the game playing in the attached editor
)

// liveRead is what a read in the running game found.
type liveRead struct {
	scene string
	tick  int
}

// probeTime is the probe's game-time state (internal/webgodot/probe.gd).
type probeTime struct {
	Paused   bool `json:"paused"`
	Tick     int  `json:"tick"`
	Frame    int  `json:"frame"`
	Stepping bool `json:"stepping"`
}

// probeRead is the probe's answer to read_property.
type probeRead struct {
	Value    any    `json:"value"`
	Error    string `json:"error"`
	Rejected string `json:"rejected"`
}

// attachGame returns the project's running game session, or nil when none
// runs.
func attachGame(call *sdk.Call) *gamesession.Client {
	p, err := call.Project()
	if err != nil {
		return nil
	}
	c, err := gamesession.Attach(p.Root())
	if err != nil {
		return nil
	}
	return c
}

// isNoSession tells whether err says that no game runs (any more).
func isNoSession(err error) bool {
	var se *sdk.Error
	return errors.As(err, &se) && se.Required == gamesession.RequiredSession
}

// assertLive reads every assertion's property in the running game, one
// read each, as godot_runtime_read_property does. With more than one
// assertion the game's tree is paused around the reads (unless it is
// paused or being stepped already) so that they all see the same tick.
func assertLive(ctx context.Context, c *gamesession.Client, list []Assertion, wait time.Duration) ([]AssertionResult, *liveRead, error) {
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	var st probeTime
	if err := c.Call(ctx, "time", map[string]any{}, &st); err != nil {
		return nil, nil, err
	}
	info := &liveRead{scene: c.Info().Scene, tick: st.Tick}
	if len(list) > 1 && !st.Paused && !st.Stepping {
		if err := c.Call(ctx, "time", map[string]any{"paused": true}, &st); err != nil {
			return nil, nil, err
		}
		info.tick = st.Tick
		defer func() {
			// Resume even when the caller's context ended.
			rctx, rcancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer rcancel()
			_ = c.Call(rctx, "time", map[string]any{"paused": false}, nil)
		}()
	}
	out := make([]AssertionResult, len(list))
	for i, a := range list {
		ar := AssertionResult{NodePath: a.NodePath, Property: a.Property, Op: opOr(a.Op), Expected: a.Expected, Frame: info.tick}
		base, sub, _ := strings.Cut(a.Property, ":")
		var r probeRead
		if err := c.Call(ctx, "read_property", map[string]any{"node_path": a.NodePath, "property": base}, &r); err != nil {
			return nil, nil, err
		}
		switch {
		case r.Rejected != "":
			ar.Error = r.Rejected
		case r.Error != "":
			ar.Error = r.Error
		default:
			ar.Actual, ar.Error = component(r.Value, base, sub)
		}
		if ar.Error == "" {
			ar.Passed, ar.Error = evaluate(ar.Actual, a.Expected, a.Op, a.Epsilon)
		}
		out[i] = ar
	}
	return out, info, nil
}

// component picks a sub-property (x of position:x, a of modulate:a) out
// of the value the probe read: vectors and colours come as dictionaries.
func component(v any, base, sub string) (any, string) {
	for sub != "" {
		var k string
		k, sub, _ = strings.Cut(sub, ":")
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Sprintf("cannot read %q of %s in the running game (only vector and colour components are read there): assert the whole property, or pass scene to read it in a fresh run", k, typeName(v))
		}
		if v, ok = m[k]; !ok {
			return nil, fmt.Sprintf("%s has no component %q (it has %s)", base, k, strings.Join(slices.Sorted(maps.Keys(m)), ", "))
		}
		base += ":" + k
	}
	return v, ""
}
