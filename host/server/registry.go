package server

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host/exposure"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/args"
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

// coreRun runs a core tool with validated arguments.
type coreRun func(ctx context.Context, req *mcp.CallToolRequest, in map[string]any) *mcp.CallToolResult

// toolEntry is one tool the host knows, enabled or not: the registry holds
// every installed toolset's tools so a call to a tool of a disabled toolset
// can be answered with the fix instead of "unknown tool".
type toolEntry struct {
	ref exposure.Tool // exposed name, toolset, class, scope
	// confirmOverwrite is the argument naming the file the tool creates or
	// replaces (manifest.Tool.ConfirmOverwrite): replacing needs confirm.
	confirmOverwrite string
	bare             string               // the plugin's own name for the tool
	tool             *mcp.Tool            // what tools/list shows: augmented schema, annotations
	input            *jsonschema.Resolved // tool.InputSchema, resolved once
	check            *args.Checker        // input, compiled once for every call
	// output: the tool declares an output schema, so its error results
	// carry no structured content (see errorResult).
	output bool
	// core runs a core tool in the host; nil for plugin tools.
	core coreRun
	// dispatchArg and dispatchField locate the operations of other tools
	// the tool's arguments name (manifest.Tool.Dispatch): "" when none.
	dispatchArg, dispatchField string
	// performs are the exposed names of the tools whose work the tool
	// always does (manifest.Tool.Performs).
	performs []string
}

// registry is the one table of tools the server serves: every call is
// looked up here, and whether the tool runs is decided here and by the gate
// (is its toolset on?), never by the go-sdk's own tool table, which only
// mirrors the enabled tools for tools/list and list_changed. It is filled
// in New and read-only afterwards.
type registry struct {
	mu        sync.RWMutex
	byName    map[string]*toolEntry
	byToolset map[string][]*toolEntry // manifest order
}

func newRegistry() *registry {
	return &registry{byName: map[string]*toolEntry{}, byToolset: map[string][]*toolEntry{}}
}

