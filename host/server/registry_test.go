package server

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// arguments does what the go-sdk's typed AddTool did before the host
// validated arguments itself: defaults filled in, the schema enforced, and
// failures worded as `validating "arguments": …`.
func TestArguments(t *testing.T) {
	raw, err := augmentSchema(json.RawMessage(`{"type":"object","properties":{
		"path":{"type":"string"},
		"depth":{"type":"integer","default":2}},
		"required":["path"],"additionalProperties":false}`), manifest.Destructive)
	if err != nil {
		t.Fatal(err)
	}
	input, err := resolveSchema(raw)
	if err != nil {
		t.Fatal(err)
	}
	e := &toolEntry{input: input}
	defaults := map[string]any{"depth": float64(2), ArgConfirm: false, ArgDryRun: false}
	tests := []struct {
		args string
		want map[string]any // nil: an error is expected
	}{
		{`{"path":"a"}`, map[string]any{"path": "a"}},
		{`{"path":"a","depth":5,"confirm":true}`, map[string]any{"path": "a", "depth": float64(5), ArgConfirm: true}},
		{``, nil},           // no arguments: path is missing
		{`null`, nil},       // the same
		{`{"path":7}`, nil}, // wrong type
		{`{"path":"a","x":1}`, nil},
		{`["a"]`, nil},    // not an object
		{`{"path":`, nil}, // not JSON
	}
	for _, tt := range tests {
		got, err := e.arguments(json.RawMessage(tt.args))
		if tt.want == nil {
			if err == nil || !strings.HasPrefix(err.Error(), `validating "arguments": `) {
				t.Errorf("%s: got %v, %v; want a validation error", tt.args, got, err)
			}
			continue
		}
		want := map[string]any{}
		for k, v := range defaults {
			want[k] = v
		}
		for k, v := range tt.want {
			want[k] = v
		}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %v, %v; want %v", tt.args, got, err, want)
		}
	}
}
