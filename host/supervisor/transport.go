package supervisor

import (
	"context"
	"errors"
	"io"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
	"github.com/godot-mcp/godot-mcp/sdk/wire/callpipe"
)

// transport carries one tool call to a plugin and its progress and result
// back: the call pipe (callpipe.Client) when the plugin serves it, else the
// Toolset service's gRPC stream (grpcTransport). Both fail the same typed
// way, so callError reads a failure without knowing the transport:
//
//   - *callpipe.TooLargeError: the result is over maxResult bytes;
//   - callpipe.ErrClosed: the connection to the process is gone;
//   - a gRPC status: the plugin (or its connection) answered with one.
type transport interface {
	Call(ctx context.Context, req *pb.CallRequest, maxResult int, onProgress func(*pb.Progress)) (*pb.CallResult, error)
}

var (
	_ transport = (*callpipe.Client)(nil)
	_ transport = grpcTransport{}
)

// grpcTransport is the Toolset service's Call stream, for plugins that do
// not serve the call pipe (other languages, older SDKs).
type grpcTransport struct{ rpc pb.ToolsetClient }

func (g grpcTransport) Call(ctx context.Context, req *pb.CallRequest, maxResult int, onProgress func(*pb.Progress)) (*pb.CallResult, error) {
	// The receive limit is checked against each message's length prefix,
	// before the message is read: an oversized result costs the host the
	// transport's flow-control window, not its size.
	stream, err := g.rpc.Call(ctx, req, grpc.MaxCallRecvMsgSize(maxResult))
	if err != nil {
		return nil, grpcFailure(err, maxResult)
	}
	var result *pb.CallResult
	for {
		ev, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return result, nil
		}
		if err != nil {
			return nil, grpcFailure(err, maxResult)
		}
		switch e := ev.GetEvent().(type) {
		case *pb.CallEvent_Progress:
			if onProgress != nil && result == nil {
				onProgress(e.Progress)
			}
		case *pb.CallEvent_Result:
			if result == nil {
				result = e.Result
			}
		}
	}
}

// grpcFailure types what gRPC reports of an oversized message. gRPC says it
// only in words (ResourceExhausted, "received message larger than max"), so
// the words are read here, once, where the library is the only source.
func grpcFailure(err error, limit int) error {
	if st := status.Convert(err); st.Code() == codes.ResourceExhausted && strings.Contains(st.Message(), "larger than max") {
		return &callpipe.TooLargeError{Limit: limit, Detail: st.Message()}
	}
	return err
}
