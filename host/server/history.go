package server

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host/gate"
	"github.com/godot-mcp/godot-mcp/host/workspace"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// historyTools are the core tools that walk the undo history. Headless
// (no editor attached) they walk the host's workspace journal; their
// params and results are the addon's cmd_undo, cmd_redo and
// cmd_list_history (ADDON-PROTOCOL.md), so agents see one shape in both
// modes.
var historyTools = map[string]struct {
	description string
	schema      string
}{
	"godot_undo": {
		"Undo the last change(s) made to the project: one step per tool call that changed files, however many files it touched. Restores the exact previous bytes; refuses with CONFLICT, undoing nothing, if a file changed on disk since. dry_run=true names what would be undone.",
		`{"type":"object","properties":{"count":{"type":"integer","minimum":1,"default":1,"description":"How many steps to undo."},"dry_run":{"type":"boolean","default":false,"description":"Report what would be undone; change nothing."}},"additionalProperties":false}`,
	},
	"godot_redo": {
		"Redo changes undone with godot_undo, newest undo first. Refuses with CONFLICT if a file changed on disk since the undo. dry_run=true names what would be redone.",
		`{"type":"object","properties":{"count":{"type":"integer","minimum":1,"default":1,"description":"How many steps to redo."},"dry_run":{"type":"boolean","default":false,"description":"Report what would be redone; change nothing."}},"additionalProperties":false}`,
	},
	"godot_list_history": {
		"List the undo history: whether undo and redo are possible, the action undo would revert next, and up to 20 recent actions (oldest first) with the files each touched.",
		`{"type":"object","properties":{},"additionalProperties":false}`,
	},
}

// nonIdempotent core tools: calling them twice does twice the work.
var nonIdempotent = map[string]bool{"godot_undo": true, "godot_redo": true}

type walkArgs struct {
	Count  *int `json:"count,omitempty"`
	DryRun bool `json:"dry_run,omitempty"`
}

func (a walkArgs) count() int {
	if a.Count == nil {
		return 1
	}
	return *a.Count
}

func (s *Server) undo(ctx context.Context, _ *mcp.CallToolRequest, in walkArgs) *mcp.CallToolResult {
	ws := s.workspace()
	res, err := ws.Undo(ctx, in.count(), in.DryRun)
	if err != nil {
		return sdkError(err).Result()
	}
	return jsonResult("", res)
}

func (s *Server) redo(ctx context.Context, _ *mcp.CallToolRequest, in walkArgs) *mcp.CallToolResult {
	res, err := s.workspace().Redo(ctx, in.count(), in.DryRun)
	if err != nil {
		return sdkError(err).Result()
	}
	return jsonResult("", res)
}

func (s *Server) listHistory(ctx context.Context, _ *mcp.CallToolRequest, _ noArgs) *mcp.CallToolResult {
	res, err := s.workspace().History(ctx)
	if err != nil {
		return sdkError(err).Result()
	}
	return jsonResult("", res)
}

// workspace returns the configured journal, or one without a project
// (which answers PRECONDITION_FAILED required=project_dir).
func (s *Server) workspace() *workspace.Host {
	if s.opts.Workspace != nil {
		return s.opts.Workspace
	}
	ws, _ := workspace.New("", workspace.Options{})
	return ws
}

// sdkError renders an *sdk.Error of the workspace as the host's error.
func sdkError(err error) *ToolError {
	var e *sdk.Error
	if errors.As(err, &e) {
		return &ToolError{Code: e.Code, Message: e.Message, Hint: e.Hint, Required: e.Required, Toolset: gate.Core}
	}
	return toolError(err, gate.Core)
}
