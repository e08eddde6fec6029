package sdk

import (
	"context"
	"sync"

	"github.com/hashicorp/go-hclog"
	"google.golang.org/grpc"

	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
)

// Call is one invocation of a tool: who is calling, in which environment,
// and the channels back to the host (progress, logs, the Godot editor).
type Call struct {
	// Tool is the bare name of the tool being called.
	Tool string
	// DryRun is set when the caller asked for a dry run: report what would
	// change and change nothing. The host only sets it for mutating and
	// destructive tools, and every such tool must honour it.
	DryRun bool
	// Env is the environment from the host's latest Configure.
	Env Env
	// CallID identifies the call in the host's logs.
	CallID string
	// EditorAttached says a Godot editor is attached to the host for this
	// call. A tool that works in both modes forwards to the editor with
	// [Call.Editor] when it is set, and works on the project files through
	// [Call.Workspace] when it is not (headless mode).
	EditorAttached bool

	srv *server
	// host carries the call's host service requests when it came over the
	// call pipe; nil: the broker connection (hostServices).
	host grpc.ClientConnInterface

	mu      sync.Mutex
	logger  hclog.Logger              // built on first use: most calls never log
	send    func(*pb.CallEvent) error // nil when there is no stream
	done    bool
	project *Project // opened on first use by Project
	// godotVersion caches Workspace.GodotVersion for the call; nil until
	// first asked.
	godotVersion *string

	// ed is the call's Editor, made on first use (editor mode only).
	ed *Editor
	// viaEditor says the call runs the tool's editor path (not its handler
	// on the files).
	viaEditor bool
	// changes are the file changes of the call's dry-run commits, for the
	// preview.
	changes []FileChange
}

// Progress reports how far the call has got; total is 0 when unknown. The
// host forwards it to the caller as an MCP progress notification. It is safe
// to call from any goroutine and cheap (one small message), but for loops
// over thousands of items report every N items, not every item. Progress
// after the handler has returned is dropped.
func (c *Call) Progress(done, total float64, message string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done || c.send == nil {
		return
	}
	ev := progressToWire(done, total, message)
	if err := c.send(ev); err != nil {
		// The stream is gone (the caller cancelled); the handler learns
		// that from its context, so further progress is simply dropped.
		c.done = true
	}
}

// finish stops progress: from here on the stream belongs to the result.
func (c *Call) finish() {
	c.mu.Lock()
	c.done = true
	c.mu.Unlock()
}

// Logger returns a logger for this call. Lines go to the host's log through
// its HostLog service, tagged with the tool and call id; without a host they
// go to stderr, which the host also captures. Never write to stdout.
func (c *Call) Logger() hclog.Logger {
	if c == nil || c.srv == nil {
		return hclog.NewNullLogger()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.logger == nil {
		c.logger = c.srv.logger.With("tool", c.Tool, "call_id", c.CallID)
	}
	return c.logger
}

// Editor runs a command on the Godot peer the host is attached to (the
// editor addon, or the headless peer working on the project files). params
// is marshalled to JSON; the reply is unmarshalled into result unless result
// is nil.
//
// A failure reported by the peer is returned as *[Error], its code already
// the one an agent gets for the same mistake headless: the host maps the
// addon's codes (RESOURCE_NOT_FOUND is NOT_FOUND, VALIDATION_ERROR is
// INVALID_ARGUMENT, a command the addon lacks is PRECONDITION_FAILED with
// Required "addon_command"; see package addonerr). Return it from the
// handler unchanged and the caller sees it. When no peer is attached the
// code is BRIDGE_DISCONNECTED.
func (c *Call) Editor(ctx context.Context, command string, params, result any) error {
	if c == nil || c.srv == nil {
		return errNoEditor("this call is not connected to a godot-mcp host")
	}
	return c.srv.editor(ctx, c, command, params, result)
}

// Forward runs command on the peer like Editor and answers the peer's reply,
// a JSON object, unchanged as the tool's result: the editor path of a tool
// whose headless answer has the same shape.
func (c *Call) Forward(ctx context.Context, command string, params any) (Result, error) {
	var out map[string]any
	if err := c.Editor(ctx, command, params, &out); err != nil {
		return Result{}, err
	}
	return JSON(out), nil
}

// hostServices is where this call's requests to the host services go: the
// call pipe the call came on, or else the broker connection.
func (c *Call) hostServices() (grpc.ClientConnInterface, error) {
	if c.host != nil {
		return c.host, nil
	}
	return c.srv.hostConn()
}
