package server

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/config"
	"github.com/godot-mcp/godot-mcp/host/events"
	"github.com/godot-mcp/godot-mcp/host/exposure"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// dispatchToolsets adds to testToolsets a toolset whose run tool
// dispatches commands and whose bulk tool performs add_node, and a
// toolset that makes the bare name add_node ambiguous.
func dispatchToolsets() []*manifest.Manifest {
	run := tool("run", manifest.Mutating, `{"type":"object","properties":{"commands":{"type":"array","items":{"type":"object"}}},"required":["commands"]}`)
	run.Dispatch = "commands[*].command"
	bulk := tool("bulk", manifest.Mutating, `{"type":"object"}`)
	bulk.Performs = []string{"godot_scene_edit_add_node"}
	return append(testToolsets(),
		&manifest.Manifest{Name: "composite", Version: "1.0.0", Description: "Many edits.", Tools: []manifest.Tool{run, bulk}},
		&manifest.Manifest{Name: "other", Version: "1.0.0", Description: "Clashes.", Tools: []manifest.Tool{tool("add_node", manifest.Mutating, `{"type":"object"}`)}},
	)
}

func denyChain(t *testing.T, deny ...string) *exposure.Chain {
	t.Helper()
	cfg := &config.Config{}
	cfg.Operator.Deny = deny
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	chain, err := exposure.NewChain(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return chain
}

func cmds(names ...string) []any {
	out := make([]any, len(names))
	for i, n := range names {
		out[i] = map[string]any{"command": n, "params": map[string]any{"path": "a"}}
	}
	return out
}

// TestDispatchChecksEveryCommand: each command of a dispatching tool is
// checked as a direct call of the tool it names; a refusal refuses the
// whole call before the plugin, with the rule's code and the command.
func TestDispatchChecksEveryCommand(t *testing.T) {
	tests := []struct {
		name     string
		deny     []string
		args     map[string]any
		code     string // "" when the call goes to the plugin
		required string
		inMsg    string
		sent     []string // the commands the plugin gets, when it runs
	}{
		{name: "every spelling resolves", args: map[string]any{"confirm": true, "commands": cmds(
			"delete_node", "cmd_delete_node", " scene_edit_delete_node", "godot_scene_edit_delete_node", "scene_tree")},
			sent: []string{"godot_scene_edit_delete_node", "godot_scene_edit_delete_node", "godot_scene_edit_delete_node", "godot_scene_edit_delete_node", "godot_inspection_scene_tree"}},
		{name: "destructive needs confirm", args: map[string]any{"commands": cmds("scene_tree", "delete_node")},
			code: sdk.CodePreconditionFailed, required: sdk.RequiredConfirm, inMsg: `commands[1] ("delete_node", the tool godot_scene_edit_delete_node)`},
		{name: "a dry run needs no confirm", args: map[string]any{"dry_run": true, "commands": cmds("delete_node")},
			sent: []string{"godot_scene_edit_delete_node"}},
		{name: "denied by class", deny: []string{"class:destructive"}, args: map[string]any{"confirm": true, "commands": cmds("scene_tree", "cmd_delete_node")},
			code: sdk.CodeToolNotExposed, required: "layer:" + exposure.LayerOperator, inMsg: "commands[1]"},
		{name: "denied by toolset", deny: []string{"scene_edit"}, args: map[string]any{"confirm": true, "commands": cmds("delete_node")},
			code: sdk.CodeToolNotExposed, inMsg: "godot_scene_edit_delete_node"},
		{name: "denied by name", deny: []string{"godot_scene_edit_delete_node"}, args: map[string]any{"confirm": true, "commands": cmds("godot_scene_edit_delete_node")},
			code: sdk.CodeToolNotExposed, inMsg: "commands[0] (godot_scene_edit_delete_node)"},
		{name: "toolset off", args: map[string]any{"commands": cmds("play")},
			code: sdk.CodeToolsetDisabled, inMsg: "godot_runtime_play"},
		{name: "performs of a command", deny: []string{"godot_scene_edit_add_node"}, args: map[string]any{"commands": cmds("bulk")},
			code: sdk.CodeToolNotExposed, inMsg: "does the work of godot_scene_edit_add_node"},
		{name: "unknown", args: map[string]any{"commands": cmds("cmd_evaluate_expression")}, code: sdk.CodeNotFound, inMsg: "names no installed tool"},
		{name: "ambiguous", args: map[string]any{"commands": cmds("add_node")}, code: sdk.CodeInvalidArgument, inMsg: "godot_other_add_node, godot_scene_edit_add_node"},
		{name: "core tool", args: map[string]any{"commands": cmds("cmd_list_toolsets")}, code: sdk.CodeInvalidArgument, inMsg: "host's own tool"},
		{name: "nesting", args: map[string]any{"commands": cmds("run")}, code: sdk.CodeInvalidArgument, inMsg: "cannot nest"},
		{name: "no command", args: map[string]any{"commands": []any{map[string]any{"params": map[string]any{}}}}, code: sdk.CodeInvalidArgument, inMsg: "has no command"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := envOptions{godot: "4.5", toolsets: dispatchToolsets(), seed: []string{"inspection", "scene_edit", "composite", "other"}}
			if tc.deny != nil {
				o.policy = denyChain(t, tc.deny...)
			}
			e := newEnv(t, o)
			c := e.connect(t, legacy)
			res := c.call(t, "godot_composite_run", tc.args)
			if tc.code == "" {
				if res.IsError {
					t.Fatalf("refused: %+v", toolErr(t, res))
				}
				if seen := e.plugins.seen(); len(seen) != 1 {
					t.Fatalf("plugin got %v", seen)
				}
				var got struct {
					Commands []struct{ Command string } `json:"commands"`
				}
				if err := json.Unmarshal(e.plugins.lastReq.Args, &got); err != nil {
					t.Fatal(err)
				}
				var names []string
				for _, c := range got.Commands {
					names = append(names, c.Command)
				}
				if !slices.Equal(names, tc.sent) {
					t.Errorf("plugin got commands %v, want %v", names, tc.sent)
				}
				return
			}
			te := toolErr(t, res)
			if te.Code != tc.code || (tc.required != "" && te.Required != tc.required) ||
				!strings.Contains(te.Message, tc.inMsg) || !strings.Contains(te.Message, "nothing") || te.Hint == "" || te.Toolset != "composite" {
				t.Errorf("got %+v, want %s (required %q) saying %q, that nothing ran, and a fix", te, tc.code, tc.required, tc.inMsg)
			}
			if seen := e.plugins.seen(); len(seen) != 0 {
				t.Errorf("plugin saw %v", seen)
			}
			e.bus.Close()
			var refused *events.Event
			for _, ev := range e.ring.Recent() {
				if ev.Kind == events.CallRefused {
					refused = &ev
				}
			}
			if refused == nil || refused.Fields["tool"] != "godot_composite_run" || refused.Fields["rule"] == nil || refused.Fields["inner_command"] == nil {
				t.Errorf("refusal event = %+v", refused)
			}
		})
	}
}

