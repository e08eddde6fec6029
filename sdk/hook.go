package sdk

import (
	"fmt"
	"io"

	"github.com/godot-mcp/godot-mcp/sdk/internal/hook"
)

func init() {
	hook.NewServer = func(toolset any, stderr io.Writer) (hook.Server, error) {
		ts, ok := toolset.(*Toolset)
		if !ok {
			return nil, fmt.Errorf("want *sdk.Toolset, got %T", toolset)
		}
		return newServer(ts, stderr)
	}
}
