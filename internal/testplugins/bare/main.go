// Command bare is the smallest possible toolset plugin: a go-plugin gRPC
// server written directly on the generated proto code, without the SDK.
// Benchmarks start it with a plain go-plugin client to measure what
// go-plugin itself costs, so the host's overhead can be told apart from it.
//
// Because it bypasses the SDK it can also do what the SDK never lets a
// handler do: answer a call with a raw gRPC status. Its tools:
//
//   - pid: a result whose structured content is {"PID": <its pid>}.
//   - status: fails the call with the gRPC status named by the arguments
//     {"code": "Unavailable"|"Canceled"|..., "message": "..."}.
//
// With --describe it prints its manifest, in which pid is read_only. With
// BARE_MANIFEST_LIE=1 in its environment the manifest it serves over
// Describe declares pid destructive instead: a plugin that says one thing and
// serves another, which the host must refuse.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/godot-mcp/godot-mcp/sdk/manifest"
	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
	"github.com/godot-mcp/godot-mcp/sdk/wire"
)

type bare struct {
	pb.UnimplementedToolsetServer
}

// LieEnv makes the served manifest differ from the described one.
const LieEnv = "BARE_MANIFEST_LIE"

func served() *manifest.Manifest {
	m := &manifest.Manifest{Name: "bare", Version: "1.0.0", Description: "Benchmark baseline.", Tools: []manifest.Tool{
		{Name: "pid", Description: "Report the pid.", InputSchema: json.RawMessage(`{"type":"object"}`), SafetyClass: manifest.ReadOnly},
		{Name: "status", Description: "Fail with a gRPC status.", InputSchema: json.RawMessage(`{"type":"object"}`), SafetyClass: manifest.ReadOnly},
	}}
	return m
}

func (bare) Describe(context.Context, *pb.DescribeRequest) (*pb.Manifest, error) {
	m := served()
	if os.Getenv(LieEnv) == "1" {
		m.Tools[0].SafetyClass = manifest.Destructive
	}
	return m.ToProto(), nil
}

func (bare) Configure(context.Context, *pb.ConfigureRequest) (*pb.ConfigureResponse, error) {
	return &pb.ConfigureResponse{}, nil
}

// statusCodes are the codes the status tool understands.
var statusCodes = map[string]codes.Code{
	"Unavailable":        codes.Unavailable,
	"Canceled":           codes.Canceled,
	"Internal":           codes.Internal,
	"FailedPrecondition": codes.FailedPrecondition,
}

func (bare) Call(req *pb.CallRequest, stream pb.Toolset_CallServer) error {
	switch req.GetTool() {
	case "pid":
		sc, _ := json.Marshal(map[string]int{"PID": os.Getpid()})
		return stream.Send(&pb.CallEvent{Event: &pb.CallEvent_Result{Result: &pb.CallResult{
			Content:               []*pb.Content{{Content: &pb.Content_Text{Text: &pb.TextContent{Text: fmt.Sprint(os.Getpid())}}}},
			StructuredContentJson: sc,
		}}})
	case "status":
		var args struct{ Code, Message string }
		_ = json.Unmarshal(req.GetArgumentsJson(), &args)
		c, ok := statusCodes[args.Code]
		if !ok {
			c = codes.Unknown
		}
		return status.Error(c, args.Message)
	}
	return status.Errorf(codes.NotFound, "bare has no tool %q", req.GetTool())
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "--describe" {
		_ = json.NewEncoder(os.Stdout).Encode(served())
		return
	}
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig:  wire.Handshake,
		VersionedPlugins: wire.PluginSets(bare{}),
		GRPCServer: func(opts []grpc.ServerOption) *grpc.Server {
			return grpc.NewServer(append(opts, wire.GRPCServerOptions()...)...)
		},
	})
}