// TestPerformsHeldToPolicy: a tool that does another tool's work is
// refused when the caller may not call that tool.
func TestPerformsHeldToPolicy(t *testing.T) {
	for _, deny := range [][]string{{"godot_scene_edit_add_node"}, {"scene_edit"}, {"godot_scene_edit_*"}} {
		e := newEnv(t, envOptions{godot: "4.5", toolsets: dispatchToolsets(), policy: denyChain(t, deny...), seed: []string{"composite"}})
		c := e.connect(t, legacy)
		te := toolErr(t, c.call(t, "godot_composite_bulk", map[string]any{}))
		if te.Code != sdk.CodeToolNotExposed || !strings.Contains(te.Message, "godot_scene_edit_add_node") {
			t.Errorf("deny %v: bulk = %+v", deny, te)
		}
		if seen := e.plugins.seen(); len(seen) != 0 {
			t.Errorf("deny %v: plugin saw %v", deny, seen)
		}
	}
	// Allowed, and scene_edit off: performs does not ask the gate.
	e := newEnv(t, envOptions{godot: "4.5", toolsets: dispatchToolsets(), seed: []string{"composite"}})
	c := e.connect(t, legacy)
	if res := c.call(t, "godot_composite_bulk", map[string]any{}); res.IsError {
		t.Errorf("allowed bulk refused: %+v", toolErr(t, res))
	}
}

// TestDispatchSchemaHasConfirm: a dispatching tool takes confirm and is
// annotated as possibly destructive, since a command of its list may be.
func TestDispatchSchemaHasConfirm(t *testing.T) {
	e := newEnv(t, envOptions{godot: "4.5", toolsets: dispatchToolsets(), seed: []string{"composite"}})
	c := e.connect(t, legacy)
	res, err := c.cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range res.Tools {
		if tl.Name != "godot_composite_run" && tl.Name != "godot_composite_bulk" {
			continue
		}
		b, _ := json.Marshal(tl.InputSchema)
		run := tl.Name == "godot_composite_run"
		if has := strings.Contains(string(b), `"confirm"`); has != run {
			t.Errorf("%s schema %s: confirm present = %v", tl.Name, b, has)
		}
		if d := tl.Annotations.DestructiveHint; d == nil || *d != run {
			t.Errorf("%s: destructiveHint = %v, want %v", tl.Name, d, run)
		}
	}
}
