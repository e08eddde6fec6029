package supervisor

import (
	"context"
	"fmt"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/editorcmd"
	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
	"github.com/godot-mcp/godot-mcp/sdk/workspace"
)

// editorGuard is the HostEditor service one toolset's plugin sees. The SDK
// already refuses to send a mutating editor command during a dry run; the
// host does not trust that (a plugin may be built on another SDK, or be
// hostile), and checks every editor command against the call it names: a
// command must belong to a call of that toolset in flight, and during a
// dry-run call only commands that change nothing pass (package editorcmd:
// queries, opening a tab, commands with their preview flag set).
type editorGuard struct {
	pb.UnimplementedHostEditorServer
	inner   pb.HostEditorServer
	toolset string
	calls   *workspace.Calls // the supervisor's calls in flight (Supervisor.inFlight)
}

func (g editorGuard) Command(ctx context.Context, req *pb.EditorRequest) (*pb.EditorResponse, error) {
	c, ok := g.calls.Lookup(req.GetCallId())
	if !ok || c.Toolset != g.toolset {
		return refuse(&sdk.Error{Code: sdk.CodePluginError, Toolset: g.toolset,
			Message: fmt.Sprintf("toolset %q sent editor command %s outside any of its calls (call id %s)", g.toolset, req.GetCommand(), sdk.QuoteInput(req.GetCallId())),
			Hint:    "a toolset reaches the editor only while the host runs one of its tool calls, naming its call id; update the toolset to a current SDK or report this to its author"}), nil
	}
	if c.DryRun {
		if err := editorcmd.AllowedInDryRun(req.GetCommand(), req.GetParamsJson()); err != nil {
			return refuse(&sdk.Error{Code: sdk.CodePluginError, Toolset: g.toolset,
				Message: fmt.Sprintf("toolset %q tried to change the editor during a dry run: %v; the host refused it and nothing changed", g.toolset, err),
				Hint:    "report this to the toolset's author: a dry run must only record the commands it would send (the SDK's Editor.Apply does)"}), nil
		}
	}
	return g.inner.Command(ctx, req)
}

func refuse(e *sdk.Error) *pb.EditorResponse {
	return &pb.EditorResponse{Ok: false, Error: e.Wire()}
}
