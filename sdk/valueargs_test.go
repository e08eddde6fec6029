package sdk_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

type setArgs struct {
	Property string `json:"property" jsonschema:"the property"`
	Value    any    `json:"value" jsonschema:"the new value" godot:"value"`
}

func valueToolset() *sdk.Toolset {
	set := func(ctx context.Context, call *sdk.Call, in setArgs) (sdk.Result, error) {
		return sdk.JSON(map[string]any{"got": in.Value}), nil
	}
	return &sdk.Toolset{Name: "values", Version: "1.0.0", Description: "Value arguments.",
		Tools: []sdk.Tool{sdk.NewTool("set", "Set a value.", sdk.Mutating, set)}}
}

// A value argument is one plain type to clients (a string, with a
// description of what else is accepted), the manifest names it, and
// calls with any JSON value there reach the handler unchanged.
func TestValueArguments(t *testing.T) {
	m, err := valueToolset().Manifest()
	if err != nil {
		t.Fatal(err)
	}
	spec := m.Tools[0]
	if !slices.Equal(spec.ValueArgs, []string{"value"}) {
		t.Fatalf("value_args %v, want [value]", spec.ValueArgs)
	}
	var s struct {
		Properties map[string]struct {
			Type        any    `json:"type"`
			Description string `json:"description"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(spec.InputSchema, &s); err != nil {
		t.Fatal(err)
	}
	if v := s.Properties["value"]; v.Type != "string" || !strings.HasPrefix(v.Description, "the new value") || !strings.Contains(v.Description, "Any JSON value is accepted") {
		t.Fatalf("value's schema: %+v, want type string and the author's description with the note", v)
	}

	h := sdktest.New(t, valueToolset(), sdktest.Options{})
	for _, v := range []string{`5`, `true`, `[16, 32]`, `{"type": "BoxMesh"}`, `null`, `"Vector2(1, 2)"`} {
		r := h.Call(context.Background(), "set", json.RawMessage(`{"property": "p", "value": `+v+`}`))
		if r.Err != nil || r.IsError {
			t.Errorf("value %s refused: %v %s", v, r.Err, r.Text())
			continue
		}
		var out struct{ Got json.RawMessage }
		if err := r.Structured(&out); err != nil {
			t.Fatal(err)
		}
		if compact([]byte(v)) != compact(out.Got) {
			t.Errorf("value %s reached the handler as %s", v, out.Got)
		}
	}
	if r := h.Call(context.Background(), "set", json.RawMessage(`{"property": 5, "value": 1}`)); r.ErrorCode != sdk.CodeInvalidArgument {
		t.Errorf("a number for the string argument property: %s, want INVALID_ARGUMENT", r.Text())
	}
}

func compact(raw json.RawMessage) string {
	var v any
	_ = json.Unmarshal(raw, &v)
	b, _ := json.Marshal(v)
	return string(b)
}

// The tag belongs on a field of type any: on another type it is an
// error the author reads when the toolset is built.
func TestValueTagNeedsAny(t *testing.T) {
	type bad struct {
		Value string `json:"value" jsonschema:"v" godot:"value"`
	}
	tool := sdk.NewTool("bad", "Bad.", sdk.Mutating, func(ctx context.Context, call *sdk.Call, in bad) (sdk.Result, error) {
		return sdk.Result{}, nil
	})
	ts := &sdk.Toolset{Name: "bad", Version: "1.0.0", Description: "Bad.", Tools: []sdk.Tool{tool}}
	if _, err := ts.Manifest(); err == nil || !strings.Contains(err.Error(), `godot:"value" needs type any`) {
		t.Fatalf("a value tag on a string field: %v", err)
	}
}

type stepArgs struct {
	Steps []struct {
		Property string `json:"property" jsonschema:"the property"`
		Expected any    `json:"expected,omitempty" jsonschema:"the value" godot:"value"`
	} `json:"steps" jsonschema:"the steps"`
}

// A value field in the objects of a list argument is named by its path,
// typed a string in the items' schema, and takes any JSON value.
func TestValueArgumentsInLists(t *testing.T) {
	check := func(ctx context.Context, call *sdk.Call, in stepArgs) (sdk.Result, error) {
		return sdk.JSON(map[string]any{"got": in.Steps[0].Expected}), nil
	}
	ts := &sdk.Toolset{Name: "steps", Version: "1.0.0", Description: "Steps.",
		Tools: []sdk.Tool{sdk.NewTool("check", "Check steps.", sdk.ReadOnly, check)}}
	m, err := ts.Manifest()
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Tools[0].ValueArgs; !slices.Equal(got, []string{"steps[].expected"}) {
		t.Fatalf("value_args %v", got)
	}
	if !strings.Contains(string(m.Tools[0].InputSchema), `"expected":{"description":"the value. Any JSON value is accepted`) ||
		!strings.Contains(string(m.Tools[0].InputSchema), `"type":"string"`) {
		t.Fatalf("schema: %s", m.Tools[0].InputSchema)
	}
	h := sdktest.New(t, ts, sdktest.Options{})
	for _, v := range []string{`[1, 2]`, `3`, `"text"`} {
		r := h.Call(context.Background(), "check", json.RawMessage(`{"steps": [{"property": "p", "expected": `+v+`}]}`))
		if r.Err != nil || r.IsError {
			t.Errorf("expected %s refused: %v %s", v, r.Err, r.Text())
		}
	}
}

// The elements of a list can be values too: "colors[]".
func TestValueListElements(t *testing.T) {
	type gradArgs struct {
		Colors []any `json:"colors" jsonschema:"the colours" godot:"value"`
	}
	grad := func(ctx context.Context, call *sdk.Call, in gradArgs) (sdk.Result, error) {
		return sdk.JSON(map[string]any{"n": len(in.Colors)}), nil
	}
	ts := &sdk.Toolset{Name: "grad", Version: "1.0.0", Description: "Gradients.",
		Tools: []sdk.Tool{sdk.NewTool("set", "Set a gradient.", sdk.Mutating, grad)}}
	m, err := ts.Manifest()
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Tools[0].ValueArgs; !slices.Equal(got, []string{"colors[]"}) {
		t.Fatalf("value_args %v", got)
	}
	if !strings.Contains(string(m.Tools[0].InputSchema), `"items":{"description":"Any JSON value is accepted`) {
		t.Fatalf("schema: %s", m.Tools[0].InputSchema)
	}
	h := sdktest.New(t, ts, sdktest.Options{})
	r := h.Call(context.Background(), "set", json.RawMessage(`{"colors": ["#fff", [1, 0, 0, 1], {"r": 1, "g": 0, "b": 0}]}`))
	if r.Err != nil || r.IsError {
		t.Fatalf("mixed colours refused: %v %s", r.Err, r.Text())
	}
	if r := h.Call(context.Background(), "set", json.RawMessage(`{"colors": "#fff"}`)); r.ErrorCode != sdk.CodeInvalidArgument {
		t.Errorf("a string for the list: %s, want INVALID_ARGUMENT", r.Text())
	}
}
