package bridge

import (
	"strings"
	"time"
)

// Status is a snapshot of the bridge for diagnostics (godot_get_server_info,
// godot_health_check). It marshals to the JSON those tools show.
type Status struct {
	// URL is where the addon should dial; Listening says whether the host
	// listens there, ListenError why not.
	URL         string `json:"url"`
	Listening   bool   `json:"listening"`
	ListenError string `json:"listen_error,omitempty"`
	// AuthRequired says the host expects GODOT_MCP_BRIDGE_TOKEN (never the
	// token itself).
	AuthRequired bool `json:"auth_required"`
	// TokenFile is the per-install token file the token was read from;
	// empty when it came from GODOT_MCP_BRIDGE_TOKEN or there is none.
	TokenFile string `json:"token_file,omitempty"`
	// Connected says an editor is attached; the fields below describe it.
	Connected    bool       `json:"connected"`
	ProjectPath  string     `json:"project_path,omitempty"`
	GodotVersion string     `json:"godot_version,omitempty"`
	AddonVersion string     `json:"addon_version,omitempty"`
	Remote       string     `json:"remote,omitempty"`
	ConnectedAt  *time.Time `json:"connected_at,omitempty"`
	// ConnectedSeconds is how long the editor has been attached.
	ConnectedSeconds float64 `json:"connected_seconds,omitempty"`
	// AddonCommands is how many commands the addon reported in
	// cmd_get_addon_info; -1 when it did not say (an older addon).
	AddonCommands int `json:"addon_commands"`
	// Drift lists commands the host was asked to send that the attached
	// addon does not have: the addon and host versions disagree.
	Drift []string `json:"drift,omitempty"`
	// InFlight is the number of requests waiting for the editor.
	InFlight int `json:"in_flight"`
	// CommandsSent counts commands written to editors since start.
	CommandsSent uint64 `json:"commands_sent"`
	// Replacements and AuthRefusals count editors replaced by another and
	// connections refused for a missing or wrong token.
	Replacements int `json:"replacements"`
	AuthRefusals int `json:"auth_refusals"`
	// RefusedRequests counts HTTP requests refused before they became a
	// socket: from a web page (an Origin header), to a Host that is not
	// the bridge's loopback address, or not a WebSocket upgrade at all.
	RefusedRequests int `json:"refused_requests"`
	// LastError is the latest failure (timeout, bad frame, disconnect), and
	// LastErrorAt when it happened.
	LastError   string     `json:"last_error,omitempty"`
	LastErrorAt *time.Time `json:"last_error_at,omitempty"`
}

// Status returns a snapshot of the bridge.
func (b *Bridge) Status() Status {
	b.mu.Lock()
	s := Status{
		URL:             b.dialURL(),
		Listening:       b.ln != nil,
		AuthRequired:    b.opts.Token != "",
		TokenFile:       b.opts.TokenFile,
		Replacements:    b.replaced,
		AuthRefusals:    b.refused,
		RefusedRequests: b.refusedRequests,
		LastError:       b.lastErr,
		AddonCommands:   -1,
	}
	if b.listenErr != nil {
		s.ListenError = b.listenErr.Error()
	}
	if !b.lastErrAt.IsZero() {
		t := b.lastErrAt
		s.LastErrorAt = &t
	}
	b.mu.Unlock()
	s.CommandsSent = b.sent.Load()
	if p := b.active.Load(); p != nil {
		id := p.identity()
		s.Connected = true
		s.ProjectPath, s.GodotVersion, s.AddonVersion, s.Remote = id.ProjectPath, id.GodotVersion, id.AddonVersion, id.Remote
		t := id.ConnectedAt
		s.ConnectedAt = &t
		s.ConnectedSeconds = time.Since(t).Round(time.Millisecond).Seconds()
		s.Drift = p.drift()
		p.mu.Lock()
		if p.info != nil && p.info.has != nil {
			s.AddonCommands = len(p.info.Commands)
		}
		s.InFlight = p.inFlight
		p.mu.Unlock()
	}
	return s
}

// Connected reports whether an editor is attached.
func (b *Bridge) Connected() bool { return b.active.Load() != nil }

// URL returns the bridge URL the addon should dial: Options.URL, with the
// port the bridge got when that URL asked for port 0.
func (b *Bridge) URL() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.dialURL()
}

// dialURL is URL with b.mu held.
func (b *Bridge) dialURL() string {
	if b.ln != nil && strings.HasSuffix(b.addr, ":0") {
		return "ws://" + b.ln.Addr().String()
	}
	return b.url
}
