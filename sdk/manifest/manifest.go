// Package manifest is the plain-Go description of a toolset: its name,
// version, supported Godot versions and tools with their schemas and safety
// classes. It is what a plugin binary prints with --describe, what the host
// caches in its catalog and pins in its lock file, and what travels (as
// protobuf) in the Describe RPC.
//
// Validate is the host's gate on everything a plugin claims about itself: the
// host never trusts a manifest it has not validated.
package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/go-version"

	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
)

// CoreToolset is the name of the host's own toolset (godot_list_toolsets,
// godot_enable_toolset, …): always enabled, never a plugin. It is the one
// spelling of "core"; the host's packages refer to it.
const CoreToolset = "core"

// ExposedName is the name agents see for a tool of a toolset:
// godot_<toolset>_<tool>. A core tool is godot_<tool>, and a tool named
// like its toolset is godot_<toolset> alone (the project_scaffold
// toolset's one tool is godot_project_scaffold, as other Godot MCP servers
// name it, not godot_project_scaffold_project_scaffold).
func ExposedName(toolset, tool string) string {
	if toolset == CoreToolset || toolset == tool {
		return "godot_" + tool
	}
	return "godot_" + toolset + "_" + tool
}

// SafetyClass says what a tool may do. The host derives MCP annotations,
// confirm and dry_run handling and policy decisions from it.
type SafetyClass string

// The safety classes. A tool without one is never exposed.
const (
	ReadOnly    SafetyClass = "read_only"
	Mutating    SafetyClass = "mutating"
	Destructive SafetyClass = "destructive"
	Runtime     SafetyClass = "runtime"
)

// Classes lists the safety classes in order of increasing risk.
var Classes = []SafetyClass{ReadOnly, Mutating, Destructive, Runtime}

// Valid reports whether c is one of the known classes.
func (c SafetyClass) Valid() bool {
	switch c {
	case ReadOnly, Mutating, Destructive, Runtime:
		return true
	}
	return false
}

// Scope says who may call a tool.
type Scope string

// The scopes.
const (
	// AgentScope tools are exposed through MCP, subject to policy.
	AgentScope Scope = "agent"
	// CLIScope tools run only through `godot-mcp call`, never for agents.
	CLIScope Scope = "cli"
)

// Manifest describes a toolset. The JSON form is what `--describe` prints.
type Manifest struct {
	Name        string `json:"name"`
	Version     string `json:"version"`
	Description string `json:"description"`
	// Godot is a hashicorp/go-version constraint such as ">= 4.4"; empty
	// means any version.
	Godot string `json:"godot,omitempty"`
	SDK   string `json:"sdk,omitempty"`
	Tools []Tool `json:"tools"`
}

