package sdktest

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-version"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/args"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// The host's rules
//
// A call through sdktest meets the checks the real host makes before a
// call reaches a plugin, with the host's codes and messages, so a passing
// test means the host accepts the toolset and its calls:
//
//   - at New: the manifest validates (name, semantic version, Godot
//     constraint, schemas); every tool's exposed name (godot_<toolset>_<tool>)
//     is free (not a core tool's); and when Options.GodotVersion is set,
//     the toolset's Godot constraint admits it, or New fails the test as
//     the host refuses godot_enable_toolset;
//   - at Call: the arguments pass the host's validator (package sdk/args, on
//     the schema the host shows: the tool's own plus confirm and dry_run
//     by safety class) or the call answers INVALID_ARGUMENT; dry_run (the
//     DryRun option, or "dry_run": true in the arguments) is accepted only
//     by mutating and destructive tools; a destructive tool's real run
//     needs confirm (the Confirm option, or "confirm": true) or answers
//     PRECONDITION_FAILED with Required "confirm". confirm and dry_run are
//     taken out of the arguments, as the host does.
//
// Quiet by default: go-plugin's own connection logs (debug lines such as
// "stdio EOF, exiting copy loop") are discarded; set
// GODOT_MCP_SDKTEST_DEBUG=1 to see them. The toolset's stderr and its log
// lines still go to the test log.

// DebugEnv shows go-plugin's connection logs when set to 1.
const DebugEnv = "GODOT_MCP_SDKTEST_DEBUG"

func init() {
	// go-plugin's in-process connection logs through an hclog logger it
	// builds without an output, which writes to hclog.DefaultOutput.
	if os.Getenv(DebugEnv) != "1" {
		hclog.DefaultOutput = io.Discard
	}
}

// ExposedName is the MCP name the host gives a toolset's tool.
func ExposedName(toolset, tool string) string { return manifest.ExposedName(toolset, tool) }

// toolRules is what the host knows of one tool.
type toolRules struct {
	spec  manifest.Tool
	check *args.Checker
}

// hostRules checks the toolset as the host's catalog and gate would, and
// prepares the per-tool argument checks. The error says what the host
// would refuse and how to fix it.
func hostRules(m *manifest.Manifest, godot string) (map[string]*toolRules, error) {
	var problems []string
	for _, t := range m.Tools {
		name := ExposedName(m.Name, t.Name)
		for _, core := range manifest.CoreToolNames {
			if name == core {
				problems = append(problems, fmt.Sprintf("tool %q would be exposed as %s, the name of a core tool of the host; the host refuses the toolset: rename the tool or the toolset", t.Name, name))
			}
		}
	}
	if godot != "" && strings.TrimSpace(m.Godot) != "" {
		if err := godotAdmits(m.Godot, godot); err != nil {
			problems = append(problems, fmt.Sprintf("the host refuses to enable toolset %q on Godot %s: %v; fix the toolset's Godot constraint, or test with a version it supports", m.Name, godot, err))
		}
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(problems, "\n"))
	}
	rules := map[string]*toolRules{}
	for _, t := range m.Tools {
		schema, err := augment(t.InputSchema, t.SafetyClass, t.ConfirmOverwrite != "")
		if err != nil {
			return nil, fmt.Errorf("tool %q: input schema: %v", t.Name, err)
		}
		if schema, err = args.CheckingSchema(schema, t.ValueArgs); err != nil {
			return nil, fmt.Errorf("tool %q: input schema: %v", t.Name, err)
		}
		check, err := compile(schema)
		if err != nil {
			return nil, fmt.Errorf("tool %q: input schema: %v", t.Name, err)
		}
		rules[t.Name] = &toolRules{spec: t, check: check}
	}
	return rules, nil
}

// compile resolves a schema as the host does (defaults validated) and
// compiles the host's argument checker for it.
func compile(raw json.RawMessage) (*args.Checker, error) {
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, err
	}
	r, err := s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		return nil, err
	}
	return args.Compile(r), nil
}

