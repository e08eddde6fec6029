// Package hook lets sdktest reach the SDK's gRPC implementation of a toolset
// without making it part of the sdk package's public API.
package hook

import (
	"io"

	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
	"github.com/godot-mcp/godot-mcp/sdk/wire"
)

// Server is the plugin side of a toolset: the Toolset service, the broker
// hook, and Close to release the connection to the host services.
type Server interface {
	pb.ToolsetServer
	wire.BrokerAware
	Close() error
}

// NewServer builds the Server for a *sdk.Toolset (passed as any to avoid an
// import cycle). The sdk package sets it in init.
var NewServer func(toolset any, stderr io.Writer) (Server, error)