// Tool describes one tool of a toolset.
type Tool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"input_schema"`
	OutputSchema json.RawMessage `json:"output_schema,omitempty"`
	SafetyClass  SafetyClass     `json:"safety_class"`
	Scope        Scope           `json:"scope,omitempty"`
	// Modes are the modes the tool works in; empty means both (a plugin
	// from before modes were declared: see EffectiveModes).
	Modes []Mode `json:"modes,omitempty"`
	// EditorPath is how the tool works with an editor attached: an addon
	// command ("cmd_create_node"), EditorFunction or EditorOnFiles; empty
	// when it has no editor mode.
	EditorPath string `json:"editor_path,omitempty"`
	// Dispatch, "ARG[*].FIELD", says that argument ARG lists operations
	// of other tools, each named by FIELD (cmd_<x>, <x> or an exposed
	// tool name). The host checks each as a call of the tool it names
	// before the call reaches the plugin (docs/policy.md).
	Dispatch string `json:"dispatch,omitempty"`
	// Performs names, by exposed name, other tools whose work this tool
	// always does; the host holds every call to their rules as well.
	Performs []string `json:"performs,omitempty"`
	// ConfirmOverwrite names the argument holding the res:// file a
	// mutating tool creates or replaces. Creating is not destructive,
	// replacing is: the host asks for confirm=true when the file exists.
	ConfirmOverwrite string `json:"confirm_overwrite,omitempty"`
	// ValueArgs name the top-level arguments that hold a Godot value whose
	// type the target decides. Each is declared {"type": "string"} (one
	// plain type, for the clients that need one) and the host accepts any
	// JSON value there too: see docs/clients.md, Tool schemas.
	ValueArgs []string `json:"value_args,omitempty"`
}

// Mode is how a call reaches Godot.
type Mode string

// The modes.
const (
	// ModeHeadless works on the project files with no editor attached.
	ModeHeadless Mode = "headless"
	// ModeEditor forwards to an attached Godot editor.
	ModeEditor Mode = "editor"
)

// Editor paths that are not an addon command.
const (
	// EditorFunction queries the editor, then applies commands.
	EditorFunction = "function"
	// EditorOnFiles runs the headless handler on the project files.
	EditorOnFiles = "files"
)

// EffectiveModes returns the tool's modes, both when none are declared.
func (t Tool) EffectiveModes() []Mode {
	if len(t.Modes) == 0 {
		return []Mode{ModeHeadless, ModeEditor}
	}
	return t.Modes
}

// Supports reports whether the tool works in mode m.
func (t Tool) Supports(m Mode) bool {
	for _, x := range t.EffectiveModes() {
		if x == m {
			return true
		}
	}
	return false
}

// DispatchPath splits Dispatch into the argument and the field that
// names a tool; ok is false when the tool dispatches nothing or Dispatch
// is malformed (Validate reports that).
func (t Tool) DispatchPath() (arg, field string, ok bool) {
	m := dispatchRE.FindStringSubmatch(t.Dispatch)
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

var (
	dispatchRE    = regexp.MustCompile(`^([a-z][a-z0-9_]*)\[\*\]\.([a-z][a-z0-9_]*)$`)
	exposedNameRE = regexp.MustCompile(`^godot_[a-z][a-z0-9_]*$`)
)

// EffectiveScope returns the tool's scope, treating empty as AgentScope.
func (t Tool) EffectiveScope() Scope {
	if t.Scope == "" {
		return AgentScope
	}
	return t.Scope
}

// Tool returns the tool with the given bare name.
func (m *Manifest) Tool(name string) (Tool, bool) {
	for _, t := range m.Tools {
		if t.Name == name {
			return t, true
		}
	}
	return Tool{}, false
}

var nameRE = regexp.MustCompile(`^[a-z][a-z0-9_]{0,47}$`)

// CheckName returns an error unless name is a valid toolset name: 1-48
// lower-case letters, digits and '_', starting with a letter, and not the
// reserved "core". The catalog uses it to decide which file names can be
// toolset binaries at all.
func CheckName(name string) error {
	if !nameRE.MatchString(name) {
		return fmt.Errorf("toolset name %q is invalid: use 1-48 lower-case letters, digits and '_', starting with a letter", name)
	}
	if name == CoreToolset {
		return fmt.Errorf("toolset name %q is reserved for the host's own tools", CoreToolset)
	}
	return nil
}

// ReservedArguments are added to tool schemas by the host; a tool must not
// declare them itself.
var ReservedArguments = []string{"confirm", "dry_run"}

// Validate checks everything the host relies on. It reports all problems at
// once, each naming the field and how to fix it.
//
// CoreToolset is reserved.
func (m *Manifest) Validate() error {
	var errs []error
	add := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if err := CheckName(m.Name); err != nil {
		errs = append(errs, err)
	}
	if err := CheckVersion(m.Version); err != nil {
		add("toolset %q: %v", m.Name, err)
	}
	if err := CheckGodotConstraint(m.Godot); err != nil {
		add("toolset %q: %v", m.Name, err)
	}
	if strings.TrimSpace(m.Description) == "" {
		add("toolset %q has no description: agents read it to decide whether to enable the toolset", m.Name)
	}
	seen := map[string]bool{}
	for i, t := range m.Tools {
		where := fmt.Sprintf("tool %d (%q)", i, t.Name)
		if !nameRE.MatchString(t.Name) {
			add("%s: name is invalid: use 1-48 lower-case letters, digits and '_', starting with a letter", where)
		}
		if seen[t.Name] {
			add("%s: declared twice", where)
		}
		seen[t.Name] = true
		if strings.TrimSpace(t.Description) == "" {
			add("%s: has no description", where)
		}
		if !t.SafetyClass.Valid() {
			add("%s: safety class %q is not one of read_only, mutating, destructive, runtime", where, t.SafetyClass)
		}
		switch t.Scope {
		case "", AgentScope, CLIScope:
		default:
			add("%s: scope %q is not one of agent, cli", where, t.Scope)
		}
		for _, m := range t.Modes {
			if m != ModeHeadless && m != ModeEditor {
				add("%s: mode %q is not one of headless, editor", where, m)
			}
		}
		if err := checkObjectSchema(t.InputSchema, true); err != nil {
			add("%s: input schema: %v", where, err)
		} else if props := schemaProperties(t.InputSchema); props != nil {
			for _, r := range ReservedArguments {
				if _, ok := props[r]; ok {
					add("%s: input schema declares %q, which the host adds itself; remove it", where, r)
				}
			}
		}
		if len(t.OutputSchema) > 0 {
			if err := checkObjectSchema(t.OutputSchema, false); err != nil {
				add("%s: output schema: %v", where, err)
			}
		}
		if t.Dispatch != "" {
			if arg, _, ok := t.DispatchPath(); !ok {
				add("%s: dispatch %q is not of the form ARG[*].FIELD, such as \"commands[*].command\"", where, t.Dispatch)
			} else if _, ok := schemaProperties(t.InputSchema)[arg]; !ok {
				add("%s: dispatch %q names argument %q, which the input schema does not declare", where, t.Dispatch, arg)
			}
		}
		if t.ConfirmOverwrite != "" {
			if t.SafetyClass != Mutating {
				add("%s: confirm_overwrite is for mutating tools (a destructive one needs confirm for every real run already)", where)
			} else if _, ok := schemaProperties(t.InputSchema)[t.ConfirmOverwrite]; !ok {
				add("%s: confirm_overwrite names argument %q, which the input schema does not declare", where, t.ConfirmOverwrite)
			}
		}
		for _, a := range t.ValueArgs {
			var p struct {
				Type string `json:"type"`
			}
			if raw, ok := schemaProperties(t.InputSchema)[a]; !ok {
				add("%s: value_args names argument %q, which the input schema does not declare", where, a)
			} else if json.Unmarshal(raw, &p) != nil || p.Type != "string" {
				add("%s: value argument %q must be declared {\"type\": \"string\"} (its text form; the host accepts any JSON value there)", where, a)
			}
		}
		for _, p := range t.Performs {
			if !exposedNameRE.MatchString(p) {
				add("%s: performs %q is not an exposed tool name such as \"godot_scene_edit_set_node_property\"", where, p)
			}
		}
	}
	return errors.Join(errs...)
}

func checkObjectSchema(raw json.RawMessage, required bool) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		if required {
			return errors.New("missing: every tool needs a JSON Schema of type \"object\" for its arguments")
		}
		return nil
	}
	var s map[string]any
	if err := json.Unmarshal(raw, &s); err != nil {
		return fmt.Errorf("not a JSON object: %v", err)
	}
	if t, ok := s["type"]; !ok || t != "object" {
		return fmt.Errorf("type must be \"object\", got %v", t)
	}
	return nil
}

func schemaProperties(raw json.RawMessage) map[string]json.RawMessage {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(raw, &s) != nil {
		return nil
	}
	return s.Properties
}

var classToProto = map[SafetyClass]pb.SafetyClass{
	ReadOnly:    pb.SafetyClass_SAFETY_CLASS_READ_ONLY,
	Mutating:    pb.SafetyClass_SAFETY_CLASS_MUTATING,
	Destructive: pb.SafetyClass_SAFETY_CLASS_DESTRUCTIVE,
	Runtime:     pb.SafetyClass_SAFETY_CLASS_RUNTIME,
}

// ToProto converts m to its wire form.
func (m *Manifest) ToProto() *pb.Manifest {
	out := &pb.Manifest{
		Name:            m.Name,
		Version:         m.Version,
		Description:     m.Description,
		GodotConstraint: m.Godot,
		Sdk:             m.SDK,
	}
	for _, t := range m.Tools {
		scope := pb.Scope_SCOPE_AGENT
		if t.Scope == CLIScope {
			scope = pb.Scope_SCOPE_CLI
		}
		out.Tools = append(out.Tools, &pb.ToolSpec{
			Name:             t.Name,
			Title:            t.Title,
			Description:      t.Description,
			InputSchemaJson:  t.InputSchema,
			OutputSchemaJson: t.OutputSchema,
			SafetyClass:      classToProto[t.SafetyClass], // unknown → UNSPECIFIED: fails closed
			Scope:            scope,
			Modes:            modesToProto(t.Modes),
			EditorPath:       t.EditorPath,
			Dispatch:         t.Dispatch,
			Performs:         t.Performs,
			ConfirmOverwrite: t.ConfirmOverwrite,
			ValueArgs:        t.ValueArgs,
		})
	}
	return out
}

// FromProto converts a wire manifest. Unknown enum values become empty
// strings, which Validate rejects.
func FromProto(p *pb.Manifest) *Manifest {
	m := &Manifest{
		Name:        p.GetName(),
		Version:     p.GetVersion(),
		Description: p.GetDescription(),
		Godot:       p.GetGodotConstraint(),
		SDK:         p.GetSdk(),
		Tools:       []Tool{},
	}
	for _, t := range p.GetTools() {
		var class SafetyClass
		for c, pc := range classToProto {
			if pc == t.GetSafetyClass() {
				class = c
			}
		}
		var scope Scope
		switch t.GetScope() {
		case pb.Scope_SCOPE_UNSPECIFIED, pb.Scope_SCOPE_AGENT:
			scope = AgentScope
		case pb.Scope_SCOPE_CLI:
			scope = CLIScope
		default:
			scope = Scope(t.GetScope().String())
		}
		m.Tools = append(m.Tools, Tool{
			Name:             t.GetName(),
			Title:            t.GetTitle(),
			Description:      t.GetDescription(),
			InputSchema:      json.RawMessage(t.GetInputSchemaJson()),
			OutputSchema:     json.RawMessage(t.GetOutputSchemaJson()),
			SafetyClass:      class,
			Scope:            scope,
			Modes:            modesFromProto(t.GetModes()),
			EditorPath:       t.GetEditorPath(),
			Dispatch:         t.GetDispatch(),
			Performs:         t.GetPerforms(),
			ConfirmOverwrite: t.GetConfirmOverwrite(),
			ValueArgs:        t.GetValueArgs(),
		})
	}
	return m
}

func modesToProto(ms []Mode) []string {
	if len(ms) == 0 {
		return nil
	}
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = string(m)
	}
	return out
}

func modesFromProto(ms []string) []Mode {
	if len(ms) == 0 {
		return nil
	}
	out := make([]Mode, len(ms))
	for i, m := range ms {
		out[i] = Mode(m)
	}
	return out
}

// CoreToolNames are the exposed names of the host's core tools; a toolset
// tool exposed under one of them is refused (sdktest checks it; the host
// checks this list against its own).
var CoreToolNames = []string{
	"godot_debug_workflow", "godot_describe_class", "godot_disable_toolset", "godot_enable_toolset", "godot_get_server_info",
	"godot_health_check", "godot_list_history", "godot_list_tools_by_safety_class", "godot_list_toolsets", "godot_read_resource",
	"godot_redo", "godot_undo",
}

// semverRE is the pattern semver.org gives for a version:
// MAJOR.MINOR.PATCH, an optional -pre-release and +build metadata.
var semverRE = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`)

