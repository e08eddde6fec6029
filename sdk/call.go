package sdk

import (
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
	// mode is how this call reaches Godot, as the host decided: editor
	// mode when an editor is attached. The SDK dispatches on it (modes.go);
	// a tool reads it with Mode.
	mode Mode

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
	// saveInEditor is the editor's scene that Editor.OnSceneFile lets this
	// call's commits write (WorkspaceCommitRequest.save_in_editor).
	saveInEditor string
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

// Mode is the mode this call runs in: ModeEditor when a Godot editor is
// attached, else ModeHeadless. The SDK already ran the tool's path for it;
// a tool needs it only to say which mode answered.
func (c *Call) Mode() Mode { return c.mode }

// hostServices is where this call's requests to the host services go: the
// call pipe the call came on, or else the broker connection.
func (c *Call) hostServices() (grpc.ClientConnInterface, error) {
	if c.host != nil {
		return c.host, nil
	}
	return c.srv.hostConn()
}
