package server

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host/supervisor"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
)

// pluginHandler runs a plugin tool. By the time it runs the middleware has
// checked exposure and the gate. It validates the arguments against the
// augmented schema, then enforces the safety class, which the host does so a
// plugin cannot skip it: a destructive tool without confirm=true never
// reaches the plugin, and dry_run travels as CallRequest.DryRun instead of as
// an argument.
func (s *Server) pluginHandler(e *toolEntry) mcp.ToolHandler {
	class := e.ref.Class
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		in, err := e.arguments(req.Params.Arguments)
		if err != nil {
			return invalidArguments(e, err).Result(), nil
		}
		confirm, _ := in[ArgConfirm].(bool)
		dryRun, _ := in[ArgDryRun].(bool)
		delete(in, ArgConfirm)
		delete(in, ArgDryRun)
		if class == manifest.Destructive && !confirm {
			// A dry run needs confirm too: the host cannot check that a plugin
			// honours dry_run, and a plugin that ignores it would otherwise
			// delete data without anyone having confirmed.
			return s.refuse(s.caller(req), e, &ToolError{
				Code:     CodePreconditionFailed,
				Required: RequiredConfirm,
				Toolset:  e.ref.Toolset,
				Message:  fmt.Sprintf("%s deletes or overwrites data and was called without confirm=true; nothing ran", e.ref.Name),
				Hint:     `call it again with "confirm": true once the user has agreed (add "dry_run": true to preview first)`,
			}), nil
		}
		if s.opts.Plugins == nil {
			return toolError(&supervisor.Error{Code: supervisor.CodeNotRunning, Toolset: e.ref.Toolset,
				Message: "this host runs no plugins", Hint: "start godot-mcp with a plugins directory"}, e.ref.Toolset).Result(), nil
		}
		args, err := json.Marshal(in)
		if err != nil {
			return toolError(err, e.ref.Toolset).Result(), nil
		}
		creq := supervisor.CallRequest{
			Tool:   e.bare,
			Args:   args,
			DryRun: dryRun && (class == manifest.Mutating || class == manifest.Destructive),
			CallID: fmt.Sprintf("c%d", s.callSeq.Add(1)),
		}
		var onProgress func(*pb.Progress)
		if token := req.Params.GetProgressToken(); token != nil {
			onProgress = func(p *pb.Progress) {
				err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: token,
					Progress:      p.GetProgress(),
					Total:         p.GetTotal(),
					Message:       p.GetMessage(),
				})
				if err != nil {
					s.log.Debug("progress notification not delivered", "tool", e.ref.Name, "call", creq.CallID, "error", err)
				}
			}
		}
		res, err := s.opts.Plugins.Call(ctx, e.ref.Toolset, creq, onProgress)
		if err != nil {
			return toolError(err, e.ref.Toolset).Result(), nil
		}
		return fromProto(res, e.ref.Toolset), nil
	}
}