// CheckVersion checks a toolset version: a semantic version
// MAJOR.MINOR.PATCH ("1.2.0", "2.0.0-beta.1"), which `plugins list` and
// the lock file show and operators compare.
func CheckVersion(v string) error {
	switch {
	case v == "":
		return errors.New(`has no version: set a semantic version such as "1.0.0"`)
	case !semverRE.MatchString(v):
		fix := "1.0.0"
		if p, err := version.NewVersion(v); err == nil {
			seg := p.Segments()
			for len(seg) < 3 {
				seg = append(seg, 0)
			}
			fix = fmt.Sprintf("%d.%d.%d", seg[0], seg[1], seg[2])
			if pre := p.Prerelease(); pre != "" {
				fix += "-" + pre
			}
		}
		return fmt.Errorf("version %q is not a semantic version MAJOR.MINOR.PATCH: write %q", v, fix)
	}
	return nil
}

// CheckGodotConstraint checks a Godot constraint the way the host reads it
// (hashicorp/go-version: comma-separated ">= 4.2, < 5.0", "~> 4.3", "4.4");
// "" means any version. The error suggests the spelling that was probably
// meant, for the forms of other ecosystems ("^4.2", "4.x", ">= 4.2 < 5").
func CheckGodotConstraint(c string) error {
	c = strings.TrimSpace(c)
	if c == "" {
		return nil
	}
	if _, err := version.NewConstraint(c); err != nil {
		msg := fmt.Sprintf("godot constraint %q cannot be read (%v): use comma-separated comparisons such as \">= 4.2, < 5.0\"", c, err)
		if fix := suggestConstraint(c); fix != "" && parses(fix) {
			msg += fmt.Sprintf("; you probably mean %q", fix)
		}
		return errors.New(msg)
	}
	return nil
}

