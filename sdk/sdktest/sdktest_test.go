package sdktest_test

import (
	"context"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

type greetArgs struct {
	Name string `json:"name" jsonschema:"who to greet"`
}

func greeter() *sdk.Toolset {
	return &sdk.Toolset{
		Name:        "greet",
		Version:     "1.0.0",
		Description: "Greets people.",
		Tools: []sdk.Tool{
			sdk.NewTool("hello", "Say hello.", sdk.ReadOnly, func(_ context.Context, call *sdk.Call, in greetArgs) (sdk.Result, error) {
				call.Logger().Info("greeting", "name", in.Name)
				return sdk.JSON(map[string]string{"greeting": "hello " + in.Name}), nil
			}),
		},
	}
}

func TestHost(t *testing.T) {
	h := sdktest.New(t, greeter(), sdktest.Options{})
	m, err := h.Manifest(context.Background())
	if err != nil || m.Name != "greet" || len(m.Tools) != 1 {
		t.Fatalf("manifest %+v, %v", m, err)
	}
	res := h.Call(context.Background(), "hello", greetArgs{Name: "Ada"})
	var out struct{ Greeting string }
	if err := res.Structured(&out); err != nil || out.Greeting != "hello Ada" {
		t.Fatalf("structured %+v, %v", out, err)
	}
	if res.Text() == "" {
		t.Error("no text rendering of the structured result")
	}
	if logs := h.Logs(); len(logs) != 1 || logs[0].Fields["name"] != "Ada" {
		t.Errorf("logs %v", logs)
	}
	if err := h.Call(context.Background(), "hello", nil).Structured(&out); err == nil {
		t.Error("Structured on a failed call: no error")
	}
}

func TestCloseEarly(t *testing.T) {
	h := sdktest.New(t, greeter(), sdktest.Options{})
	h.Close()
	h.Close() // idempotent
	if res := h.Call(context.Background(), "hello", greetArgs{Name: "x"}); res.Err == nil {
		t.Fatalf("call after Close: %+v", res)
	}
}

type nodeArgs struct {
	Name  string `json:"name" jsonschema:"node name"`
	Depth int    `json:"depth,omitempty" jsonschema:"depth"`
}

// editorToolset forwards to the editor, as a toolset does in editor mode.
func editorToolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name: "ed", Version: "1.0.0", Description: "Editor mode.",
		Tools: []sdk.Tool{
			sdk.NewEditorTool("create", "Create a node.", sdk.Mutating, func(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in nodeArgs) (sdk.Result, error) {
				return ed.Forward(ctx, "cmd_create_node", map[string]any{"node_type": "Node2D", "name": in.Name, "depth": in.Depth})
			}),
		},
	}
}

func TestScriptedEditor(t *testing.T) {
	ctx := context.Background()
	ed := sdktest.NewEditor().On("cmd_create_node", func(p map[string]any) (any, *sdk.Error) {
		if _, isFloat := p["depth"].(float64); !isFloat {
			t.Errorf("depth arrived as %T; the addon sees every number as a float", p["depth"])
		}
		if p["name"] == "Bad" {
			return nil, &sdk.Error{Code: "PRECONDITION_FAILED", Hint: "No scene is open.", Required: "active_scene"}
		}
		if p["name"] == "" {
			return nil, &sdk.Error{Code: "VALIDATION_ERROR", Hint: "Node name is empty.", Required: "name"}
		}
		if p["name"] == "Ghost" {
			return nil, &sdk.Error{Code: "RESOURCE_NOT_FOUND", Hint: "No node at 'Ghost'."}
		}
		return map[string]any{"node_path": p["name"], "created": true}, nil
	})
	h := sdktest.New(t, editorToolset(), sdktest.Options{Editor: ed.Serve})
	res := h.Call(ctx, "create", nodeArgs{Name: "Hero", Depth: 2})
	var out struct {
		NodePath string `json:"node_path"`
		Created  bool
	}
	if err := res.Structured(&out); err != nil || out.NodePath != "Hero" || !out.Created {
		t.Fatalf("result %+v %v %s", out, err, res.Text())
	}
	// The addon's refusals reach the toolset as behind the real host
	// (sdk/addonerr): its words in the message, the SDK's codes.
	res = h.Call(ctx, "create", nodeArgs{Name: "Bad"})
	if !res.IsError || res.Error.Code != "PRECONDITION_FAILED" || res.Error.Message != "the Godot editor refused cmd_create_node: No scene is open." ||
		res.Error.Required != "active_scene" || res.Error.Hint == "" {
		t.Fatalf("failure %+v", res.Error)
	}
	res = h.Call(ctx, "create", nodeArgs{Name: ""})
	if res.ErrorCode != sdk.CodeInvalidArgument || !strings.Contains(res.Error.Message, "Node name is empty.") || res.Error.Required != "name" {
		t.Fatalf("validation %+v", res.Error)
	}
	res = h.Call(ctx, "create", nodeArgs{Name: "Ghost"})
	if res.ErrorCode != sdk.CodeNotFound || !strings.Contains(res.Error.Message, "No node at 'Ghost'.") {
		t.Fatalf("not found %+v", res.Error)
	}
	calls := ed.Calls("cmd_create_node")
	if len(calls) != 4 || calls[0].Params["name"] != "Hero" || calls[0].Params["node_type"] != "Node2D" {
		t.Fatalf("calls %+v", calls)
	}

	// A command nobody scripted: the addon's "Unknown command", which the
	// host makes an addon-too-old precondition.
	h2 := sdktest.New(t, editorToolset(), sdktest.Options{Editor: sdktest.NewEditor().Serve})
	res = h2.Call(ctx, "create", nodeArgs{Name: "X"})
	if !res.IsError || res.Error.Code != sdk.CodePreconditionFailed || res.Error.Required != "addon_command" ||
		!strings.Contains(res.Error.Message, "Unknown command 'cmd_create_node'.") {
		t.Fatalf("unknown command %+v", res.Error)
	}
	// No editor at all: an editor-only tool says it needs one.
	h3 := sdktest.New(t, editorToolset(), sdktest.Options{})
	if res = h3.Call(ctx, "create", nodeArgs{Name: "X"}); res.ErrorCode != sdk.CodePreconditionFailed || res.Error.Required != "editor" {
		t.Fatalf("no editor: %+v", res.Error)
	}
}
