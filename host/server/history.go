package server

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host/gate"
	"github.com/godot-mcp/godot-mcp/host/workspace"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// historyDefs are the core tools that walk the undo history. Their params
// and results are the addon's cmd_undo, cmd_redo and cmd_list_history
// (ADDON-PROTOCOL.md), so agents see one shape in both modes: with an
// editor attached they forward to it (its UndoRedo, what Ctrl+Z walks);
// headless they walk the host's workspace journal.
var historyDefs = []coreDef{
	coreTool("godot_undo", manifest.Mutating,
		"Undo the last change(s) made to the project: one step per tool call that changed files, however many files it touched. Restores the exact previous bytes; refuses with CONFLICT, undoing nothing, if a file changed on disk since. dry_run=true names what would be undone. With a Godot editor attached, this is the editor's own undo (Ctrl+Z).",
		(*Server).undo),
	coreTool("godot_redo", manifest.Mutating,
		"Redo changes undone with godot_undo, newest undo first. Refuses with CONFLICT if a file changed on disk since the undo. dry_run=true names what would be redone.",
		(*Server).redo),
	coreTool("godot_list_history", manifest.ReadOnly,
		"List the undo history: whether undo and redo are possible, the action undo would revert next, and up to 20 recent actions (oldest first) with the files each touched.",
		(*Server).listHistory),
}

// nonIdempotent core tools: calling them twice does twice the work.
var nonIdempotent = map[string]bool{"godot_undo": true, "godot_redo": true, "godot_debug_workflow": true}

type walkArgs struct {
	Count  int  `json:"count,omitempty" default:"1" minimum:"1" maximum:"100" jsonschema:"How many steps to walk."`
	DryRun bool `json:"dry_run,omitempty" jsonschema:"Report what would change; change nothing."`
}

func (s *Server) undo(ctx context.Context, _ *mcp.CallToolRequest, in walkArgs) *mcp.CallToolResult {
	in.Count = max(in.Count, 1)
	if s.editorAttached() {
		return editorResult(s.editorStep(ctx, "cmd_undo", "undone", "nothing_to_undo", in))
	}
	res, err := s.workspace().Undo(ctx, in.Count, in.DryRun)
	if err != nil {
		return errorResult(asError(err, gate.Core), false)
	}
	return jsonResult("", res)
}

func (s *Server) redo(ctx context.Context, _ *mcp.CallToolRequest, in walkArgs) *mcp.CallToolResult {
	in.Count = max(in.Count, 1)
	if s.editorAttached() {
		return editorResult(s.editorStep(ctx, "cmd_redo", "redone", "nothing_to_redo", in))
	}
	res, err := s.workspace().Redo(ctx, in.Count, in.DryRun)
	if err != nil {
		return errorResult(asError(err, gate.Core), false)
	}
	return jsonResult("", res)
}

func (s *Server) listHistory(ctx context.Context, _ *mcp.CallToolRequest, _ noArgs) *mcp.CallToolResult {
	if s.editorAttached() {
		return editorResult(s.editorHistory(ctx))
	}
	res, err := s.workspace().History(ctx)
	if err != nil {
		return errorResult(asError(err, gate.Core), false)
	}
	return jsonResult("", res)
}

// editorResult renders the editor's answer to a history tool.
func editorResult(out map[string]any, summary string, err *sdk.Error) *mcp.CallToolResult {
	if err != nil {
		return errorResult(err, false)
	}
	return jsonResult(summary, out)
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
