package manifest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func valid() *Manifest {
	return &Manifest{
		Name:        "scene_edit",
		Version:     "1.0.0",
		Description: "Edits scenes.",
		Godot:       ">= 4.4",
		Tools: []Tool{{
			Name:        "add_node",
			Description: "Add a node.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`),
			SafetyClass: Mutating,
		}},
	}
}

func TestValidateAcceptsAGoodManifest(t *testing.T) {
	if err := valid().Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestValidateNamesEveryProblem(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(*Manifest)
		want   string
	}{
		{"bad toolset name", func(m *Manifest) { m.Name = "Scene-Edit" }, `toolset name "Scene-Edit" is invalid`},
		{"reserved core", func(m *Manifest) { m.Name = "core" }, `"core" is reserved`},
		{"no version", func(m *Manifest) { m.Version = "" }, "has no version"},
		{"no description", func(m *Manifest) { m.Description = " " }, "has no description"},
		{"version not semver", func(m *Manifest) { m.Version = "1.2" }, `version "1.2" is not a semantic version MAJOR.MINOR.PATCH: write "1.2.0"`},
		{"version not a number", func(m *Manifest) { m.Version = "latest" }, `version "latest" is not a semantic version`},
		{"caret constraint", func(m *Manifest) { m.Godot = "^4.2" }, `godot constraint "^4.2" cannot be read`},
		{"wildcard constraint", func(m *Manifest) { m.Godot = "4.x" }, `you probably mean ">= 4.0, < 5.0"`},
		{"constraint without comma", func(m *Manifest) { m.Godot = ">= 4.2 < 5" }, `you probably mean ">= 4.2, < 5"`},
		{"bad tool name", func(m *Manifest) { m.Tools[0].Name = "add node" }, "name is invalid"},
		{"duplicate tool", func(m *Manifest) { m.Tools = append(m.Tools, m.Tools[0]) }, "declared twice"},
		{"missing class fails closed", func(m *Manifest) { m.Tools[0].SafetyClass = "" }, "safety class"},
		{"unknown class", func(m *Manifest) { m.Tools[0].SafetyClass = "harmless" }, `"harmless" is not one of`},
		{"bad scope", func(m *Manifest) { m.Tools[0].Scope = "everyone" }, `scope "everyone"`},
		{"no schema", func(m *Manifest) { m.Tools[0].InputSchema = nil }, "input schema: missing"},
		{"schema not object", func(m *Manifest) { m.Tools[0].InputSchema = json.RawMessage(`{"type":"string"}`) }, `type must be "object"`},
		{"schema not json", func(m *Manifest) { m.Tools[0].InputSchema = json.RawMessage(`{`) }, "not a JSON object"},
		{"reserved confirm", func(m *Manifest) {
			m.Tools[0].InputSchema = json.RawMessage(`{"type":"object","properties":{"confirm":{"type":"boolean"}}}`)
		}, `declares "confirm"`},
		{"bad output schema", func(m *Manifest) { m.Tools[0].OutputSchema = json.RawMessage(`[]`) }, "output schema"},
		{"dispatch not a path", func(m *Manifest) { m.Tools[0].Dispatch = "commands.command" }, `dispatch "commands.command" is not of the form ARG[*].FIELD`},
		{"dispatch names no argument", func(m *Manifest) { m.Tools[0].Dispatch = "commands[*].command" }, `names argument "commands", which the input schema does not declare`},
		{"performs not an exposed name", func(m *Manifest) { m.Tools[0].Performs = []string{"set_node_property"} }, `performs "set_node_property" is not an exposed tool name`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := valid()
			c.mutate(m)
			err := m.Validate()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Validate() = %v, want an error containing %q", err, c.want)
			}
		})
	}
}

