package server

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/host/gate"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// Editor is the server's view of the link to a Godot editor; host/bridge
// implements it. The core undo tools forward through it while an editor is
// attached, and the diagnostics tools show its Status.
type Editor interface {
	// Request sends an addon command and returns its result object or an
	// *sdk.Error (BRIDGE_DISCONNECTED when no editor is attached).
	Request(ctx context.Context, command string, params any, timeout time.Duration) (json.RawMessage, error)
	// Status describes the link for diagnostics.
	Status() bridge.Status
}

// historyTimeout bounds undo and redo in the editor: it runs each action's
// undo method in one frame, and a large undo can take a while.
const historyTimeout = 30 * time.Second

// editorAttached reports whether an editor is attached now, so the history
// tools walk its history rather than the workspace journal.
func (s *Server) editorAttached() bool {
	return s.opts.Editor != nil && s.opts.Editor.Status().Connected
}

// editorStep forwards undo or redo with the addon's params (cmd_undo,
// cmd_redo: count, dry_run) and adds what the reference server adds:
// nothing_to_<verb> and the dry_run the caller asked for.
func (s *Server) editorStep(ctx context.Context, command, countKey, nothingKey string, in walkArgs) (map[string]any, string, *sdk.Error) {
	out, err := s.editorRequest(ctx, command, map[string]any{"count": in.Count, "dry_run": in.DryRun}, historyTimeout)
	if err != nil {
		return nil, "", err
	}
	verb := command[len("cmd_"):]
	out["dry_run"] = in.DryRun
	if in.DryRun {
		next, _ := out["would_"+verb+"_next"].(string)
		return out, fmt.Sprintf("dry run: would %s %q", verb, next), nil
	}
	n, _ := out[countKey].(float64)
	out[nothingKey] = n == 0
	last, _ := out["last_action"].(string)
	return out, fmt.Sprintf("%s %d of %d (last: %q)", countKey, int(n), in.Count, last), nil
}

// editorHistory forwards cmd_list_history; "recent" becomes [{name}], the
// shape the workspace journal answers with.
func (s *Server) editorHistory(ctx context.Context) (map[string]any, string, *sdk.Error) {
	out, err := s.editorRequest(ctx, "cmd_list_history", nil, 0)
	if err != nil {
		return nil, "", err
	}
	if recent, ok := out["recent"].([]any); ok {
		named := make([]map[string]any, 0, len(recent))
		for _, r := range recent {
			named = append(named, map[string]any{"name": r})
		}
		out["recent"] = named
	}
	current, _ := out["current_action"].(string)
	return out, fmt.Sprintf("Editor history: current action %q", current), nil
}

// editorRequest sends a command to the editor and decodes its result object.
func (s *Server) editorRequest(ctx context.Context, command string, params any, timeout time.Duration) (map[string]any, *sdk.Error) {
	if s.opts.Editor == nil {
		return nil, &sdk.Error{Code: sdk.CodeBridgeDisconnected, Toolset: gate.Core, Required: "bridge_connected",
			Message: "the editor bridge is off in this host, so " + command + " cannot reach a Godot editor",
			Hint:    "start godot-mcp serve without --bridge off (the default listens at " + bridge.DefaultURL + ") and open the project in the Godot editor with the godot-mcp addon"}
	}
	raw, err := s.opts.Editor.Request(ctx, command, params, timeout)
	if err != nil {
		return nil, asError(err, gate.Core)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil || out == nil {
		return nil, &sdk.Error{Code: sdk.CodeInternalError, Toolset: gate.Core,
			Message: fmt.Sprintf("the Godot editor's answer to %s is not a JSON object", command),
			Hint:    "update the godot-mcp addon; the host log has the frame"}
	}
	return out, nil
}

// editorInfo is the "editor" entry of godot_get_server_info; a caller
// without the full view does not see the editor's project path or address.
func (s *Server) editorInfo(view diagView) any {
	if s.opts.Editor == nil {
		return map[string]any{"enabled": false, "hint": "the editor bridge is off (--bridge off)"}
	}
	st := s.opts.Editor.Status()
	if !view.full {
		st.ProjectPath, st.Remote, st.LastError = "", "", view.scrub(st.LastError)
	}
	return st
}

// editorChecks are godot_health_check's lines about the editor link.
func (s *Server) editorChecks(view diagView) []check {
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
			orStr(view.scrub(st.ProjectPath), "(unknown)"), orStr(st.GodotVersion, "(unknown)"), orStr(st.AddonVersion, "(unknown)"))})
	default:
		out = append(out, check{Name: "editor_bridge", Status: "ok", Detail: "listening at " + st.URL + "; no editor attached (headless mode)"})
	}
	if len(st.Drift) > 0 {
		out = append(out, check{Name: "editor_addon", Status: "warn", Detail: fmt.Sprintf(
			"the addon (version %s) lacks commands this host needed: %v; update the godot-mcp addon in the project", orStr(st.AddonVersion, "unknown"), st.Drift)})
	}
	return out
}
