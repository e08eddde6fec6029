package host

import (
	"context"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/host/server"
	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
)

// newBridge builds the editor bridge when Options.BridgeURL is set. It is
// wired to the rest of the host in one place:
//   - plugins' HostEditor calls (Call.Editor) go through it (hostEditor);
//   - the core undo tools and the diagnostics use it (editor);
//   - the attached editor's Godot version is the one the gate checks, and
//     the project's again when it leaves (editorChanged);
//   - the editor dock is pushed the enabled set on attach and after every
//     toggle (startBridge), without ever holding up the toggle.
func (h *Host) newBridge(opts Options) error {
	if opts.BridgeURL == "" {
		return nil
	}
	b, err := bridge.New(bridge.Options{
		URL:         opts.BridgeURL,
		Token:       opts.BridgeToken,
		HostVersion: opts.Version,
		Logger:      h.log.Named("bridge"),
		Bus:         h.Bus,
		OnPeer:      h.editorChanged,
		Enabled:     func() []string { return h.Gate.EnabledSet() },
	})
	if err != nil {
		return err
	}
	h.Bridge = b
	return nil
}

// startBridge starts listening, once the enabled set is seeded, and keeps
// the editor dock current. A taken port is logged and retried; the host
// serves headless meanwhile.
func (h *Host) startBridge() {
	if h.Bridge == nil {
		return
	}
	h.OnEnabledSet(func([]string) error {
		h.Bridge.PushToolsets(h.Gate.EnabledSet())
		return nil
	})
	if err := h.Bridge.Start(); err == nil {
		h.log.Info("editor bridge listening; the godot-mcp addon connects by itself", "url", h.Bridge.URL())
	}
}

// editorChanged makes the attached editor's Godot version the one the gate
// checks, and restores the flag's or the project's when it leaves. The gate
// turns off every enabled toolset the new version does not satisfy, with an
// event and list_changed.
func (h *Host) editorChanged(p *bridge.Peer) {
	if p != nil && p.GodotVersion != "" {
		h.Gate.SetGodotVersion(context.Background(), p.GodotVersion, VersionFromEditor)
		return
	}
	if p == nil {
		h.Gate.SetGodotVersion(context.Background(), h.godot, h.source)
	}
}

// hostEditor is what the supervisor serves plugins as HostEditor: nil
// (every command BRIDGE_DISCONNECTED) without a bridge.
func (h *Host) hostEditor() pb.HostEditorServer {
	if h.Bridge == nil {
		return nil
	}
	return h.Bridge.HostEditor()
}

// editor is the server's editor link; a nil interface without a bridge.
func (h *Host) editor() server.Editor {
	if h.Bridge == nil {
		return nil
	}
	return h.Bridge
}