func TestProtoRoundTrip(t *testing.T) {
	m := valid()
	m.SDK = "test/1"
	m.Tools = append(m.Tools, Tool{
		Name: "wipe", Title: "Wipe", Description: "Delete everything.",
		InputSchema:  json.RawMessage(`{"type":"object"}`),
		OutputSchema: json.RawMessage(`{"type":"object"}`),
		SafetyClass:  Destructive, Scope: CLIScope,
	}, Tool{
		Name: "run", Description: "Run commands.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"commands":{"type":"array"}}}`),
		SafetyClass: Mutating, Dispatch: "commands[*].command", Performs: []string{"godot_scene_edit_add_node"},
	}, Tool{
		Name: "set", Description: "Set a value.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"value":{"type":"string"}}}`),
		SafetyClass: Mutating, ValueArgs: []string{"value"},
	})
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	if arg, field, ok := m.Tools[2].DispatchPath(); !ok || arg != "commands" || field != "command" {
		t.Fatalf("DispatchPath() = %q, %q, %v", arg, field, ok)
	}
	got := FromProto(m.ToProto())
	// FromProto fills the default scope in; compare with that applied.
	m.Tools[0].Scope = AgentScope
	m.Tools[2].Scope = AgentScope
	m.Tools[3].Scope = AgentScope
	a, _ := json.Marshal(m)
	b, _ := json.Marshal(got)
	if string(a) != string(b) {
		t.Fatalf("round trip changed the manifest:\n%s\n%s", a, b)
	}
}

func TestUnknownProtoClassFailsClosed(t *testing.T) {
	p := valid().ToProto()
	p.Tools[0].SafetyClass = 99
	m := FromProto(p)
	if m.Tools[0].SafetyClass != "" {
		t.Fatalf("unknown wire class became %q, want empty", m.Tools[0].SafetyClass)
	}
	if err := m.Validate(); err == nil {
		t.Fatal("a tool with an unknown safety class must not validate")
	}
}

func TestConstraintSuggestions(t *testing.T) {
	for in, want := range map[string]string{
		"^4.2":       ">= 4.2, < 5.0",
		"^4":         ">= 4.0, < 5.0",
		"4.x":        ">= 4.0, < 5.0",
		"4.3.*":      ">= 4.3, < 4.4",
		">= 4.2 < 5": ">= 4.2, < 5",
		"~4.2":       ">= 4.2, < 4.3",
	} {
		err := CheckGodotConstraint(in)
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("you probably mean %q", want)) {
			t.Errorf("CheckGodotConstraint(%q) = %v, want the suggestion %q", in, err, want)
		}
	}
	for _, ok := range []string{"", ">= 4.2, < 5.0", "~> 4.3", "4.4", ">=4.0"} {
		if err := CheckGodotConstraint(ok); err != nil {
			t.Errorf("CheckGodotConstraint(%q) = %v", ok, err)
		}
	}
	for _, ok := range []string{"1.0.0", "0.1.0-beta.1", "2.3.4+build.5"} {
		if err := CheckVersion(ok); err != nil {
			t.Errorf("CheckVersion(%q) = %v", ok, err)
		}
	}
}

func TestValidateReportsEveryProblemTogether(t *testing.T) {
	m := valid()
	m.Version = "1.0"
	m.Godot = "^4.2"
	m.Tools[0].SafetyClass = "harmless"
	err := m.Validate()
	for _, want := range []string{`version "1.0"`, `godot constraint "^4.2"`, `"harmless"`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate() = %v, want it to contain %q", err, want)
		}
	}
}

// A value argument must be a declared string property: the host shows it
// as a string and accepts any JSON value there.
func TestValidateValueArgs(t *testing.T) {
	for _, c := range []struct{ schema, want string }{
		{`{"type":"object","properties":{"value":{"type":"string"}}}`, ""},
		{`{"type":"object","properties":{"other":{"type":"string"}}}`, "which the input schema does not declare"},
		{`{"type":"object","properties":{"value":{}}}`, `must be declared {"type": "string"}`},
	} {
		m := valid()
		m.Tools[0].InputSchema = json.RawMessage(c.schema)
		m.Tools[0].ValueArgs = []string{"value"}
		err := m.Validate()
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: %v, want %q", c.schema, err, c.want)
		}
	}
}
