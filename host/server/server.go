// Package server is the MCP endpoint of godot-mcp: it puts the gate, the
// exposure policy and the plugin supervisor behind one modelcontextprotocol
// go-sdk server, over stdio or streamable HTTP, for both protocol
// generations (2025-11-25 sessions and the sessionless 2026-07-28
// protocol).
//
// The wiring is a tree (ExampleNew): NewTools (the table of tools, the
// gate's Surface), then the gate on it, then New on both. LoggingSink turns
// events into notifications/message; RunStdio or ListenAndServe serve.
//
// # One registry, one decision
//
// Tools holds every installed tool, enabled or not (the registry), and
// registers on the go-sdk server only the tools of enabled toolsets, so
// the SDK's own bookkeeping sends notifications/tools/list_changed to every
// legacy session and every subscriptions/listen stream when the set changes.
// The go-sdk's tool table is only that mirror: it is never used to
// dispatch a call. One receiving middleware sits in front of the SDK:
//
//   - tools/list: the SDK's list, narrowed to what the Policy shows this
//     caller (the result differs per caller; its cacheScope is "private");
//   - tools/call: answered entirely by the server (answer, calls.go): the registry,
//     the same Policy check (TOOL_NOT_EXPOSED naming the layer), the gate
//     (a tool of a disabled toolset answers with the exact enable call),
//     the arguments checked once against the tool's schema (resolved once,
//     when the tool is registered), the safety check (confirm for a
//     destructive tool's real run), then the core tool or the plugin.
//
// Every failure on that path is a tool result with isError set whose text
// starts with the code (see sdk.Error.Text); tools without an output schema
// also get {code, message, hint, required, toolset, source} as structured
// content.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host/events"
	"github.com/godot-mcp/godot-mcp/host/exposure"
	"github.com/godot-mcp/godot-mcp/host/gate"
	"github.com/godot-mcp/godot-mcp/host/metrics"
	"github.com/godot-mcp/godot-mcp/host/supervisor"
	"github.com/godot-mcp/godot-mcp/host/workspace"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// Name is the implementation name the server reports to clients.
const Name = "godot-mcp"

// Plugins runs tools in plugin processes. *supervisor.Supervisor implements
// it; the wire types stay behind it.
type Plugins interface {
	Call(ctx context.Context, toolset string, req supervisor.CallRequest, onProgress func(supervisor.Progress)) (sdk.Result, error)
	Status(toolset string) supervisor.Status
}

// Policy decides what a caller may see and call. *exposure.Chain implements
// it. The same Policy answers tools/list and tools/call, so what a caller
// sees and what it may call cannot diverge.
type Policy interface {
	Evaluate(ctx exposure.Caller, tools []exposure.Tool) exposure.Decision
	Authorize(ctx exposure.Caller, t exposure.Tool) *sdk.Error
	Widens(ctx exposure.Caller, toolsetTools []exposure.Tool) (withheld []string, layer string)
}

var _ Policy = (*exposure.Chain)(nil)
var _ Plugins = (*supervisor.Supervisor)(nil)

// Options configure a Server. Tools and Gate are required; everything else
// has a working default.
type Options struct {
	// Version is the host version reported to clients.
	Version string
	// Tools is the table of tools, built before the gate (the gate's
	// Surface); see Tools.
	Tools *Tools
	// Logger receives the server's and the SDK's logs (nil: discard).
	Logger hclog.Logger
	// Gate owns the enabled set.
	Gate *gate.Gate
	// Plugins runs plugin tools; nil answers every plugin call with
	// PLUGIN_NOT_RUNNING.
	Plugins Plugins
	// Policy decides exposure; nil allows every classified tool (the
	// classification layer alone).
	Policy Policy
	// Bus receives the server's events (list changes, refused calls,
	// filtered lists); Ring holds the recent events godot_get_server_info
	// shows. Both may be nil.
	Bus  *events.Bus
	Ring *events.Ring
	// LocalTransport names callers that reach the server without HTTP:
	// exposure.TransportStdio (default) or exposure.TransportCLI for
	// `godot-mcp call`. LocalProfile is their profile.
	LocalTransport string
	LocalProfile   string
	// ProjectDir is the Godot project, for diagnostics and instructions.
	ProjectDir string
	// Problems reports the catalog's refused binaries for the health check.
	Problems func() []error
	// Workspace is the headless undo journal godot_undo, godot_redo and
	// godot_list_history walk; nil answers them with PRECONDITION_FAILED.
	Workspace *workspace.Host
	// Editor is the link to a Godot editor (host/bridge); nil when the
	// bridge is off. The undo tools forward through it and the diagnostics
	// show it.
	Editor Editor
	// Metrics counts calls per tool (host/metrics); nil counts nothing.
	Metrics *metrics.Registry
}

