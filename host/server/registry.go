package server

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host/exposure"
	"github.com/godot-mcp/godot-mcp/host/gate"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// Keys of the _meta the server puts on every tool, so clients and tests can
// group tools without parsing names.
const (
	MetaToolset     = "godot-mcp/toolset"
	MetaSafetyClass = "godot-mcp/safety_class"
)

// The arguments the host adds to tool schemas. Plugins never see them: the
// host consumes confirm and turns dry_run into CallRequest.DryRun.
const (
	ArgConfirm = "confirm"
	ArgDryRun  = "dry_run"
)

// toolEntry is one tool the host knows, enabled or not: the registry mirrors
// every installed toolset so a call to a tool of a disabled toolset can be
// answered with the fix instead of "unknown tool".
type toolEntry struct {
	ref   exposure.Tool        // exposed name, toolset, class, scope
	bare  string               // the plugin's own name for the tool
	tool  *mcp.Tool            // what tools/list shows: augmented schema, annotations
	input *jsonschema.Resolved // tool.InputSchema, resolved once for every call
}

type registry struct {
	byName    map[string]*toolEntry
	byToolset map[string][]*toolEntry // manifest order
}

func newRegistry() *registry {
	return &registry{byName: map[string]*toolEntry{}, byToolset: map[string][]*toolEntry{}}
}

// addToolset mirrors a toolset's tools. A tool whose exposed name is taken
// (a toolset "list" with a tool "toolsets" would shadow godot_list_toolsets)
// is skipped and reported: first come wins, and core registers first.
func (r *registry) addToolset(m *manifest.Manifest) []error {
	var errs []error
	for _, t := range m.Tools {
		name := exposure.ExposedName(m.Name, t.Name)
		if prev, dup := r.byName[name]; dup {
			errs = append(errs, fmt.Errorf("tool %q of toolset %q is exposed as %q, which toolset %q already uses; the tool is not exposed, rename it or the toolset",
				t.Name, m.Name, name, prev.ref.Toolset))
			continue
		}
		schema, err := augmentSchema(t.InputSchema, t.SafetyClass)
		var input *jsonschema.Resolved
		if err == nil {
			input, err = resolveSchema(schema)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("tool %q of toolset %q: input schema: %v; the tool is not exposed", t.Name, m.Name, err))
			continue
		}
		mt := &mcp.Tool{
			Name:        name,
			Title:       t.Title,
			Description: t.Description,
			InputSchema: schema,
			Annotations: annotations(t.SafetyClass),
			Meta:        mcp.Meta{MetaToolset: m.Name, MetaSafetyClass: string(t.SafetyClass)},
		}
		if len(t.OutputSchema) > 0 {
			mt.OutputSchema = t.OutputSchema
		}
		r.add(&toolEntry{
			ref:   exposure.Tool{Name: name, Toolset: m.Name, Class: t.SafetyClass, Scope: t.EffectiveScope()},
			bare:  t.Name,
			tool:  mt,
			input: input,
		})
	}
	return errs
}

// resolveSchema prepares an input schema for validation, with the options
// the go-sdk uses for the tools it validates itself.
func resolveSchema(raw json.RawMessage) (*jsonschema.Resolved, error) {
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, err
	}
	return s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
}

// arguments decodes a call's arguments, fills in the schema's defaults and
// validates them, as the go-sdk's typed AddTool does before a handler runs.
// The server does it itself so that the schema is resolved once per tool and
// the arguments are decoded once per call; the SDK's typed path decodes them
// twice, each time into a fresh 32 KiB buffer. Errors read like the SDK's.
func (e *toolEntry) arguments(raw json.RawMessage) (map[string]any, error) {
	var in map[string]any
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &in); err != nil {
			return nil, fmt.Errorf(`validating "arguments": unmarshaling arguments: %w`, err)
		}
	}
	if in == nil { // absent or null: no arguments
		in = map[string]any{}
	}
	if err := e.input.ApplyDefaults(&in); err != nil {
		return nil, fmt.Errorf("validating \"arguments\": applying schema defaults:\n%w", err)
	}
	if err := e.input.Validate(in); err != nil {
		return nil, fmt.Errorf(`validating "arguments": %w`, err)
	}
	return in, nil
}

