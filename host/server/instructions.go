package server

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/godot-mcp/godot-mcp/host/exposure"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// scaffoldToolset creates a project in a project folder that has none; the
// instructions point an agent at it when the folder holds no project.godot.
const scaffoldToolset = "project_scaffold"

// instructions derives what the agent reads at initialize (and in the
// server/discover result) from the effective state: the enabled set, the
// toolsets this caller could enable, and the safety rules that apply to the
// tools it may see. Nothing here is a fixed list of toolsets, so a host with
// other plugins, or another policy, tells the agent the truth.
func (s *Server) instructions(caller exposure.Caller) string {
	var b strings.Builder
	b.WriteString("godot-mcp gives you tools for a Godot project")
	if s.opts.ProjectDir != "" {
		fmt.Fprintf(&b, " (%s)", s.opts.ProjectDir)
	}
	b.WriteString(". Tools come in toolsets; only the tools of enabled toolsets are listed.\n")

	var on, off []string
	scaffoldable := false // the caller may use the toolset that creates a project
	classes := map[manifest.SafetyClass]bool{}
	for _, ts := range s.opts.Gate.Toolsets() {
		d := s.policy.Evaluate(caller, s.reg.refs(ts.Name))
		if len(d.Visible) == 0 {
			continue // nothing this caller could use: do not advertise it
		}
		for _, t := range d.Visible {
			classes[t.Class] = true
		}
		if ts.Name == scaffoldToolset {
			scaffoldable = true
		}
		line := fmt.Sprintf("- %s: %s", ts.Name, ts.Description)
		if ts.Enabled {
			on = append(on, line)
			continue
		}
		if ts.Blocked != nil {
			line += " (unavailable: " + ts.Blocked.Hint + ")"
		}
		off = append(off, line)
	}
	b.WriteString("Enabled toolsets:\n- core: " + coreDescription + "\n")
	for _, l := range on {
		b.WriteString(l + "\n")
	}
	if len(off) > 0 {
		b.WriteString("Toolsets you can enable with godot_enable_toolset({\"toolsets\":[\"name\", …]}); " +
			"the result lists the new tools with their schemas:\n")
		for _, l := range off {
			b.WriteString(l + "\n")
		}
	}
	if classes[manifest.Destructive] {
		b.WriteString("Destructive tools need \"confirm\": true to run and are refused without it; ask the user first. A dry run needs no confirm.\n")
	}
	if classes[manifest.Mutating] || classes[manifest.Destructive] {
		b.WriteString("Mutating and destructive tools accept \"dry_run\": true to report what they would change.\n")
	}
	if s.opts.ProjectDir != "" && scaffoldable {
		if _, err := os.Stat(filepath.Join(s.opts.ProjectDir, "project.godot")); errors.Is(err, os.ErrNotExist) {
			b.WriteString("The project folder holds no project.godot yet: create the project first with godot_project_scaffold " +
				"(toolset project_scaffold; choose godot_version, renderer and template), then the other toolsets work on it.\n")
		}
	}
	if godot, _ := s.opts.Gate.GodotVersion(); godot != "" {
		fmt.Fprintf(&b, "Godot version: %s.\n", godot)
	}
	b.WriteString("godot_list_toolsets shows every toolset; godot_get_server_info explains refusals and recent events.")
	return b.String()
}
