package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// With an editor attached, the game tools drive the game playing in the
// editor through the addon's runtime and input commands, as the addon's
// own server does: cmd_is_playing, cmd_play_scene, cmd_stop_scene,
// cmd_get_game_scene_tree, cmd_play_input_sequence, cmd_monitor_property
// with cmd_get_property_samples, cmd_capture_game_screenshot.

type editor = godotrun.Editor

// pollInterval is how often a ready:false command is asked again.
var pollInterval = 100 * time.Millisecond

func forward(ctx context.Context, ed editor, command string, params any) (map[string]any, error) {
	var out map[string]any
	if err := ed.Editor(ctx, command, params, &out); err != nil {
		var e *sdk.Error
		if errors.As(err, &e) && e.Code == sdk.CodeBridgeDisconnected {
			e.Hint = "open the project in the Godot editor with the godot-mcp addon, or close the editor to run these tools headless in the web runtime"
		}
		return nil, err
	}
	if out == nil {
		out = map[string]any{}
	}
	return out, nil
}

// poll asks command until it is not {ready:false} or wait passes.
func poll(ctx context.Context, ed editor, command string, params map[string]any, wait time.Duration) (map[string]any, error) {
	deadline := time.Now().Add(wait)
	reason := "not ready"
	for polls := 1; ; polls++ {
		out, err := forward(ctx, ed, command, params)
		if err != nil {
			return nil, err
		}
		if ready, ok := out["ready"].(bool); !ok || ready {
			return out, nil
		}
		if r, ok := out["reason"].(string); ok && r != "" {
			reason = r
		}
		if time.Now().Add(pollInterval).After(deadline) {
			return nil, sdk.Errorf(sdk.CodeTimeout, "make sure the game is running in the editor, then retry with a longer timeout",
				"%s was still not ready after %d polls in %s; last reason: %s", command, polls, wait, reason)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(pollInterval):
		}
	}
}

// requirePlaying refuses when no game plays in the editor.
func requirePlaying(ctx context.Context, ed editor) error {
	out, err := forward(ctx, ed, "cmd_is_playing", map[string]any{})
	if err != nil {
		return err
	}
	if playing, _ := out["playing"].(bool); !playing {
		e := sdk.Errorf(sdk.CodePreconditionFailed, "start the game with godot_runtime_play_scene first",
			"no game is playing in the editor")
		e.Required = "play_session"
		return e
	}
	return nil
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

func runStressEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in stressArgs) (sdk.Result, error) {
	return stressEditor(ctx, godotrun.EditorCommands{Ed: ed}, in)
}

func stressEditor(ctx context.Context, ed editor, in stressArgs) (sdk.Result, error) {
	if err := requirePlaying(ctx, ed); err != nil {
		return sdk.Result{}, err
	}
	n := in.Iterations
	if n == 0 {
		n = 50
	}
	delay := in.DelayMS
	if delay == 0 {
		delay = 50
	}
	events := randomEvents(n, in.Actions, in.Seed, 1152, 648)
	if _, err := forward(ctx, ed, "cmd_play_input_sequence", map[string]any{"events": events, "delay_ms": delay}); err != nil {
		return sdk.Result{}, err
	}
	wait := min(time.Duration(n*delay)*time.Millisecond+500*time.Millisecond, 60*time.Second)
	if err := sleepCtx(ctx, wait); err != nil {
		return sdk.Result{}, err
	}
	out, err := forward(ctx, ed, "cmd_is_playing", map[string]any{})
	if err != nil {
		return sdk.Result{}, err
	}
	playing, _ := out["playing"].(bool)
	res := stressResult{Survived: playing, PlayingAfter: playing, Iterations: n, Seed: in.Seed, EventsSent: n, Errors: []string{}}
	res.Text = "the game survived " + itoa(n) + " random input events"
	if !playing {
		res.Text = "the game stopped during " + itoa(n) + " random input events: read its output with godot_runtime_get_game_output"
	}
	return sdk.JSON(res), nil
}

func requestID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// withJSONText is a result whose text is summary and the JSON of v,
// followed by images.
func withJSONText(v any, summary string, images []sdk.Content) sdk.Result {
	b, _ := json.Marshal(v)
	return sdk.Result{Structured: v, Content: append([]sdk.Content{sdk.TextContent{Text: summary + ": " + string(b)}}, images...)}
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
