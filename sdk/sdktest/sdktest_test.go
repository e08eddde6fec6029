package sdktest_test

import (
	"context"
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
