package gate

import (
	"github.com/godot-mcp/godot-mcp/sdk"

	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/go-version"
)

// godotVersionRE takes the numeric part of what Godot reports: the editor says
// "4.4.1.stable.official.49a5bc7b6", project.godot's config/features says
// "4.7". Only the numbers take part in constraint checks.
var godotVersionRE = regexp.MustCompile(`^v?(\d+(?:\.\d+){0,3})`)

// ParseGodotVersion reads a Godot version as reported by the editor or the
// project ("4.4", "4.4.1.stable.official") into a comparable version.
func ParseGodotVersion(s string) (*version.Version, error) {
	m := godotVersionRE.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return nil, fmt.Errorf("%q is not a Godot version: expected numbers such as \"4.4\" or \"4.4.1\"", s)
	}
	return version.NewVersion(m[1])
}

// checkVersion reports whether a toolset with the given constraint may run
// against godot. It returns nil when it may, and the structured refusal
// otherwise.
func checkVersion(toolset, constraint, godot, source string) *sdk.Error {
	constraint = strings.TrimSpace(constraint)
	if constraint == "" {
		return nil
	}
	cs, err := version.NewConstraint(constraint)
	if err != nil {
		// The catalog validates manifests, but a constraint it accepted and
		// go-version cannot read must still fail closed.
		return &sdk.Error{
			Code:     sdk.CodePreconditionFailed,
			Toolset:  toolset,
			Required: sdk.RequiredGodotVersion,
			Message:  fmt.Sprintf("toolset %q declares an unreadable Godot constraint %q: %v", toolset, constraint, err),
			Hint:     "ask the toolset's author to fix its Godot constraint (go-version syntax, e.g. \">= 4.4\")",
		}
	}
	if godot == "" {
		return &sdk.Error{
			Code:     sdk.CodePreconditionFailed,
			Toolset:  toolset,
			Required: sdk.RequiredGodotVersion,
			Message:  fmt.Sprintf("toolset %q requires Godot %s, and the Godot version is unknown", toolset, constraint),
			Hint: fmt.Sprintf("requires Godot %s, found no version: start godot-mcp with --godot-version X.Y, "+
				"or point --project at a project whose project.godot lists config/features", constraint),
		}
	}
	v, err := ParseGodotVersion(godot)
	if err != nil {
		return &sdk.Error{
			Code:     sdk.CodePreconditionFailed,
			Toolset:  toolset,
			Required: sdk.RequiredGodotVersion,
			Message:  fmt.Sprintf("toolset %q requires Godot %s, and the Godot version %q (from %s) cannot be read: %v", toolset, constraint, godot, sourceOr(source), err),
			Hint:     fmt.Sprintf("requires Godot %s, found %q: pass --godot-version X.Y with a plain version number", constraint, godot),
		}
	}
	if !cs.Check(v) {
		return &sdk.Error{
			Code:     sdk.CodePreconditionFailed,
			Toolset:  toolset,
			Required: sdk.RequiredGodotVersion,
			Message:  fmt.Sprintf("toolset %q requires Godot %s, and the Godot version is %s (from %s)", toolset, constraint, godot, sourceOr(source)),
			Hint:     fmt.Sprintf("requires Godot %s, found %s: upgrade the editor or the project, or enable another toolset", constraint, godot),
		}
	}
	return nil
}

func sourceOr(source string) string {
	if source == "" {
		return "unknown source"
	}
	return source
}