// Server is the MCP endpoint. Create it with New.
type Server struct {
	opts    Options
	log     hclog.Logger
	tools   *Tools
	mcp     *mcp.Server
	reg     *registry
	policy  Policy
	gate    *gate.Gate
	plugins Plugins
	bus     *events.Bus

	callSeq atomic.Uint64 // call ids for logs
	started time.Time

	filteredMu   sync.Mutex
	lastFiltered map[string]string // caller key -> signature of the last ToolsFiltered events
}

// New builds the server on its table of tools and the gate: the core tools
// and the middleware. The gate shows and hides toolsets' tools through
// Tools, its Surface, whether it toggles before or after New.
func New(opts Options) (*Server, error) {
	if opts.Gate == nil || opts.Tools == nil {
		return nil, errors.New("server: Options.Tools and Options.Gate are required")
	}
	if opts.Logger == nil {
		opts.Logger = hclog.NewNullLogger()
	}
	if opts.LocalTransport == "" {
		opts.LocalTransport = exposure.TransportStdio
	}
	s := &Server{
		opts:         opts,
		log:          opts.Logger,
		tools:        opts.Tools,
		mcp:          opts.Tools.mcp,
		reg:          opts.Tools.reg,
		policy:       opts.Policy,
		gate:         opts.Gate,
		plugins:      opts.Plugins,
		bus:          opts.Bus,
		started:      time.Now(),
		lastFiltered: map[string]string{},
	}
	if s.policy == nil {
		s.policy = exposure.Compose()
	}
	s.addCoreTools()
	s.addPrompts()
	s.addResources()
	s.mcp.AddReceivingMiddleware(s.middleware)
	return s, nil
}

// MCP returns the underlying go-sdk server, for transports and tests.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// RunStdio serves one client over stdin/stdout until the client hangs up
// or ctx ends.
func (s *Server) RunStdio(ctx context.Context) error {
	err := s.serveScreened(ctx, os.Stdin, os.Stdout)
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return nil
	}
	return err
}

// Connect serves one client over t (in-memory transports for `godot-mcp
// call` and tests).
func (s *Server) Connect(ctx context.Context, t mcp.Transport) (*mcp.ServerSession, error) {
	return s.mcp.Connect(ctx, t, nil)
}

// mirrorOnly is the go-sdk handler of every tool: the middleware answers
// every tools/call itself (answer), so the SDK never dispatches one.
func mirrorOnly(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return nil, errors.New("internal: the go-sdk dispatched a tools/call the server should have answered")
}

// addTool registers a tool on the go-sdk server's mirror. The SDK panics
// on a definition it refuses; that must cost one tool, not the host.
func addTool(srv *mcp.Server, t *mcp.Tool, h mcp.ToolHandler) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	srv.AddTool(t, h)
	return nil
}

// probeTool checks that the SDK accepts a tool definition, on a scratch
// server, so a bad definition is reported once at startup.
func probeTool(t *mcp.Tool) error {
	return addTool(probeServer, t, mirrorOnly)
}

var probeServer = mcp.NewServer(&mcp.Implementation{Name: "probe"}, &mcp.ServerOptions{Logger: slog.New(slog.DiscardHandler)})

// middleware is the server's one receiving middleware; see the package doc.
func (s *Server) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "tools/list":
			return s.listTools(ctx, next, method, req)
		case "tools/call":
			if ctr, ok := req.(*mcp.CallToolRequest); ok {
				growStack(0)
				res, err := s.observedCall(ctx, ctr)
				if r, ok := res.(*mcp.CallToolResult); ok && err == nil && r != nil && speaksResultType(ctr) {
					res = markComplete(r)
				}
				return res, err
			}
		case "initialize":
			res, err := next(ctx, method, req)
			if r, ok := res.(*mcp.InitializeResult); ok && err == nil {
				r.Instructions = s.instructions(s.caller(req))
			}
			return res, err
		case "server/discover":
			res, err := next(ctx, method, req)
			if r, ok := res.(*mcp.DiscoverResult); ok && err == nil {
				r.Instructions = s.instructions(s.caller(req))
				if r.Capabilities != nil {
					// The host's events reach 2025-11-25 sessions only
					// (LoggingSink); stateless discovery declares only what
					// it serves, so not logging.
					c := *r.Capabilities
					//lint:ignore SA1019 removing the deprecated capability is the point
					c.Logging = nil
					r.Capabilities = &c
				}
			}
			return res, err
		case "resources/list", "resources/templates/list":
			return s.listResources(ctx, next, method, req)
		case "resources/subscribe", "resources/unsubscribe", "completion/complete":
			// Not declared, so not served: the go-sdk would answer these
			// as if they were, which a client (and the MCP conformance
			// suite) reads as a capability the server never declared.
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound,
				Message: fmt.Sprintf("%s: godot-mcp serves no resource subscriptions or completions", method)}
		case "subscriptions/listen":
			s.tools.listeners.Add(1)
			defer s.tools.listeners.Add(-1)
		}
		return next(ctx, method, req)
	}
}