var (
	caretRE  = regexp.MustCompile(`^\^\s*(\d+)(\.\d+)?(\.\d+)?$`)
	wildRE   = regexp.MustCompile(`^(\d+)(?:\.(\d+))?\.[x*]$`)
	twoOpsRE = regexp.MustCompile(`^(\s*(?:>=|<=|>|<|=|!=|~>)\s*[0-9.]+)\s+((?:>=|<=|>|<|=|!=|~>)\s*[0-9.]+\s*)$`)
	tildeRE  = regexp.MustCompile(`^~\s*(\d+)\.(\d+)(\.\d+)?$`)
)

// parses reports whether a suggested constraint is valid itself (numbers
// too large for go-version are not).
func parses(c string) bool {
	_, err := version.NewConstraint(c)
	return err == nil
}

func suggestConstraint(c string) string {
	if m := caretRE.FindStringSubmatch(c); m != nil {
		major := atoi(m[1])
		lower := m[1] + m[2] + m[3]
		if m[2] == "" {
			lower += ".0"
		}
		return fmt.Sprintf(">= %s, < %d.0", lower, major+1)
	}
	if m := wildRE.FindStringSubmatch(c); m != nil {
		if m[2] == "" {
			return fmt.Sprintf(">= %s.0, < %d.0", m[1], atoi(m[1])+1)
		}
		return fmt.Sprintf(">= %s.%s, < %s.%d", m[1], m[2], m[1], atoi(m[2])+1)
	}
	if m := twoOpsRE.FindStringSubmatch(c); m != nil {
		return strings.TrimSpace(m[1]) + ", " + strings.TrimSpace(m[2])
	}
	if m := tildeRE.FindStringSubmatch(c); m != nil {
		return fmt.Sprintf(">= %s.%s%s, < %s.%d", m[1], m[2], m[3], m[1], atoi(m[2])+1)
	}
	return ""
}

func atoi(s string) int {
	n := 0
	for _, r := range s {
		n = n*10 + int(r-'0')
	}
	return n
}
