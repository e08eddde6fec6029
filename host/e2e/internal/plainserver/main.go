// Command plainserver is the baseline of the tools/call benchmark: a plain
// go-sdk MCP server over stdio with the gatetest toolset's read tool
// registered in-process, the same input type and the same answer, and
// nothing else (no gate, no policy, no plugin process).
package main

import (
	"context"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type readIn struct {
	Path string `json:"path,omitempty" jsonschema:"a path to read"`
}

type callOut struct {
	Tool   string `json:"tool"`
	Args   readIn `json:"args"`
	DryRun bool   `json:"dry_run"`
}

func main() {
	s := mcp.NewServer(&mcp.Implementation{Name: "plain", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "read", Description: "Read something (read-only)."},
		func(_ context.Context, _ *mcp.CallToolRequest, in readIn) (*mcp.CallToolResult, callOut, error) {
			return nil, callOut{Tool: "read", Args: in}, nil
		})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Print(err)
	}
}
