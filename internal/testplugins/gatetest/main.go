// Command gatetest is a test toolset for the host's gate and safety policy:
// it has one tool of each safety class and a Godot constraint, and it
// records every call it receives, so a test can prove that a refused call
// never reached it. It is built by the host's tests, never shipped.
//
// Set GODOT_MCP_TEST_CALL_LOG to a file; each call appends one JSON line
// {"tool", "args", "dry_run"} to it before the tool runs.
package main

import (
	"context"
	"encoding/json"
	"os"
	"sync"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// CallLogEnv names the file the plugin appends every call to.
const CallLogEnv = "GODOT_MCP_TEST_CALL_LOG"

type readIn struct {
	Path string `json:"path,omitempty" jsonschema:"a path to read"`
}

type renameIn struct {
	From string `json:"from" jsonschema:"node to rename"`
	To   string `json:"to" jsonschema:"new name"`
}

type deleteIn struct {
	Path string `json:"path" jsonschema:"node to delete"`
}

type slowIn struct {
	Steps int `json:"steps" jsonschema:"progress events to send"`
}

type callOut struct {
	Tool   string          `json:"tool"`
	Args   json.RawMessage `json:"args"`
	DryRun bool            `json:"dry_run"`
}

var logMu sync.Mutex

// record appends the call to the call log and returns what it wrote, so
// every tool can answer with what it saw.
func record(call *sdk.Call, in any) callOut {
	args, _ := json.Marshal(in)
	out := callOut{Tool: call.Tool, Args: args, DryRun: call.DryRun}
	if path := os.Getenv(CallLogEnv); path != "" {
		line, _ := json.Marshal(out)
		logMu.Lock()
		defer logMu.Unlock()
		f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err == nil {
			_, _ = f.Write(append(line, '\n'))
			_ = f.Close()
		}
	}
	return out
}

func main() {
	sdk.Serve(&sdk.Toolset{
		Name:        "gatetest",
		Version:     "1.0.0",
		Description: "Test toolset with one tool per safety class; records every call it receives.",
		Godot:       ">= 4.4",
		Tools: []sdk.Tool{
			sdk.NewTool("read", "Read something (read-only).", sdk.ReadOnly,
				func(_ context.Context, call *sdk.Call, in readIn) (sdk.Result, error) {
					return sdk.JSON(record(call, in)), nil
				}),
			sdk.NewTool("rename", "Rename a node (mutating).", sdk.Mutating,
				func(_ context.Context, call *sdk.Call, in renameIn) (sdk.Result, error) {
					return sdk.JSON(record(call, in)), nil
				}),
			sdk.NewTool("delete", "Delete a node (destructive).", sdk.Destructive,
				func(_ context.Context, call *sdk.Call, in deleteIn) (sdk.Result, error) {
					return sdk.JSON(record(call, in)), nil
				}),
			sdk.NewTool("slow", "Report progress steps, then answer (read-only).", sdk.ReadOnly,
				func(_ context.Context, call *sdk.Call, in slowIn) (sdk.Result, error) {
					for i := range in.Steps {
						call.Progress(float64(i+1), float64(in.Steps), "step")
					}
					return sdk.JSON(record(call, in)), nil
				}),
			sdk.NewTool("fail", "Fail with a structured error (read-only).", sdk.ReadOnly,
				func(_ context.Context, call *sdk.Call, in struct{}) (sdk.Result, error) {
					record(call, in)
					return sdk.Result{}, sdk.Errorf("NOT_FOUND", "pass a path that exists", "no node at %q", "/root/missing")
				}),
		},
	})
}