// invalidArguments is the structured error for arguments the schema
// refuses.
func invalidArguments(e *toolEntry, err error) *ToolError {
	return &ToolError{
		Code:    gate.CodeInvalidArgument,
		Message: err.Error(),
		Hint:    fmt.Sprintf("check the arguments against the input schema of %s (tools/list shows it)", e.ref.Name),
		Toolset: e.ref.Toolset,
	}
}

func (r *registry) add(e *toolEntry) {
	r.byName[e.ref.Name] = e
	r.byToolset[e.ref.Toolset] = append(r.byToolset[e.ref.Toolset], e)
}

func (r *registry) lookup(name string) (*toolEntry, bool) {
	e, ok := r.byName[name]
	return e, ok
}

func (r *registry) toolset(name string) []*toolEntry { return r.byToolset[name] }

// refs returns the exposure view of a toolset's tools.
func (r *registry) refs(toolset string) []exposure.Tool {
	entries := r.byToolset[toolset]
	out := make([]exposure.Tool, len(entries))
	for i, e := range entries {
		out[i] = e.ref
	}
	return out
}

// all returns every entry sorted by exposed name.
func (r *registry) all() []*toolEntry {
	out := make([]*toolEntry, 0, len(r.byName))
	for _, e := range r.byName {
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b *toolEntry) int {
		switch {
		case a.ref.Name < b.ref.Name:
			return -1
		case a.ref.Name > b.ref.Name:
			return 1
		}
		return 0
	})
	return out
}

// annotations derives the MCP hints from the safety class. The class is the
// single source: a plugin cannot claim a read-only hint for a destructive
// tool. Hints the spec defaults the wrong way for a local project tool
// (openWorldHint and destructiveHint default to true) are set explicitly;
// idempotence is unknown for plugin tools and stays false.
func annotations(class manifest.SafetyClass) *mcp.ToolAnnotations {
	yes, no := true, false
	switch class {
	case manifest.ReadOnly:
		return &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no}
	case manifest.Mutating:
		return &mcp.ToolAnnotations{DestructiveHint: &no, OpenWorldHint: &no}
	case manifest.Destructive:
		return &mcp.ToolAnnotations{DestructiveHint: &yes, OpenWorldHint: &no}
	case manifest.Runtime:
		return &mcp.ToolAnnotations{OpenWorldHint: &yes}
	}
	return nil
}

// augmentSchema adds the arguments the host enforces: confirm for
// destructive tools, dry_run for mutating and destructive ones. Neither is
// made "required": a missing confirm must reach the host's own check, which
// answers with required=confirm and the fix, rather than a generic schema
// error.
func augmentSchema(raw json.RawMessage, class manifest.SafetyClass) (json.RawMessage, error) {
	var s map[string]any
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, err
	}
	if s["type"] != "object" {
		return nil, fmt.Errorf(`type must be "object", got %v`, s["type"])
	}
	props, _ := s["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
	}
	add := func(name, description string) error {
		if _, taken := props[name]; taken {
			return fmt.Errorf("declares %q, which the host adds itself", name)
		}
		props[name] = map[string]any{"type": "boolean", "default": false, "description": description}
		return nil
	}
	if class == manifest.Destructive {
		if err := add(ArgConfirm, "Must be true. This tool deletes or overwrites data; without confirm=true the host refuses the call and nothing runs."); err != nil {
			return nil, err
		}
	}
	if class == manifest.Mutating || class == manifest.Destructive {
		if err := add(ArgDryRun, "Report what the call would change without changing anything."); err != nil {
			return nil, err
		}
	}
	s["properties"] = props
	return json.Marshal(s)
}
