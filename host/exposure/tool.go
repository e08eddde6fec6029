package exposure

import (
	"github.com/godot-mcp/godot-mcp/host/config"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// Tool is what the layers know about a candidate tool.
type Tool struct {
	// Name is the exposed name: godot_<toolset>_<tool>, or godot_<tool>
	// for core tools. Names are unique among the candidates.
	Name    string
	Toolset string
	Class   manifest.SafetyClass
	// Scope "" is treated as manifest.AgentScope.
	Scope manifest.Scope
}

// The transports a Context can name.
const (
	TransportStdio = "stdio"
	// TransportHTTP is streamable HTTP; Context.Loopback says whether the
	// peer address is a loopback address.
	TransportHTTP = "http"
	// TransportCLI is `godot-mcp call`: the operator at the terminal. It is
	// the only transport that may reach cli-scoped tools, and it has no
	// ceiling.
	TransportCLI = "cli"
)

// Context describes the caller a decision is made for.
type Context struct {
	// Principal is the name of the caller's token, "" for stdio.
	Principal string
	// Profile is the profile the caller runs as: the token's profile, or
	// [stdio] profile. "" means no profile restriction; a name the config
	// does not define withholds everything.
	Profile string
	// Transport is TransportStdio, TransportHTTP or TransportCLI; the
	// ceiling keys http_loopback and http_remote are accepted too.
	Transport string
	// Loopback is true when an HTTP caller connects from a loopback address.
	Loopback bool
	// ClientName, Tags and Depth describe the caller further (MCP client
	// name, free-form tags, sub-agent depth). The built-in layers do not
	// select on them; they are here for layers that do.
	ClientName string
	Tags       []string
	Depth      int
}

// TransportKey returns the config key whose ceiling applies to the caller:
// stdio, http_loopback or http_remote, or "" for TransportCLI. Anything
// unrecognised, including an empty Transport, counts as http_remote, the
// transport operators are most likely to have capped.
func (ctx Context) TransportKey() string {
	switch ctx.Transport {
	case TransportStdio:
		return config.TransportStdio
	case TransportCLI:
		return ""
	case TransportHTTP:
		if ctx.Loopback {
			return config.TransportHTTPLoopback
		}
		return config.TransportHTTPRemote
	case config.TransportHTTPLoopback:
		return config.TransportHTTPLoopback
	}
	return config.TransportHTTPRemote
}

// CoreToolset is the toolset name of the host's own tools.
const CoreToolset = "core"

// CoreTools are the host's own tools. They are candidates like any other and
// pass through the same layers: a read-only profile, for instance, does not
// get godot_enable_toolset.
var CoreTools = []Tool{
	{Name: "godot_list_toolsets", Toolset: CoreToolset, Class: manifest.ReadOnly, Scope: manifest.AgentScope},
	{Name: "godot_enable_toolset", Toolset: CoreToolset, Class: manifest.Mutating, Scope: manifest.AgentScope},
	{Name: "godot_disable_toolset", Toolset: CoreToolset, Class: manifest.Mutating, Scope: manifest.AgentScope},
	{Name: "godot_get_server_info", Toolset: CoreToolset, Class: manifest.ReadOnly, Scope: manifest.AgentScope},
	{Name: "godot_health_check", Toolset: CoreToolset, Class: manifest.ReadOnly, Scope: manifest.AgentScope},
	{Name: "godot_list_tools_by_safety_class", Toolset: CoreToolset, Class: manifest.ReadOnly, Scope: manifest.AgentScope},
	{Name: "godot_undo", Toolset: CoreToolset, Class: manifest.Mutating, Scope: manifest.AgentScope},
	{Name: "godot_redo", Toolset: CoreToolset, Class: manifest.Mutating, Scope: manifest.AgentScope},
	{Name: "godot_list_history", Toolset: CoreToolset, Class: manifest.ReadOnly, Scope: manifest.AgentScope},
}

// ExposedName composes the name agents see for a tool of a toolset.
func ExposedName(toolset, tool string) string {
	if toolset == CoreToolset {
		return "godot_" + tool
	}
	return "godot_" + toolset + "_" + tool
}

// FromManifest returns the candidate tools of a toolset, in manifest order.
func FromManifest(m *manifest.Manifest) []Tool {
	out := make([]Tool, 0, len(m.Tools))
	for _, t := range m.Tools {
		out = append(out, Tool{
			Name:    ExposedName(m.Name, t.Name),
			Toolset: m.Name,
			Class:   t.SafetyClass,
			Scope:   t.EffectiveScope(),
		})
	}
	return out
}

// Known lists what the catalog offers, for ValidateNames.
type Known struct {
	Toolsets []string // toolset names
	Tools    []string // exposed tool names
}

// KnownTools derives Known from candidate tools. The core toolset and
// CoreTools are always included.
func KnownTools(tools []Tool) Known {
	var k Known
	seen := map[string]bool{}
	for _, list := range [][]Tool{CoreTools, tools} {
		for _, t := range list {
			if t.Toolset != "" && !seen["toolset:"+t.Toolset] {
				seen["toolset:"+t.Toolset] = true
				k.Toolsets = append(k.Toolsets, t.Toolset)
			}
			if t.Name != "" && !seen["tool:"+t.Name] {
				seen["tool:"+t.Name] = true
				k.Tools = append(k.Tools, t.Name)
			}
		}
	}
	return k
}
