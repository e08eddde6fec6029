package sdk_test

import (
	"context"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
)

type badArgs struct {
	Path     string            `json:"path" jsonschema:"the scene path"`
	MaxDepth int               `jsonschema:"how deep to go"`
	Filter   func(string) bool `json:"filter" jsonschema:"a filter"`
	Nested   struct {
		Weight complex128 `json:"weight" jsonschema:"a weight"`
		Label  string     `json:"label"`
	} `json:"nested" jsonschema:"nested options"`
	ByPoint map[struct{ X, Y int }]string `json:"by_point" jsonschema:"labels by point"`
}

// TestDefinitionErrorsAreReportedTogether: one Manifest call names every
// problem of the toolset, each with the field and type and the fix, not
// the schema library's internals.
func TestDefinitionErrorsAreReportedTogether(t *testing.T) {
	ts := &sdk.Toolset{Name: "demo", Version: "1.0", Description: "Demo.", Godot: "^4.2", Tools: []sdk.Tool{
		sdk.NewTool("bad", "Bad arguments.", sdk.ReadOnly, func(context.Context, *sdk.Call, badArgs) (sdk.Result, error) {
			return sdk.Text("x"), nil
		}),
	}}
	_, err := ts.Manifest()
	if err == nil {
		t.Fatal("Manifest accepted a broken toolset")
	}
	msg := err.Error()
	for _, want := range []string{
		`version "1.0" is not a semantic version MAJOR.MINOR.PATCH: write "1.0.0"`,
		`godot constraint "^4.2" cannot be read`, `you probably mean ">= 4.2, < 5.0"`,
		"field MaxDepth (int) has no json tag: add `json:\"max_depth\"`",
		"field Filter (func(string) bool) has no JSON form",
		"field Nested.Weight (complex128) has no JSON form",
		"field Nested.Label (string) has no jsonschema tag",
		"field ByPoint (map[struct { X int; Y int }]string): a map key must be a string",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("Manifest error lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "jsonschema.") || strings.Contains(msg, "ForType") {
		t.Errorf("the error names the schema library's internals:\n%s", msg)
	}
}
