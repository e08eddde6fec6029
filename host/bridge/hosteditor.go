package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
)

// HostEditor serves the plugins' HostEditor calls (Call.Editor in the SDK)
// through the bridge: a toolset's command goes to the attached editor with
// the default timeout, and the addon's result comes back unchanged and its
// failure as Request maps it (sdk/addonerr). Plugins never open an editor
// link of their own.
func (b *Bridge) HostEditor() pb.HostEditorServer { return hostEditor{b: b} }

type hostEditor struct {
	pb.UnimplementedHostEditorServer
	b *Bridge
}

func (h hostEditor) Command(ctx context.Context, req *pb.EditorRequest) (*pb.EditorResponse, error) {
	params := json.RawMessage(req.GetParamsJson())
	if len(params) == 0 {
		params = nil
	}
	// A plugin bounds its wait with its context's deadline, which gRPC
	// carries here: make that the request's timeout, so it ends as TIMEOUT.
	var timeout time.Duration
	if dl, ok := ctx.Deadline(); ok {
		timeout = max(time.Until(dl), time.Millisecond)
	}
	res, err := h.b.Request(ctx, req.GetCommand(), params, timeout)
	if err == nil {
		return &pb.EditorResponse{Ok: true, ResultJson: res}, nil
	}
	var e *sdk.Error
	switch {
	case errors.As(err, &e):
	case errors.Is(err, context.DeadlineExceeded):
		e = h.b.timedOut(req.GetCommand(), timeout)
	default:
		// The plugin's call was cancelled; it learns that from its context.
		e = &sdk.Error{Code: sdk.CodeCancelled, Message: err.Error(), Hint: "the call was cancelled; retry it if it is still needed"}
	}
	return &pb.EditorResponse{Error: e.Wire()}, nil
}
