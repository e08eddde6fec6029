// Package wire is where the godot-mcp host and a toolset plugin meet: the
// go-plugin handshake, the plugin set, and the environment contract. Both
// sides import it, so the two can never disagree about these constants.
//
// Toolset authors do not need this package; sdk.Serve uses it for them.
// Authors of toolsets in other languages find the same facts, spelled out, in
// docs/plugin-protocol.md.
package wire

import (
	"context"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
)

// ProtocolVersion is the version of the toolset protocol (toolset.proto). A
// plugin and the host negotiate it through go-plugin's VersionedPlugins; a
// future incompatible protocol gets a new number and both are served side by
// side for a while.
const ProtocolVersion = 1

// PluginName is the key of the toolset plugin in the go-plugin plugin set.
const PluginName = "toolset"

// Handshake is the go-plugin handshake of every godot-mcp toolset.
//
// These values must NEVER change: they are how a plugin binary recognises that
// it was started by a godot-mcp host, and changing them breaks every toolset
// ever built. The cookie is not a secret; it only stops a plugin from being
// run by accident.
var Handshake = plugin.HandshakeConfig{
	ProtocolVersion:  ProtocolVersion,
	MagicCookieKey:   "GODOT_MCP_TOOLSET_PLUGIN",
	MagicCookieValue: "6c1f3f0a-godot-mcp-toolset-d2b7e94c5a1e",
}

// LifelineFDEnv names the environment variable through which the host tells a
// plugin the file descriptor number of its lifeline: the read end of a pipe
// whose write end only the host holds. When the host process dies for any
// reason, even SIGKILL, the kernel closes the write end, the plugin reads EOF,
// and it must exit. This is why a plugin never needs the host's stdin (which
// is the MCP stream and must not be shared).
const LifelineFDEnv = "GODOT_MCP_LIFELINE_FD"

// InstanceEnv names the environment variable that marks one run of a
// plugin: the host sets it to a random value at every start. Processes the
// plugin starts inherit it, which lets the host find and kill them when the
// plugin is gone, even after they left its process group and were
// re-parented. A plugin must pass its environment on to what it starts for
// this to work; it has no other use.
const InstanceEnv = "GODOT_MCP_INSTANCE"

// MaxMessageBytes bounds every gRPC message in either direction (plugin
// results, arguments, editor replies such as screenshots). Both sides set it
// so a misbehaving peer cannot make the other allocate without limit.
const MaxMessageBytes = 64 << 20

// windowBytes is the fixed HTTP/2 flow-control window of every stream and
// connection. A fixed window turns off gRPC's bandwidth-delay estimation,
// which on a local socket only costs: it sends a PING (and gets an ACK) for
// nearly every call, two extra frames and wakeups on each side. 16 MiB is
// the ceiling the estimation itself would grow to, so large messages flow
// as fast as before.
const windowBytes = 16 << 20

// GRPCServerOptions are the options both sides use for gRPC servers
// (the plugin's Toolset server and the host's broker services).
func GRPCServerOptions() []grpc.ServerOption {
	return []grpc.ServerOption{
		grpc.MaxRecvMsgSize(MaxMessageBytes),
		grpc.MaxSendMsgSize(MaxMessageBytes),
		grpc.StaticStreamWindowSize(windowBytes),
		grpc.StaticConnWindowSize(windowBytes),
	}
}

// GRPCDialOptions are the options both sides use for gRPC client connections.
func GRPCDialOptions() []grpc.DialOption {
	return []grpc.DialOption{
		grpc.WithDefaultCallOptions(
			grpc.MaxCallRecvMsgSize(MaxMessageBytes),
			grpc.MaxCallSendMsgSize(MaxMessageBytes),
		),
		grpc.WithStaticStreamWindowSize(windowBytes),
		grpc.WithStaticConnWindowSize(windowBytes),
	}
}

// ToolsetPlugin is the go-plugin plugin for the Toolset service. On the plugin
// side Impl is the implementation; on the host side Impl is nil and
// Dispense returns a *Client.
type ToolsetPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	Impl pb.ToolsetServer
}

var _ plugin.GRPCPlugin = (*ToolsetPlugin)(nil)

// GRPCServer registers the toolset implementation. It also makes the broker
// available to the implementation when it wants it (see BrokerAware).
func (p *ToolsetPlugin) GRPCServer(broker *plugin.GRPCBroker, s *grpc.Server) error {
	if ba, ok := p.Impl.(BrokerAware); ok {
		ba.SetBroker(broker)
	}
	pb.RegisterToolsetServer(s, p.Impl)
	return nil
}

// GRPCClient returns the host's view of a running plugin.
func (p *ToolsetPlugin) GRPCClient(_ context.Context, broker *plugin.GRPCBroker, c *grpc.ClientConn) (interface{}, error) {
	return &Client{Toolset: pb.NewToolsetClient(c), Broker: broker}, nil
}

// BrokerAware is implemented by a plugin-side Toolset server that needs the
// go-plugin broker to dial the host services announced in Configure.
type BrokerAware interface {
	SetBroker(*plugin.GRPCBroker)
}

// Client is what the host gets from Dispense: the Toolset client plus the
// broker on which the host serves HostLog and HostEditor.
type Client struct {
	Toolset pb.ToolsetClient
	Broker  *plugin.GRPCBroker
}

// PluginSets returns the VersionedPlugins map for a go-plugin client or
// server. impl is nil on the host side.
func PluginSets(impl pb.ToolsetServer) map[int]plugin.PluginSet {
	return map[int]plugin.PluginSet{
		ProtocolVersion: {PluginName: &ToolsetPlugin{Impl: impl}},
	}
}
