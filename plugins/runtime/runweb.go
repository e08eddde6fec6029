package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/godotlog"
	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// runWeb is run_and_capture in the web runtime: the game runs (rendering,
// with the same pack as a session) until it quits or the deadline passes,
// and its output is read as a native run's is.
func runWeb(ctx context.Context, call *sdk.Call, t *target, in runArgs) (sdk.Result, error) {
	scene, pck, r, err := webGamePack(t, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	timeout := time.Duration(cmp(in.TimeoutSeconds, defaultTimeout)) * time.Second
	opts := webgodot.GameOptions{NoProbe: true}
	command := []string{"godot-web " + webgodot.RuntimeEngine, "--main-pack", "main.pck"}
	if in.Scene != "" {
		command = append(command, "(override.cfg: run/main_scene="+scene+")")
	}
	start := time.Now()
	dctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	sess, err := r.StartGame(dctx, pck, opts)
	if err != nil {
		return sdk.Result{}, err
	}
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	timedOut, cancelled := false, false
wait:
	for {
		select {
		case <-sess.Done():
			break wait
		case <-tick.C:
			_, n, _ := sess.Lines(0)
			el := time.Since(start)
			call.Progress(el.Seconds(), timeout.Seconds(),
				fmt.Sprintf("Godot %s (web runtime) running: %ds of %ds, %d lines of output", webgodot.RuntimeEngine, int(el.Seconds()), int(timeout.Seconds()), n))
		case <-dctx.Done():
			if errors.Is(ctx.Err(), context.Canceled) {
				cancelled = true
			} else {
				timedOut = true
			}
			break wait
		}
	}
	sess.Stop()
	dur := time.Since(start)
	if cancelled {
		return sdk.Result{}, sdk.Errorf(sdk.CodeCancelled, "", "the run was cancelled after %.1fs; the game's tab was closed", dur.Seconds())
	}
	lines, _, _ := sess.Lines(0)
	var text strings.Builder
	for _, l := range lines {
		text.WriteString(l.Text)
		text.WriteByte('\n')
	}
	output := text.String()
	errs, warns, droppedEntries := godotlog.Parse(output)
	res := runResult{Ran: true, TimedOut: timedOut, ExpectedTimeout: in.ExpectedTimeout,
		DurationSeconds: dur.Round(time.Millisecond).Seconds(),
		Errors:          nonNilEntries(errs), Warnings: nonNilEntries(warns), EntriesDropped: droppedEntries,
		OutputBytes: int64(len(output)), Command: command, Godot: webgodot.RuntimeEngine, Engine: t.engine}
	res.Output, res.OutputDropped = capOutput(output, cmp(in.MaxOutputBytes, 65536))
	if exited, code := sess.Exited(); exited {
		res.ExitCode = &code
	}
	clean := (res.ExitCode != nil && *res.ExitCode == 0) || (timedOut && in.ExpectedTimeout)
	res.OK = clean && len(errs) == 0
	o := &godotrun.Outcome{ExitCode: res.ExitCode, TimedOut: timedOut, Duration: dur, Errors: errs, DroppedBytes: res.OutputDropped}
	res.Summary = strings.Replace(summarize(o, in.ExpectedTimeout, timeout), "Godot ", "Godot "+webgodot.RuntimeEngine+" (web runtime) ", 1)
	if res.ExitCode == nil && !timedOut {
		res.Summary += "; the page ended without an exit code"
	}
	return sdk.JSON(res), nil
}

func nonNilEntries(e []godotlog.Entry) []godotlog.Entry {
	if e == nil {
		return []godotlog.Entry{}
	}
	return e
}

// capOutput keeps the first quarter and the last three quarters of max
// bytes, as the native runner does, with a note where the cut is.
func capOutput(s string, max int) (string, int64) {
	if len(s) <= max {
		return s, 0
	}
	head := max / 4
	tail := max - head
	dropped := len(s) - head - tail
	return s[:head] + fmt.Sprintf("\n[... %d bytes of output left out ...]\n", dropped) + s[len(s)-tail:], int64(dropped)
}
