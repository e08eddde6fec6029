package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/host/gate"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// Editor is the server's view of the link to a Godot editor; host/bridge
// implements it. The core undo tools forward through it, and the
// diagnostics tools show its Status.
type Editor interface {
	// Request sends an addon command and returns its result object or an
	// *sdk.Error (BRIDGE_DISCONNECTED when no editor is attached).
	Request(ctx context.Context, command string, params any, timeout time.Duration) (json.RawMessage, error)
	// Status describes the link for diagnostics.
	Status() bridge.Status
}

// The core tools that forward to the editor's history (ADDON-PROTOCOL.md
// §5.3). Without an editor they say BRIDGE_DISCONNECTED; the headless
// workspace journal will answer them in its own mode.
var editorCoreTools = map[string]struct {
	description string
	schema      string
}{
	"godot_undo": {
		"Undo the last actions in the Godot editor's history (the edited scene's, or the global one when no scene is open), exactly as Ctrl+Z does. An empty history is not an error: the result says nothing_to_undo. dry_run names the action that would be undone and changes nothing.",
		`{"type":"object","properties":{"count":{"type":"integer","minimum":1,"default":1,"description":"How many actions to undo."},"dry_run":{"type":"boolean","default":false,"description":"Report the action that would be undone without undoing it."}},"additionalProperties":false}`,
	},
	"godot_redo": {
		"Redo actions undone in the Godot editor, exactly as Ctrl+Shift+Z does. An empty redo stack is not an error: the result says nothing_to_redo. dry_run names the action that would be redone and changes nothing.",
		`{"type":"object","properties":{"count":{"type":"integer","minimum":1,"default":1,"description":"How many actions to redo."},"dry_run":{"type":"boolean","default":false,"description":"Report the action that would be redone without redoing it."}},"additionalProperties":false}`,
	},
	"godot_list_history": {
		"Show the Godot editor's undo history: whether undo and redo are possible, the current action and up to 20 recent action names, oldest first. Changes nothing.",
		`{"type":"object","properties":{},"additionalProperties":false}`,
	},
}

// The editor tools share the core tools' table; see addCoreTools.
func init() {
	for name, def := range editorCoreTools {
		coreTools[name] = def
	}
}

// undoesOrRedoes reports the core tools that are not idempotent: each undo
// steps further back.
func undoesOrRedoes(name string) bool { return name == "godot_undo" || name == "godot_redo" }

type historyArgs struct {
	Count  int  `json:"count"`
	DryRun bool `json:"dry_run"`
}

// historyTimeout bounds undo and redo: the editor runs each action's undo
// method in one frame, and a large undo can take a while.
const historyTimeout = 30 * time.Second

// editorHandlers are the handlers of the editor core tools.
func (s *Server) editorHandlers() map[string]func(*toolEntry) mcp.ToolHandler {
	return map[string]func(*toolEntry) mcp.ToolHandler{
		"godot_undo":         coreHandler(s.historyStep("cmd_undo", "undone", "nothing_to_undo")),
		"godot_redo":         coreHandler(s.historyStep("cmd_redo", "redone", "nothing_to_redo")),
		"godot_list_history": coreHandler(s.listHistory),
	}
}

// historyStep forwards undo or redo with the addon's params and adds what
// the reference server adds: nothing_to_<verb> and the dry_run the caller
// asked for.
func (s *Server) historyStep(command, countKey, nothingKey string) func(context.Context, *mcp.CallToolRequest, historyArgs) *mcp.CallToolResult {
	return func(ctx context.Context, _ *mcp.CallToolRequest, in historyArgs) *mcp.CallToolResult {
		if in.Count == 0 {
			in.Count = 1
		}
		out, err := s.editorRequest(ctx, command, map[string]any{"count": in.Count, "dry_run": in.DryRun}, historyTimeout)
		if err != nil {
			return err.Result()
		}
		out["dry_run"] = in.DryRun
		summary := ""
		if in.DryRun {
			next, _ := out["would_"+command[len("cmd_"):]+"_next"].(string)
			summary = fmt.Sprintf("dry run: would %s %q", command[len("cmd_"):], next)
		} else {
			n, _ := out[countKey].(float64)
			out[nothingKey] = n == 0
			last, _ := out["last_action"].(string)
			summary = fmt.Sprintf("%s %d of %d (last: %q)", countKey, int(n), in.Count, last)
		}
		return jsonResult(summary, out)
	}
}

