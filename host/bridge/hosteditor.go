package bridge

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/godot-mcp/godot-mcp/sdk"
	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
)

// HostEditor serves the plugins' HostEditor calls (Call.Editor in the SDK)
// through the bridge: a toolset's command goes to the attached editor with
// the default timeout, and the addon's result or structured failure comes
// back unchanged. Plugins never open an editor link of their own.
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
	res, err := h.b.Request(ctx, req.GetCommand(), params, 0)
	if err == nil {
		return &pb.EditorResponse{Ok: true, ResultJson: res}, nil
	}
	var e *sdk.Error
	if !errors.As(err, &e) {
		// The plugin's own context ended; it learns that from its context.
		e = &sdk.Error{Code: sdk.CodeCancelled, Message: err.Error(), Hint: "the call was cancelled"}
	}
	return &pb.EditorResponse{Error: &pb.ToolError{Code: e.Code, Message: e.Message, Hint: e.Hint, Required: e.Required}}, nil
}