// listTools narrows the SDK's list (the enabled toolsets' tools, sorted by
// name) to what the policy shows this caller.
func (s *Server) listTools(ctx context.Context, next mcp.MethodHandler, method string, req mcp.Request) (mcp.Result, error) {
	res, err := next(ctx, method, req)
	lr, ok := res.(*mcp.ListToolsResult)
	if err != nil || !ok {
		return res, err
	}
	caller := s.caller(req)
	cands := make([]exposure.Tool, 0, len(lr.Tools))
	for _, t := range lr.Tools {
		if e, ok := s.reg.lookup(t.Name); ok {
			cands = append(cands, e.ref)
		}
	}
	d := s.policy.Evaluate(caller, cands)
	visible := make(map[string]bool, len(d.Visible))
	for _, t := range d.Visible {
		visible[t.Name] = true
	}
	kept := make([]*mcp.Tool, 0, len(d.Visible))
	for _, t := range lr.Tools {
		if visible[t.Name] {
			kept = append(kept, t)
		}
	}
	lr.Tools = kept
	s.emitFiltered(caller, d)
	return lr, nil
}

// emitFiltered reports what the policy withheld, once per caller and
// outcome: a client that lists every few seconds must not flood the event
// ring with the same news.
func (s *Server) emitFiltered(caller exposure.Caller, d exposure.Decision) {
	if s.opts.Bus == nil {
		return
	}
	evs := exposure.FilteredEvents(d)
	var sig strings.Builder
	for _, e := range evs {
		fmt.Fprintf(&sig, "%s;", e.Message)
		fmt.Fprint(&sig, e.Fields["excluded"])
	}
	key := caller.Principal + "\x00" + caller.Profile + "\x00" + caller.TransportKey()
	s.filteredMu.Lock()
	same := s.lastFiltered[key] == sig.String()
	s.lastFiltered[key] = sig.String()
	s.filteredMu.Unlock()
	if same {
		return
	}
	for _, e := range evs {
		s.opts.Bus.Emit(e)
	}
}

// Listeners returns the number of open subscriptions/listen streams.
func (s *Server) Listeners() int64 { return s.tools.listeners.Load() }

// ToolNames returns every installed tool's exposed name, sorted, whether its
// toolset is enabled or not (for "did you mean" hints).
func (s *Server) ToolNames() []string {
	all := s.reg.all()
	out := make([]string, len(all))
	for i, e := range all {
		out[i] = e.ref.Name
	}
	return out
}

// ToolsetOf returns the toolset of an exposed tool name, for tools of every
// installed toolset, enabled or not.
func (s *Server) ToolsetOf(tool string) (string, bool) {
	e, ok := s.reg.lookup(tool)
	if !ok {
		return "", false
	}
	return e.ref.Toolset, true
}

// callStackBytes is about the stack a tools/call takes on the goroutine the
// go-sdk starts for it: the argument check, the plugin call (the call
// pipe's caller decodes the plugin's result itself) and the go-sdk's
// encoding of the answer.
const callStackBytes = 20 << 10

// growStack grows the calling goroutine's stack to hold callStackBytes
// more, in one step, while the stack is still shallow. Every request runs
// on a new goroutine with a small stack; grown piecemeal, deep in the call,
// each growth copies the stack and adjusts every frame on it, which was a
// tenth of the host's CPU per tools/call.
//
//go:noinline
func growStack(i int) byte {
	var pad [callStackBytes]byte
	pad[i%len(pad)] = 1
	return pad[(i+1)%len(pad)]
}