func (s *Server) listHistory(ctx context.Context, _ *mcp.CallToolRequest, _ noArgs) *mcp.CallToolResult {
	out, err := s.editorRequest(ctx, "cmd_list_history", nil, 0)
	if err != nil {
		return err.Result()
	}
	if recent, ok := out["recent"].([]any); ok {
		named := make([]map[string]any, 0, len(recent))
		for _, r := range recent {
			named = append(named, map[string]any{"name": r})
		}
		out["recent"] = named
	}
	current, _ := out["current_action"].(string)
	return jsonResult(fmt.Sprintf("Editor history: current action %q", current), out)
}

// editorRequest sends a command to the editor and decodes its result object.
func (s *Server) editorRequest(ctx context.Context, command string, params any, timeout time.Duration) (map[string]any, *ToolError) {
	if s.opts.Editor == nil {
		return nil, &ToolError{Code: sdk.CodeBridgeDisconnected, Toolset: gate.Core, Required: "bridge_connected",
			Message: "the editor bridge is off in this host, so " + command + " cannot reach a Godot editor",
			Hint:    "start godot-mcp serve without --bridge off (the default listens at " + bridge.DefaultURL + ") and open the project in the Godot editor with the godot-mcp addon"}
	}
	raw, err := s.opts.Editor.Request(ctx, command, params, timeout)
	if err != nil {
		var e *sdk.Error
		if errors.As(err, &e) {
			return nil, &ToolError{Code: e.Code, Message: e.Message, Hint: e.Hint, Required: e.Required, Toolset: gate.Core}
		}
		return nil, toolError(err, gate.Core)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil || out == nil {
		return nil, &ToolError{Code: sdk.CodeInternalError, Toolset: gate.Core,
			Message: fmt.Sprintf("the Godot editor's answer to %s is not a JSON object", command),
			Hint:    "update the godot-mcp addon; the host log has the frame"}
	}
	return out, nil
}

// editorInfo is the "editor" entry of godot_get_server_info.
func (s *Server) editorInfo() any {
	if s.opts.Editor == nil {
		return map[string]any{"enabled": false, "hint": "the editor bridge is off (--bridge off)"}
	}
	return s.opts.Editor.Status()
}

// editorChecks are godot_health_check's lines about the editor link.
func (s *Server) editorChecks() []check {
	if s.opts.Editor == nil {
		return []check{{Name: "editor_bridge", Status: "ok", Detail: "off: headless mode only"}}
	}
	st := s.opts.Editor.Status()
	var out []check
	switch {
	case st.ListenError != "":
		out = append(out, check{Name: "editor_bridge", Status: "warn", Detail: st.ListenError})
	case st.Connected:
		out = append(out, check{Name: "editor_bridge", Status: "ok", Detail: fmt.Sprintf("editor attached: project %s, Godot %s, addon %s",
			orStr(st.ProjectPath, "(unknown)"), orStr(st.GodotVersion, "(unknown)"), orStr(st.AddonVersion, "(unknown)"))})
	default:
		out = append(out, check{Name: "editor_bridge", Status: "ok", Detail: "listening at " + st.URL + "; no editor attached (headless mode)"})
	}
	if len(st.Drift) > 0 {
		out = append(out, check{Name: "editor_addon", Status: "warn", Detail: fmt.Sprintf(
			"the addon (version %s) lacks commands this host needed: %v; update the godot-mcp addon in the project", orStr(st.AddonVersion, "unknown"), st.Drift)})
	}
	return out
}
