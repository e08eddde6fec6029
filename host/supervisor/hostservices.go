package supervisor

import (
	"context"

	"github.com/hashicorp/go-hclog"
	"google.golang.org/grpc"

	"github.com/godot-mcp/godot-mcp/sdk"
	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
	"github.com/godot-mcp/godot-mcp/sdk/wire"
)

// newHostServer builds the gRPC server the host offers one plugin over the
// go-plugin broker: HostLog, HostEditor and HostWorkspace. opts carries the broker's
// transport credentials (AutoMTLS); the message-size bounds are the same as on
// every other connection of the product, so a plugin cannot make the host
// allocate without limit through the broker either.
func newHostServer(log hclog.Logger, editor pb.HostEditorServer, ws pb.HostWorkspaceServer) func([]grpc.ServerOption) *grpc.Server {
	return func(opts []grpc.ServerOption) *grpc.Server {
		s := grpc.NewServer(append(opts, wire.GRPCServerOptions()...)...)
		registerHostServices(s, log, editor, ws)
		return s
	}
}

// registerHostServices registers the host services a plugin may call: on
// the broker's gRPC server, and on the call pipe for calls that came over
// it. The same implementations serve both.
func registerHostServices(r grpc.ServiceRegistrar, log hclog.Logger, editor pb.HostEditorServer, ws pb.HostWorkspaceServer) {
	pb.RegisterHostLogServer(r, &hostLog{log: log})
	pb.RegisterHostEditorServer(r, editor)
	if ws != nil {
		pb.RegisterHostWorkspaceServer(r, ws)
	}
}

// hostLog writes a plugin's structured log lines to the toolset's logger.
type hostLog struct {
	pb.UnimplementedHostLogServer
	log hclog.Logger
}

func (h *hostLog) Log(_ context.Context, req *pb.LogRequest) (*pb.LogResponse, error) {
	level := hclog.LevelFromString(req.GetLevel())
	if level == hclog.NoLevel {
		level = hclog.Info
	}
	fields := req.GetFields()
	args := make([]any, 0, len(fields)+1)
	for _, f := range fields {
		args = append(args, f)
	}
	if len(args)%2 == 1 {
		// A dangling key: keep it visible rather than let hclog mark the
		// whole line as malformed.
		args = append(args, "(missing value)")
	}
	h.log.Log(level, req.GetMessage(), args...)
	return &pb.LogResponse{}, nil
}

// disconnectedEditor answers every editor command while no Godot peer is
// attached (Options.Editor is nil).
type disconnectedEditor struct {
	pb.UnimplementedHostEditorServer
}

func (disconnectedEditor) Command(_ context.Context, req *pb.EditorRequest) (*pb.EditorResponse, error) {
	return &pb.EditorResponse{Ok: false, Error: (&sdk.Error{
		Code:     sdk.CodeBridgeDisconnected,
		Message:  "no Godot editor or headless project is attached to the host, so editor command " + req.GetCommand() + " cannot run",
		Hint:     "open the project in the Godot editor with the godot-mcp addon enabled, or start the host with --project DIR",
		Required: "godot_peer",
	}).Wire()}, nil
}
