package main

import (
	"context"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/gamesession"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// Without an editor every tool acts on the project's headless game
// session, which lives in the runtime toolset's process; gamesession
// relays the probe calls (internal/webgodot/probe.gd) to it.

// defaultWait bounds a probe call; the probe answers between frames.
const defaultWait = 10 * time.Second

// probe runs one probe call on the project's game within wait. A probe
// answer {"rejected": why} is the caller's mistake: INVALID_ARGUMENT.
func probe(ctx context.Context, call *sdk.Call, wait time.Duration, cmd string, params any) (map[string]any, *gamesession.Client, error) {
	p, err := call.Project()
	if err != nil {
		return nil, nil, err
	}
	c, err := gamesession.Attach(p.Root())
	if err != nil {
		return nil, nil, err
	}
	cctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	var out map[string]any
	if err := c.Call(cctx, cmd, params, &out); err != nil {
		return nil, nil, err
	}
	if why, ok := out["rejected"].(string); ok {
		return nil, nil, sdk.Errorf(sdk.CodeInvalidArgument, "fix the argument and call again", "%s", why)
	}
	return out, c, nil
}

// timeResult is a game-time answer with the fixed FPS the session was
// started with (the engine does not report it).
func timeResult(ctx context.Context, call *sdk.Call, wait time.Duration, cmd string, params any) (sdk.Result, error) {
	out, c, err := probe(ctx, call, wait, cmd, params)
	if err != nil {
		return sdk.Result{}, err
	}
	out["fixed_fps"] = c.Info().FixedFPS
	return sdk.JSON(out), nil
}

func probeResult(ctx context.Context, call *sdk.Call, cmd string, params any) (sdk.Result, error) {
	out, _, err := probe(ctx, call, defaultWait, cmd, params)
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.JSON(out), nil
}
