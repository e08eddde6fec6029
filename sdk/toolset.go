package sdk

import (
	"context"
	"errors"
	"fmt"

	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// Version is the version of this SDK. It is reported in the manifest's sdk
// field so the host can tell which SDK built a plugin.
const Version = "0.1.0"

// sdkName is the manifest's sdk field: implementation and version.
const sdkName = "godot-mcp-sdk-go/" + Version

// Toolset is a set of tools served by one plugin binary. Build one in main
// and hand it to [Serve].
type Toolset struct {
	// Name is the toolset name: 1-48 lower-case letters, digits and '_',
	// starting with a letter. The host exposes each tool as
	// godot_<Name>_<tool>, and the binary is installed as
	// godot-mcp-toolset-<Name>.
	Name string
	// Version is the toolset's own semantic version, such as "1.0.0".
	Version string
	// Description is what an agent reads to decide whether to enable the
	// toolset: one or two sentences.
	Description string
	// Godot is a hashicorp/go-version constraint on the Godot versions the
	// toolset supports, such as ">= 4.2" or ">= 4.2, < 5.0". Empty means any
	// version. The host refuses to enable the toolset against an editor
	// outside the constraint.
	Godot string
	// Tools are the toolset's tools, built with [NewTool].
	Tools []Tool
	// OnConfigure, if set, runs when the host configures the plugin: once
	// after every start, before any call. An error fails the start.
	OnConfigure func(ctx context.Context, env Env) error
	// Warm, if set, runs once in the background after the first
	// Configure: a one-off cost every call needs (decoding the class
	// database, say: classdb.Warm) is paid while the agent reads the enable
	// result, not in its first call. Calls do not wait for it; one that
	// needs the same thing first waits on its own.
	Warm func()
}

// Env is what the host tells a plugin about its surroundings.
type Env struct {
	// HostVersion is the version of the godot-mcp host.
	HostVersion string
	// ProjectDir is the absolute path of the Godot project (the directory
	// holding project.godot); empty when the host has no project.
	ProjectDir string
	// GodotVersion is the Godot version of the attached editor or project,
	// such as "4.4.1"; empty when unknown.
	GodotVersion string
}

// SafetyClass says what a tool may do. The host derives confirmation,
// dry_run handling and policy from it; a tool cannot opt out.
type SafetyClass = manifest.SafetyClass

// The safety classes.
const (
	// ReadOnly tools only read; they never change the project, the editor or
	// the game.
	ReadOnly = manifest.ReadOnly
	// Mutating tools change the project in a way that can be reviewed or
	// undone. The host passes dry_run through [Call.DryRun]; honour it.
	Mutating = manifest.Mutating
	// Destructive tools delete or overwrite data. The host requires
	// confirm=true before calling them and passes dry_run like Mutating.
	Destructive = manifest.Destructive
	// Runtime tools drive a running game or editor.
	Runtime = manifest.Runtime
)

// Manifest derives the toolset's manifest (what `--describe` prints) and
// validates it. The error lists every problem at once, each saying how to fix
// it.
func (ts *Toolset) Manifest() (*manifest.Manifest, error) {
	m := &manifest.Manifest{
		Name:        ts.Name,
		Version:     ts.Version,
		Description: ts.Description,
		Godot:       ts.Godot,
		SDK:         sdkName,
		Tools:       make([]manifest.Tool, 0, len(ts.Tools)),
	}
	var errs []error
	for i, t := range ts.Tools {
		if t.err != nil {
			errs = append(errs, fmt.Errorf("tool %d (%q): %w", i, t.spec.Name, t.err))
		}
		m.Tools = append(m.Tools, t.spec)
	}
	if err := m.Validate(); err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("invalid toolset %q: %w", ts.Name, err)
	}
	return m, nil
}
