package server

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host/events"
	"github.com/godot-mcp/godot-mcp/host/exposure"
	"github.com/godot-mcp/godot-mcp/host/supervisor"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// answer is a tools/call's result and, for a failure the host or the
// plugin described, that *sdk.Error, so the metrics read its code without
// parsing it back out of the text.
type answer struct {
	res *mcp.CallToolResult
	err *sdk.Error
}

// answer runs the one path of a tools/call, from request to result, for
// every tool the host serves; the go-sdk's own dispatch is never reached:
//
//  1. look the tool up in the registry (unknown: a JSON-RPC error, as the
//     go-sdk would answer);
//  2. the policy (TOOL_NOT_EXPOSED naming the layer);
//  3. the gate (TOOLSET_DISABLED with the exact enable call);
//  4. the arguments, once (INVALID_ARGUMENT in words);
//  5. the operations the call carries out for other tools (a run_commands
//     list, a batch edit's equivalent tool), each checked as a direct call
//     of that tool by this caller (dispatch.go);
//  6. core tools run here; plugin tools pass the safety check (confirm for
//     a destructive tool's real run) and go to the plugin.
//
// Every refusal is an isError result (errorResult), never a protocol
// error, so every client shows it to the agent.
//
// It returns the result and, for a failure the host or the plugin
// described, that *sdk.Error.
func (s *Server) answer(ctx context.Context, req *mcp.CallToolRequest) (answer, error) {
	if req.Params == nil {
		return answer{}, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "tools/call without params"}
	}
	e, known := s.reg.lookup(req.Params.Name)
	if !known {
		return answer{}, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown tool %q", req.Params.Name)}
	}
	caller := s.caller(req)
	if err := s.policy.Authorize(caller, e.ref); err != nil {
		return answer{s.refuse(caller, e, err), err}, nil
	}
	if !s.gate.Enabled(e.ref.Toolset) {
		se := s.gate.DisabledError(e.ref.Toolset, e.ref.Name)
		return answer{s.refuse(caller, e, se), se}, nil
	}
	a, aerr := e.arguments(req.Params.Arguments)
	if aerr != nil {
		return answer{errorResult(aerr, e.output), aerr}, nil
	}
	if r := s.checkInner(caller, e, &a); r != nil {
		return answer{s.refuseInner(caller, e, r), r.err}, nil
	}
	if e.core != nil {
		return answer{res: e.core(ctx, req, a.in)}, nil
	}
	return s.callPlugin(ctx, req, caller, e, a), nil
}

// callPlugin enforces the safety class, which the host does so a plugin
// cannot skip it, and runs the tool in its plugin. A destructive tool's
// real run needs confirm=true; its dry run does not, because a preview
// changes nothing (every mutating and destructive tool must honour
// dry_run, see sdk.Call.DryRun). dry_run travels as CallRequest.DryRun,
// never as an argument.
func (s *Server) callPlugin(ctx context.Context, req *mcp.CallToolRequest, caller exposure.Caller, e *toolEntry, a callArgs) answer {
	class := e.ref.Class
	mutates := class == manifest.Mutating || class == manifest.Destructive
	if class == manifest.Destructive && !a.confirm && !a.dryRun {
		se := &sdk.Error{
			Code:     sdk.CodePreconditionFailed,
			Required: sdk.RequiredConfirm,
			Toolset:  e.ref.Toolset,
			Message:  fmt.Sprintf("%s deletes or overwrites data and was called without confirm=true; nothing ran", e.ref.Name),
			Hint:     `call it again with "confirm": true once the user has agreed, or with "dry_run": true to preview what it would change`,
		}
		return answer{s.refuse(caller, e, se), se}
	}
	if arg := e.confirmOverwrite; arg != "" && class == manifest.Mutating && !a.confirm && !a.dryRun {
		if se := sdk.OverwriteRefusal(s.opts.ProjectDir, e.ref.Name, arg, a.in); se != nil {
			se.Toolset = e.ref.Toolset
			return answer{s.refuse(caller, e, se), se}
		}
	}
	if s.plugins == nil {
		se := &sdk.Error{Code: sdk.CodePluginNotRunning, Toolset: e.ref.Toolset,
			Message: "this host runs no plugins", Hint: "start godot-mcp with a plugins directory"}
		return answer{errorResult(se, e.output), se}
	}
	creq := supervisor.CallRequest{
		Tool:   e.bare,
		Args:   a.raw,
		DryRun: a.dryRun && mutates,
		CallID: fmt.Sprintf("c%d", s.callSeq.Add(1)),

		EditorAttached: s.editorAttached(),
	}
	var onProgress func(supervisor.Progress)
	if token := req.Params.GetProgressToken(); token != nil {
		onProgress = func(p supervisor.Progress) {
			err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
				ProgressToken: token,
				Progress:      p.Done,
				Total:         p.Total,
				Message:       p.Message,
			})
			if err != nil {
				s.log.Debug("progress notification not delivered", "tool", e.ref.Name, "call", creq.CallID, "error", err)
			}
		}
	}
	res, err := s.plugins.Call(ctx, e.ref.Toolset, creq, onProgress)
	out, se := toMCP(res, err, e.ref.Toolset, e.output)
	return answer{out, se}
}

// refuse answers a call the host will not run, and records why.
func (s *Server) refuse(caller exposure.Caller, e *toolEntry, se *sdk.Error) *mcp.CallToolResult {
	return s.refuseWith(caller, e, se, fmt.Sprintf("call to %s refused: %s", e.ref.Name, se.Code), nil)
}

// refuseInner answers a call refused for one of the operations it would
// carry out for another tool. The event names that operation, the tool it
// is and the rule, so an operator sees which command a list was refused
// for.
func (s *Server) refuseInner(caller exposure.Caller, e *toolEntry, r *refusal) *mcp.CallToolResult {
	msg := fmt.Sprintf("call to %s refused: %s of %s (%s rule)", e.ref.Name, r.err.Code, r.tool, r.rule)
	if r.index >= 0 {
		msg = fmt.Sprintf("call to %s refused: %s[%d] %q (%s) failed the %s rule: %s", e.ref.Name, e.dispatchArg, r.index, r.name, r.tool, r.rule, r.err.Code)
	}
	return s.refuseWith(caller, e, r.err, msg, map[string]any{
		"inner_index": r.index, "inner_command": r.name, "inner_tool": r.tool, "rule": r.rule})
}

func (s *Server) refuseWith(caller exposure.Caller, e *toolEntry, se *sdk.Error, msg string, extra map[string]any) *mcp.CallToolResult {
	if se.Toolset == "" {
		se.Toolset = e.ref.Toolset
	}
	if s.bus != nil {
		fields := map[string]any{"tool": e.ref.Name, "code": se.Code, "required": se.Required,
			"principal": caller.Principal, "transport": caller.Transport}
		for k, v := range extra {
			fields[k] = v
		}
		s.bus.Emit(events.Event{
			Kind:    events.CallRefused,
			Level:   events.Info,
			Toolset: e.ref.Toolset,
			Message: msg,
			Fields:  fields,
		})
	}
	return errorResult(se, e.output)
}
