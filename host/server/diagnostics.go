package server

import (
	"regexp"
	"strings"

	"github.com/godot-mcp/godot-mcp/host/events"
	"github.com/godot-mcp/godot-mcp/host/exposure"
	"github.com/godot-mcp/godot-mcp/host/gate"
)

// What the diagnostics tools (godot_get_server_info, godot_health_check,
// godot_list_toolsets) show depends on who asks.
//
// The operator — a stdio or CLI client, the holder of the operator token,
// or any client of a loopback HTTP endpoint without authentication (who
// could read the host's files anyway) — sees everything: pids, absolute
// paths, binary paths and hashes, plugin crash output, every event.
//
// A caller bound to a policy token (a principal other than the operator)
// sees diagnostics only about what its policy lets it see: the toolsets
// with at least one tool it may see, their own events and the events of
// those toolsets, with host internals (pids, paths, hashes, crash output,
// the names of tools withheld from it) taken out. Otherwise the diagnostics
// would undo the exposure policy.

// privileged reports whether c may see host-wide internals.
func privileged(c exposure.Caller) bool {
	return c.Principal == "" || c.Principal == OperatorPrincipal
}

// diagView is what one caller may see of the diagnostics.
type diagView struct {
	full     bool            // privileged: everything
	toolsets map[string]bool // toolsets with a tool the caller may see
	project  string          // the project directory, shown as res://
}

func (s *Server) diagView(c exposure.Caller) diagView {
	v := diagView{full: privileged(c), project: s.opts.ProjectDir}
	if v.full {
		return v
	}
	v.toolsets = map[string]bool{}
	if s.visibleCount(c, gate.Core) > 0 {
		v.toolsets[gate.Core] = true
	}
	for _, ts := range s.opts.Gate.Toolsets() {
		if s.visibleCount(c, ts.Name) > 0 {
			v.toolsets[ts.Name] = true
		}
	}
	return v
}

// sees reports whether the caller may see diagnostics of toolset.
func (v diagView) sees(toolset string) bool { return v.full || v.toolsets[toolset] }

// internalFields are event fields that carry host internals.
var internalFields = []string{"pid", "path", "binary", "sha256", "stderr", "detail", "remote",
	"project_path", "previous_project_path", "excluded"}

// events filters and scrubs events for the caller: a caller bound to a
// principal gets its own policy events and those of toolsets it may see,
// without internals.
func (v diagView) events(c exposure.Caller, all []events.Event) []events.Event {
	all = eventsFor(c, all)
	if v.full {
		return all
	}
	out := make([]events.Event, 0, len(all))
	for _, e := range all {
		if e.Toolset != "" && !v.sees(e.Toolset) {
			continue
		}
		switch e.Kind {
		case events.PeerRefused:
			continue // about other clients of the editor link
		}
		e.Message = v.scrub(e.Message)
		if len(e.Fields) > 0 {
			f := make(map[string]any, len(e.Fields))
			for k, val := range e.Fields {
				f[k] = val
			}
			if ex, ok := f["excluded"].([]string); ok {
				f["excluded_count"] = len(ex)
			}
			for _, k := range internalFields {
				delete(f, k)
			}
			for k, val := range f {
				if str, ok := val.(string); ok {
					f[k] = v.scrub(str)
				}
			}
			e.Fields = f
		}
		out = append(out, e)
	}
	return out
}

// absPath finds absolute file paths in a message: a slash-led run after
// the start, a space, a quote, a parenthesis or "=".
var absPath = regexp.MustCompile(`(^|[\s"'(=])(/[^\s"')]+)`)

// sha256Hex finds hex digests (binary hashes).
var sha256Hex = regexp.MustCompile(`\b[0-9a-f]{64}\b`)

// scrub takes internals out of a text for a caller without the full view:
// the project directory becomes res://, other absolute paths and hashes
// become "…", and only the first line of a multi-line text (a panic and
// its stack) is kept.
func (v diagView) scrub(s string) string {
	if v.full {
		return s
	}
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if v.project != "" {
		s = strings.ReplaceAll(s, strings.TrimSuffix(v.project, "/")+"/", "res://")
	}
	s = absPath.ReplaceAllString(s, "$1…")
	return sha256Hex.ReplaceAllString(s, "…")
}
