// Command bare is the smallest possible toolset plugin: a go-plugin gRPC
// server implementing only Describe, directly on the generated proto code,
// without the SDK. Benchmarks start it with a plain go-plugin client to
// measure what go-plugin itself costs, so the host's overhead can be told
// apart from it.
package main

import (
	"context"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
	"github.com/godot-mcp/godot-mcp/sdk/wire"
)

type bare struct {
	pb.UnimplementedToolsetServer
}

func (bare) Describe(context.Context, *pb.DescribeRequest) (*pb.Manifest, error) {
	return &pb.Manifest{Name: "bare", Version: "1.0.0", Description: "Benchmark baseline."}, nil
}

func main() {
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig:  wire.Handshake,
		VersionedPlugins: wire.PluginSets(bare{}),
		GRPCServer: func(opts []grpc.ServerOption) *grpc.Server {
			return grpc.NewServer(append(opts, wire.GRPCServerOptions()...)...)
		},
	})
}
