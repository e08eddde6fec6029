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

type aliasedArgs struct {
	Type  string `json:"node_type" alias:"type" jsonschema:"class of the nodes to find"`
	Scene string `json:"scene,omitempty" alias:"scene_path" jsonschema:"scene to search"`
}

func aliasToolset() *sdk.Toolset {
	find := func(ctx context.Context, call *sdk.Call, in aliasedArgs) (sdk.Result, error) {
		return sdk.JSON(map[string]any{"node_type": in.Type, "scene": in.Scene}), nil
	}
	return &sdk.Toolset{Name: "alias", Version: "1.0.0", Description: "Argument aliases.",
		Tools: []sdk.Tool{sdk.NewTool("find", "Find nodes.", sdk.ReadOnly, find)}}
}

// An alias is in the schema beside its main argument, a required main
// argument may be given in either spelling, and two different values are
// refused instead of one silently winning.
func TestArgumentAliases(t *testing.T) {
	s, err := sdk.SchemaFor[aliasedArgs]()
	if err != nil {
		t.Fatal(err)
	}
	if s.Properties["type"] == nil || s.Properties["scene_path"] == nil || s.Properties["type"].Type != "string" {
		t.Fatalf("aliases missing from the schema: %v", s.Properties)
	}
	if slices.Contains(s.Required, "node_type") || !strings.Contains(s.Properties["type"].Description, "prefer node_type") {
		t.Errorf("required %v, alias description %q", s.Required, s.Properties["type"].Description)
	}

	h := sdktest.New(t, aliasToolset(), sdktest.Options{})
	ctx := context.Background()
	for _, c := range []struct {
		args     string
		want     map[string]any
		wantCode string
	}{
		{`{"node_type":"Sprite2D"}`, map[string]any{"node_type": "Sprite2D", "scene": ""}, ""},
		{`{"type":"Sprite2D","scene_path":"res://a.tscn"}`, map[string]any{"node_type": "Sprite2D", "scene": "res://a.tscn"}, ""},
		{`{"type":"Sprite2D","node_type":"Sprite2D"}`, map[string]any{"node_type": "Sprite2D", "scene": ""}, ""},
		{`{"type":"Label","node_type":"Sprite2D"}`, nil, sdk.CodeInvalidArgument},
		{`{"scene":"res://a.tscn"}`, nil, sdk.CodeInvalidArgument},
	} {
		r := h.Call(ctx, "find", json.RawMessage(c.args))
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		if c.wantCode != "" {
			if r.ErrorCode != c.wantCode || !strings.Contains(r.Text(), "node_type") {
				t.Errorf("%s: got %s %q, want %s naming node_type", c.args, r.ErrorCode, r.Text(), c.wantCode)
			}
			continue
		}
		var got map[string]any
		if err := r.Structured(&got); err != nil {
			t.Fatalf("%s: %v", c.args, err)
		}
		if got["node_type"] != c.want["node_type"] || got["scene"] != c.want["scene"] {
			t.Errorf("%s: got %v, want %v", c.args, got, c.want)
		}
	}
}

// An alias that collides with another argument is a definition error.
func TestArgumentAliasCollision(t *testing.T) {
	type bad struct {
		A string `json:"a" alias:"b" jsonschema:"a"`
		B string `json:"b,omitempty" jsonschema:"b"`
	}
	if _, err := sdk.SchemaFor[bad](); err == nil || !strings.Contains(err.Error(), `alias "b"`) {
		t.Errorf("got %v", err)
	}
}