// addToolset registers a toolset's tools. A tool whose exposed name is
// taken (a toolset "list" with a tool "toolsets" would shadow
// godot_list_toolsets) is skipped and reported: first come wins, and core
// registers first. So is a tool whose definition the MCP server refuses.
func (r *registry) addToolset(m *manifest.Manifest) []error {
	var errs []error
	for _, t := range m.Tools {
		name := exposure.ExposedName(m.Name, t.Name)
		if isCore(name) {
			errs = append(errs, fmt.Errorf("tool %q of toolset %q is exposed as %q, the name of a core tool; the tool is not exposed, rename it or the toolset",
				t.Name, m.Name, name))
			continue
		}
		if prev, dup := r.lookup(name); dup {
			errs = append(errs, fmt.Errorf("tool %q of toolset %q is exposed as %q, which toolset %q already uses; the tool is not exposed, rename it or the toolset",
				t.Name, m.Name, name, prev.ref.Toolset))
			continue
		}
		dArg, dField, dispatches := t.DispatchPath()
		schema, err := augmentSchema(t.InputSchema, t.SafetyClass, dispatches, t.ConfirmOverwrite)
		var input *jsonschema.Resolved
		if err == nil {
			// Value arguments are shown as strings but take any JSON
			// value: the check runs against a schema without their type.
			var checking json.RawMessage
			if checking, err = args.CheckingSchema(schema, t.ValueArgs); err == nil {
				input, err = resolveSchema(checking)
			}
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
			Annotations: dispatchAnnotations(annotations(t.SafetyClass), dispatches || t.ConfirmOverwrite != ""),
			Meta:        mcp.Meta{MetaToolset: m.Name, MetaSafetyClass: string(t.SafetyClass)},
		}
		if len(t.OutputSchema) > 0 {
			mt.OutputSchema = t.OutputSchema
		}
		if err := probeTool(mt); err != nil {
			errs = append(errs, fmt.Errorf("tool %q of toolset %q: the MCP server rejects its definition: %v; the tool is not exposed", t.Name, m.Name, err))
			continue
		}
		r.add(&toolEntry{
			ref:    exposure.Tool{Name: name, Toolset: m.Name, Class: t.SafetyClass, Scope: t.EffectiveScope()},
			bare:   t.Name,
			tool:   mt,
			input:  input,
			check:  args.Compile(input),
			output: len(t.OutputSchema) > 0,

			dispatchArg:      dArg,
			confirmOverwrite: t.ConfirmOverwrite,
			dispatchField:    dField,
			performs:         t.Performs,
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

// callArgs are a call's arguments after the one validation step.
type callArgs struct {
	in      map[string]any // decoded, defaults applied, host arguments removed
	raw     []byte         // what the plugin gets: the caller's bytes when nothing changed
	confirm bool
	dryRun  bool
}

// arguments is the one argument check of a call: decode (one JSON object,
// no key twice), fill in the schema's defaults, check against the schema
// with messages in words, and take out the host's own arguments (confirm,
// dry_run). The plugin gets the caller's bytes unchanged when nothing was
// added or removed, so the common call is decoded once and never encoded.
func (e *toolEntry) arguments(raw json.RawMessage) (callArgs, *sdk.Error) {
	in, err := args.Decode(raw)
	if err == nil {
		_, hasConfirm := in[ArgConfirm]
		_, hasDryRun := in[ArgDryRun]
		given := len(in) // arguments the plugin would get as sent
		if hasConfirm {
			given--
		}
		if hasDryRun {
			given--
		}
		if _, err = e.check.ApplyDefaults(in); err == nil {
			err = e.check.Check(in)
		}
		if err == nil {
			a := callArgs{in: in, raw: raw}
			a.confirm, _ = in[ArgConfirm].(bool)
			a.dryRun, _ = in[ArgDryRun].(bool)
			if e.core != nil {
				// A core tool's schema declares what it takes (undo's
				// dry_run among it); nothing is the host's to take out.
				return a, nil
			}
			delete(in, ArgConfirm)
			delete(in, ArgDryRun)
			// Re-encode only when the plugin's view differs from the
			// caller's bytes: host arguments to take out, defaults filled
			// in, or no object at all.
			if hasConfirm || hasDryRun || len(in) != given || !startsObject(raw) {
				a.raw, err = json.Marshal(in)
			}
			if err == nil {
				return a, nil
			}
		}
	}
	return callArgs{}, &sdk.Error{
		Code:    sdk.CodeInvalidArgument,
		Message: err.Error(),
		Hint:    fmt.Sprintf("check the arguments against the input schema of %s (tools/list shows it)", e.ref.Name),
		Toolset: e.ref.Toolset,
	}
}

func startsObject(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c == '{'
	}
	return false
}

func (r *registry) add(e *toolEntry) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.byName[e.ref.Name] = e
	r.byToolset[e.ref.Toolset] = append(r.byToolset[e.ref.Toolset], e)
}

// replaceToolset swaps a toolset's tools for those of m in one step, so a
// concurrent lookup finds either the old tools or the new ones, never
// neither. The new definitions are checked as addToolset checks them; a
// name another toolset holds is refused (the catalog already refuses such
// clashes, so this only guards).
func (r *registry) replaceToolset(m *manifest.Manifest) []error {
	fresh := newRegistry()
	errs := fresh.addToolset(m)
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range r.byToolset[m.Name] {
		delete(r.byName, e.ref.Name)
	}
	kept := fresh.byToolset[m.Name][:0]
	for _, e := range fresh.byToolset[m.Name] {
		if prev, taken := r.byName[e.ref.Name]; taken {
			errs = append(errs, fmt.Errorf("tool %q of toolset %q is exposed as %q, which toolset %q already uses; the tool is not exposed, rename it or the toolset",
				e.bare, m.Name, e.ref.Name, prev.ref.Toolset))
			continue
		}
		r.byName[e.ref.Name] = e
		kept = append(kept, e)
	}
	r.byToolset[m.Name] = kept
	return errs
}

// byBare returns the plugin tools whose bare name is bare, sorted by
// exposed name.
func (r *registry) byBare(bare string) []*toolEntry {
	r.mu.RLock()
	var out []*toolEntry
	for _, e := range r.byName {
		if e.core == nil && e.bare == bare {
			out = append(out, e)
		}
	}
	r.mu.RUnlock()
	slices.SortFunc(out, func(a, b *toolEntry) int { return strings.Compare(a.ref.Name, b.ref.Name) })
	return out
}

func (r *registry) lookup(name string) (*toolEntry, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	e, ok := r.byName[name]
	return e, ok
}

func (r *registry) toolset(name string) []*toolEntry {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.byToolset[name]
}

// refs returns the exposure view of a toolset's tools.
func (r *registry) refs(toolset string) []exposure.Tool {
	entries := r.toolset(toolset)
	out := make([]exposure.Tool, len(entries))
	for i, e := range entries {
		out[i] = e.ref
	}
	return out
}

// all returns every entry sorted by exposed name.
func (r *registry) all() []*toolEntry {
	r.mu.RLock()
	out := make([]*toolEntry, 0, len(r.byName))
	for _, e := range r.byName {
		out = append(out, e)
	}
	r.mu.RUnlock()
	slices.SortFunc(out, func(a, b *toolEntry) int { return strings.Compare(a.ref.Name, b.ref.Name) })
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

// dispatchAnnotations marks a tool that runs other tools' commands, or
// that may replace a file (ConfirmOverwrite), as possibly destructive: one
// of its commands may delete, or the file may exist (with confirm), and a
// client that asks the user before a destructive tool must ask here too.
func dispatchAnnotations(a *mcp.ToolAnnotations, dispatches bool) *mcp.ToolAnnotations {
	if !dispatches || a == nil || a.ReadOnlyHint {
		return a
	}
	yes := true
	a.DestructiveHint = &yes
	return a
}

// augmentSchema adds the arguments the host enforces: confirm for
// destructive tools and for tools that dispatch other tools' operations
// (one of them may be destructive), dry_run for mutating and destructive
// ones. Neither is
// made "required": a missing confirm must reach the host's own check, which
// answers with required=confirm and the fix, rather than a generic schema
// error.
func augmentSchema(raw json.RawMessage, class manifest.SafetyClass, dispatches bool, overwrite string) (json.RawMessage, error) {
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
	if dispatches && class != manifest.Destructive {
		if err := add(ArgConfirm, "Must be true when a listed command deletes or overwrites data (a destructive tool's command); without it the host refuses the whole call and nothing runs. A dry run (dry_run=true) needs no confirm."); err != nil {
			return nil, err
		}
	}
	if overwrite != "" && class == manifest.Mutating && !dispatches {
		if err := add(ArgConfirm, "Must be true when "+overwrite+" names a file that exists already: replacing it is destructive, and without confirm=true the host refuses the call and nothing runs. Creating a new file needs no confirm, nor does a dry run (dry_run=true)."); err != nil {
			return nil, err
		}
	}
	if class == manifest.Destructive {
		if err := add(ArgConfirm, "Must be true to run for real. This tool deletes or overwrites data; without confirm=true the host refuses the call and nothing runs. A dry run (dry_run=true) needs no confirm."); err != nil {
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
