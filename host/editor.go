package host

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/go-hclog"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/host/events"
	"github.com/godot-mcp/godot-mcp/host/gate"
	"github.com/godot-mcp/godot-mcp/host/server"
	"github.com/godot-mcp/godot-mcp/host/workspace"
	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
)

// The editor bridge is wired in two steps that keep host.New a tree: the
// bridge is built first (newBridge), because the supervisor serves plugins
// its HostEditor and the server forwards the undo tools through it; it is
// started last (startBridge), with the parts built after it as Hooks, so
// no editor can attach before they exist:
//   - the attached editor's Godot version becomes the one the gate checks,
//     and the flag's or project's again when it leaves (the gate turns off
//     what the new version does not satisfy, with an event and list_changed);
//   - the workspace refuses writes over scenes open in the editor and asks
//     it to reload what changed;
//   - the editor dock is pushed the enabled set on attach and after every
//     toggle, without ever holding up the toggle.

// newBridge builds the editor bridge when Options.BridgeURL is set; nil
// otherwise.
func newBridge(opts Options, bus *events.Bus, log hclog.Logger) (*bridge.Bridge, error) {
	if opts.BridgeURL == "" {
		return nil, nil
	}
	return bridge.New(bridge.Options{
		URL:         opts.BridgeURL,
		Token:       opts.BridgeToken,
		TokenFile:   opts.BridgeTokenFile,
		HostVersion: opts.Version,
		Logger:      log.Named("bridge"),
		Bus:         bus,
	})
}

// startBridge starts listening with the hooks to the gate and the
// workspace. A taken port is logged and retried; the host serves headless
// meanwhile.
func startBridge(b *bridge.Bridge, g *gate.Gate, ws *workspace.Host, bus *events.Bus, log hclog.Logger, godot, source string) {
	if b == nil {
		return
	}
	bus.Subscribe(events.EnabledSetSink(func([]string) error {
		b.PushToolsets(g.EnabledSet())
		return nil
	}))
	send := func(ctx context.Context, command string, params any) (json.RawMessage, error) {
		return b.Request(ctx, command, params, 0)
	}
	onPeer := func(p *bridge.Peer) {
		if p == nil {
			ws.SetEditor(nil)
			g.SetGodotVersion(context.Background(), godot, source)
			return
		}
		ws.SetEditor(&workspace.AddonEditor{Send: send})
		if p.GodotVersion != "" {
			g.SetGodotVersion(context.Background(), p.GodotVersion, VersionFromEditor)
		}
	}
	if err := b.Start(bridge.Hooks{OnPeer: onPeer, Enabled: g.EnabledSet}); err == nil {
		log.Info("editor bridge listening; the godot-mcp addon connects by itself", "url", b.URL())
	}
}

// hostEditor is what the supervisor serves plugins as HostEditor: nil
// (every command BRIDGE_DISCONNECTED) without a bridge.
func hostEditor(b *bridge.Bridge) pb.HostEditorServer {
	if b == nil {
		return nil
	}
	return b.HostEditor()
}

// editorOf is the server's editor link; a nil interface without a bridge.
func editorOf(b *bridge.Bridge) server.Editor {
	if b == nil {
		return nil
	}
	return b
}
