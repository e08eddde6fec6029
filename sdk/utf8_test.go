package sdk_test

import (
	"context"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// A handler's strings are not always valid UTF-8 (a user's file name in
// another encoding), and protobuf refuses to marshal such strings. The
// result still arrives, with U+FFFD for the bad bytes, instead of failing
// as an RPC error that blames the toolset.
func TestInvalidUTF8ReachesTheCaller(t *testing.T) {
	type in struct {
		Fail bool `json:"fail,omitempty" jsonschema:"fail"`
	}
	h := sdktest.New(t, toolset(func(_ context.Context, _ *sdk.Call, a in) (sdk.Result, error) {
		if a.Fail {
			return sdk.Result{}, &sdk.Error{Code: sdk.CodeNotFound, Message: "no file caf\xe9.gd", Hint: "list caf\xe9/ first"}
		}
		return sdk.Text("found caf\xe9.gd"), nil
	}), sdktest.Options{})
	res := h.Call(context.Background(), "t", map[string]any{})
	if res.Err != nil || res.IsError || res.Text() != "found caf\uFFFD.gd" {
		t.Errorf("text result: err %v, isError %v, text %q", res.Err, res.IsError, res.Text())
	}
	res = h.Call(context.Background(), "t", map[string]any{"fail": true})
	if res.Err != nil || !res.IsError || res.Error == nil || res.Error.Message != "no file caf\uFFFD.gd" ||
		!strings.HasPrefix(res.Text(), "NOT_FOUND: no file caf\uFFFD.gd\nHint: list caf\uFFFD/ first") {
		t.Errorf("error result: err %v, error %+v, text %q", res.Err, res.Error, res.Text())
	}
}