// godotRE takes the numeric part of a Godot version string: "4.4.1",
// "4.6-stable", "4.6.stable.official.abc" → 4.4.1, 4.6, 4.6.
var godotRE = regexp.MustCompile(`^v?(\d+(?:\.\d+){0,2})`)

func godotAdmits(constraint, godot string) error {
	cs, err := version.NewConstraint(constraint)
	if err != nil {
		return fmt.Errorf("its constraint %q cannot be read: %v", constraint, err)
	}
	m := godotRE.FindStringSubmatch(strings.TrimSpace(godot))
	if m == nil {
		return fmt.Errorf("Options.GodotVersion %q is not a Godot version such as \"4.4\" or \"4.6.1\"", godot)
	}
	v, err := version.NewVersion(m[1])
	if err != nil {
		return err
	}
	if !cs.Check(v) {
		return fmt.Errorf("it requires Godot %s", constraint)
	}
	return nil
}

// augment adds the host's own arguments to a tool's input schema, by
// safety class, as tools/list shows it.
func augment(raw json.RawMessage, class manifest.SafetyClass, confirm bool) (json.RawMessage, error) {
	var s map[string]any
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, err
	}
	props, _ := s["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
	}
	if class == manifest.Destructive || confirm {
		props[argConfirm] = map[string]any{"type": "boolean", "default": false}
	}
	if class == manifest.Mutating || class == manifest.Destructive {
		props[argDryRun] = map[string]any{"type": "boolean", "default": false}
	}
	s["properties"] = props
	return json.Marshal(s)
}

const (
	argConfirm = "confirm"
	argDryRun  = "dry_run"
)

// screen applies the host's argument and safety checks to one call. It
// returns the arguments the plugin gets (confirm and dry_run taken out,
// defaults as sent) and the dry-run flag, or the refusal the host answers.
func (r *toolRules) screen(toolset, root string, raw []byte, dryRun, confirm bool) ([]byte, bool, *sdk.Error) {
	exposed := ExposedName(toolset, r.spec.Name)
	in, err := args.Decode(raw)
	if err == nil {
		if dryRun {
			in[argDryRun] = true
		}
		if confirm {
			in[argConfirm] = true
		}
		_, err = r.check.ApplyDefaults(in)
		if err == nil {
			err = r.check.Check(in)
		}
	}
	if err != nil {
		hint := fmt.Sprintf("check the arguments against the input schema of %s (tools/list shows it)", exposed)
		if dryRun && r.spec.SafetyClass != manifest.Mutating && r.spec.SafetyClass != manifest.Destructive {
			hint = fmt.Sprintf("%s is %s: only mutating and destructive tools accept dry_run, so the host refuses it; drop sdktest.DryRun()", exposed, r.spec.SafetyClass)
		}
		return nil, false, &sdk.Error{Code: sdk.CodeInvalidArgument, Toolset: toolset, Message: err.Error(), Hint: hint}
	}
	confirmed, _ := in[argConfirm].(bool)
	dry, _ := in[argDryRun].(bool)
	if r.spec.SafetyClass == manifest.Destructive && !confirmed && !dry {
		return nil, false, &sdk.Error{Code: sdk.CodePreconditionFailed, Required: sdk.RequiredConfirm, Toolset: toolset,
			Message: fmt.Sprintf("%s deletes or overwrites data and was called without confirm=true; nothing ran", exposed),
			Hint:    `call it again with "confirm": true once the user has agreed, or with "dry_run": true to preview what it would change (in sdktest: the Confirm or DryRun option)`}
	}
	if arg := r.spec.ConfirmOverwrite; arg != "" && r.spec.SafetyClass == manifest.Mutating && !confirmed && !dry {
		if se := sdk.OverwriteRefusal(root, exposed, arg, in); se != nil {
			se.Toolset = toolset
			return nil, false, se
		}
	}
	// The plugin gets the caller's arguments without the host's own.
	plain, _ := args.Decode(raw)
	delete(plain, argConfirm)
	delete(plain, argDryRun)
	out, err := json.Marshal(plain)
	if err != nil {
		return nil, false, &sdk.Error{Code: sdk.CodeInvalidArgument, Toolset: toolset, Message: err.Error()}
	}
	return out, dry, nil
}
