// Command noisy is a test toolset that breaks the rule every plugin must
// keep: it prints to stdout before the go-plugin handshake. The host must
// refuse it with an error that names it.
package main

import (
	"context"
	"fmt"

	"github.com/godot-mcp/godot-mcp/sdk"
)

func init() {
	fmt.Println("noisy: hello from init, on stdout")
}

func main() {
	sdk.Serve(&sdk.Toolset{
		Name:        "noisy",
		Version:     "1.0.0",
		Description: "Test toolset that prints to stdout before the handshake.",
		Tools: []sdk.Tool{
			sdk.NewTool("ping", "Answer pong.", sdk.ReadOnly,
				func(context.Context, *sdk.Call, struct{}) (sdk.Result, error) {
					return sdk.Text("pong"), nil
				}),
		},
	})
}
