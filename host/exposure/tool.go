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

// The transports a Caller can name.
const (
	TransportStdio = "stdio"
	// TransportHTTP is streamable HTTP; Caller.Loopback says whether the
	// peer address is a loopback address.
	TransportHTTP = "http"
	// TransportCLI is `godot-mcp call`: the operator at the terminal. It is
	// the only transport that may reach cli-scoped tools, and it has no
	// ceiling.
	TransportCLI = "cli"
)

// Caller describes the caller a decision is made for.
type Caller struct {
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
func (ctx Caller) TransportKey() string {
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
const CoreToolset = manifest.CoreToolset

// ExposedName composes the name agents see for a tool of a toolset.
func ExposedName(toolset, tool string) string { return manifest.ExposedName(toolset, tool) }

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

// KnownTools derives Known from candidate tools, which should include the
// host's core tools (server.CoreTools). The core toolset is always
// included.
func KnownTools(tools []Tool) Known {
	k := Known{Toolsets: []string{CoreToolset}}
	seen := map[string]bool{"toolset:" + CoreToolset: true}
	for _, list := range [][]Tool{tools} {
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
