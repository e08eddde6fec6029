// Package server is the MCP endpoint of godot-mcp: it puts the gate, the
// exposure policy and the plugin supervisor behind one modelcontextprotocol
// go-sdk server, over stdio or streamable HTTP, for both protocol
// generations (2025-11-25 sessions and the sessionless 2026-07-28
// protocol).
//
//	srv, err := server.New(server.Options{Version: v, Gate: g, Plugins: sup, Policy: chain, Bus: bus, Ring: ring})
//	g.Attach(srv)                          // the gate shows and hides tools through the server
//	bus.Subscribe(srv.LoggingSink())       // events become notifications/message
//	err = srv.RunStdio(ctx)                // or: srv.ListenAndServe(ctx, server.HTTPOptions{Addr: "127.0.0.1:8765"})
//
// # One registry, one decision
//
// The server mirrors every installed tool, enabled or not (the registry),
// and registers on the go-sdk server only the tools of enabled toolsets, so
// the SDK's own bookkeeping sends notifications/tools/list_changed to every
// legacy session and every subscriptions/listen stream when the set changes.
// One receiving middleware sits in front of the SDK:
//
//   - tools/list: the SDK's list, narrowed to what the Policy shows this
//     caller (the result differs per caller; its cacheScope is "private");
//   - tools/call: the same Policy check (TOOL_NOT_EXPOSED naming the layer),
//     then the gate (a tool of a disabled toolset answers with the exact
//     enable call), then the tool's handler, which validates the arguments
//     against the tool's schema (resolved once, when the tool is
//     registered), then the safety check (confirm for destructive tools),
//     then the plugin.
//
// Every failure on that path is a tool result with isError set and
// {code, message, hint, required, toolset} as structured content.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
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
	"github.com/godot-mcp/godot-mcp/host/supervisor"
	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
)

// Name is the implementation name the server reports to clients.
const Name = "godot-mcp"

// Plugins runs tools in plugin processes. *supervisor.Supervisor implements it.
type Plugins interface {
	Call(ctx context.Context, toolset string, req supervisor.CallRequest, onProgress func(*pb.Progress)) (*pb.CallResult, error)
	Status(toolset string) supervisor.Status
}

// Policy decides what a caller may see and call. *exposure.Chain implements
// it. The same Policy answers tools/list and tools/call, so what a caller
// sees and what it may call cannot diverge.
type Policy interface {
	Evaluate(ctx exposure.Context, tools []exposure.Tool) exposure.Decision
	Authorize(ctx exposure.Context, t exposure.Tool) error
	Widens(ctx exposure.Context, toolsetTools []exposure.Tool) (withheld []string, layer string)
}

var _ Policy = (*exposure.Chain)(nil)
var _ Plugins = (*supervisor.Supervisor)(nil)
var _ gate.Surface = (*Server)(nil)

// Options configure a Server. Gate is required; everything else has a
// working default.
type Options struct {
	// Version is the host version reported to clients.
	Version string
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
	// ListTTL is the ttlMs hint on tools/list and server/discover results.
	// The default 0 tells clients to re-list every time, because any
	// connection may toggle a toolset; list_changed covers clients that
	// keep a cache, but a client may list again before it arrives.
	ListTTL time.Duration
	// Problems reports the catalog's refused binaries for the health check.
	Problems func() []error
	// Editor is the link to a Godot editor (host/bridge); nil when the
	// bridge is off. The undo tools forward through it and the diagnostics
	// show it.
	Editor Editor
}

// Server is the MCP endpoint. Create it with New.
type Server struct {
	opts   Options
	log    hclog.Logger
	mcp    *mcp.Server
	reg    *registry
	policy Policy

	listeners atomic.Int64  // open subscriptions/listen streams
	callSeq   atomic.Uint64 // call ids for logs
	started   time.Time

	filteredMu   sync.Mutex
	lastFiltered map[string]string // caller key -> signature of the last ToolsFiltered events
}

// New builds the server: the registry of every installed tool, the core
// tools, and the middleware. It shows the tools of toolsets the gate already
// has on.
func New(opts Options) (*Server, error) {
	if opts.Gate == nil {
		return nil, errors.New("server: Options.Gate is required")
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
		reg:          newRegistry(),
		policy:       opts.Policy,
		started:      time.Now(),
		lastFiltered: map[string]string{},
	}
	if s.policy == nil {
		s.policy = exposure.Compose()
	}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: Name, Title: "Godot MCP", Version: opts.Version}, &mcp.ServerOptions{
		Instructions: s.instructions(exposure.Context{Transport: opts.LocalTransport, Profile: opts.LocalProfile}),
		Logger:       slog.New(newSlogHandler(opts.Logger.Named("mcp"))),
		// Declared, not inferred: tools (with list_changed, which the gate
		// relies on) and logging (the events sink). No prompts, resources or
		// completions, because the server has none.
		Capabilities: &mcp.ServerCapabilities{
			Tools: &mcp.ToolCapabilities{ListChanged: true},
			//lint:ignore SA1019 delivered to 2025-11-25 sessions by LoggingSink
			Logging: &mcp.LoggingCapabilities{},
		},
		SetCacheable: s.setCacheable,
	})
	s.addCoreTools()
	for _, ts := range opts.Gate.Toolsets() {
		m, _ := opts.Gate.Manifest(ts.Name)
		for _, err := range s.reg.addToolset(m) {
			s.log.Error("tool not exposed", "error", err)
		}
		for _, e := range s.reg.toolset(ts.Name) {
			if err := probeTool(e); err != nil {
				s.log.Error("tool not exposed: the MCP server rejects its definition", "tool", e.ref.Name, "error", err)
				s.reg.remove(e.ref.Name)
			}
		}
	}
	s.mcp.AddReceivingMiddleware(s.middleware)
	for _, n := range opts.Gate.EnabledSet() {
		if n != gate.Core {
			s.Show(n)
		}
	}
	return s, nil
}

// MCP returns the underlying go-sdk server, for transports and tests.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Show registers a toolset's tools on the MCP server (gate.Surface). The SDK
// then sends list_changed to every session and listen stream, after a short
// debounce and without blocking this call; a failed send is logged by the
// SDK through the server's logger.
func (s *Server) Show(toolset string) {
	entries := s.reg.toolset(toolset)
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if err := addTool(s.mcp, e.tool, s.pluginHandler(e)); err != nil {
			s.log.Error("tool not exposed", "tool", e.ref.Name, "error", err)
			continue
		}
		names = append(names, e.ref.Name)
	}
	s.listChanged(toolset, "added", names)
}

// Hide removes a toolset's tools from the MCP server (gate.Surface).
func (s *Server) Hide(toolset string) {
	entries := s.reg.toolset(toolset)
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.ref.Name)
	}
	s.mcp.RemoveTools(names...)
	s.listChanged(toolset, "removed", names)
}

func (s *Server) listChanged(toolset, verb string, names []string) {
	if len(names) == 0 || s.opts.Bus == nil {
		return
	}
	sessions := 0
	for range s.mcp.Sessions() {
		sessions++
	}
	listeners := s.listeners.Load()
	s.opts.Bus.Emit(events.Event{
		Kind:    events.ListChanged,
		Level:   events.Debug,
		Toolset: toolset,
		Message: fmt.Sprintf("tools/list_changed queued for %d sessions and %d listen streams (%d tools %s)", sessions, listeners, len(names), verb),
		Fields:  map[string]any{verb: names, "sessions": sessions, "listen_streams": listeners},
	})
}

// RunStdio serves one client over stdin/stdout until the client hangs up
// or ctx ends.
func (s *Server) RunStdio(ctx context.Context) error {
	err := s.mcp.Run(ctx, &mcp.StdioTransport{})
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

// setCacheable fills ttlMs and cacheScope. tools/list answers differ per
// caller (policy), so they are private; discover carries instructions
// derived from the caller's view, so it is private too.
func (s *Server) setCacheable(_ context.Context, req mcp.Request, c *mcp.Cacheable) {
	switch req.(type) {
	case *mcp.ListToolsRequest, *mcp.ServerRequest[*mcp.DiscoverParams]:
		c.TTLMs = int(s.opts.ListTTL / time.Millisecond)
		c.CacheScope = "private"
	}
}

// addTool registers a tool. Its handler validates the arguments itself
// (toolEntry.arguments), with the schema the registry resolved once. The SDK
// panics on a definition it refuses; that must cost one tool, not the host.
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
func probeTool(e *toolEntry) error {
	scratch := mcp.NewServer(&mcp.Implementation{Name: "probe"}, &mcp.ServerOptions{Logger: slog.New(slog.DiscardHandler)})
	return addTool(scratch, e.tool, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, nil
	})
}

func (r *registry) remove(name string) {
	e, ok := r.byName[name]
	if !ok {
		return
	}
	delete(r.byName, name)
	list := r.byToolset[e.ref.Toolset]
	for i, x := range list {
		if x == e {
			r.byToolset[e.ref.Toolset] = append(list[:i:i], list[i+1:]...)
			break
		}
	}
}

// middleware is the server's one receiving middleware; see the package doc.
func (s *Server) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "tools/list":
			return s.listTools(ctx, next, method, req)
		case "tools/call":
			return s.callTool(ctx, next, method, req)
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
			}
			return res, err
		case "subscriptions/listen":
			s.listeners.Add(1)
			defer s.listeners.Add(-1)
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
func (s *Server) emitFiltered(caller exposure.Context, d exposure.Decision) {
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

// callTool runs the host's checks that come before the SDK: exposure, then
// the gate.
func (s *Server) callTool(ctx context.Context, next mcp.MethodHandler, method string, req mcp.Request) (mcp.Result, error) {
	ctr, ok := req.(*mcp.CallToolRequest)
	if !ok || ctr.Params == nil {
		return next(ctx, method, req)
	}
	e, known := s.reg.lookup(ctr.Params.Name)
	if !known {
		return next(ctx, method, req) // the SDK answers "unknown tool"
	}
	caller := s.caller(req)
	if err := s.policy.Authorize(caller, e.ref); err != nil {
		return s.refuse(caller, e, toolError(err, e.ref.Toolset)), nil
	}
	if !s.opts.Gate.Enabled(e.ref.Toolset) {
		return s.refuse(caller, e, toolError(s.opts.Gate.DisabledError(e.ref.Toolset, e.ref.Name), e.ref.Toolset)), nil
	}
	res, err := next(ctx, method, req)
	var werr *jsonrpc.Error
	if errors.As(err, &werr) && werr.Code == jsonrpc.CodeInvalidParams && !s.opts.Gate.Enabled(e.ref.Toolset) {
		// The toolset was disabled between the gate check and the SDK's
		// lookup: answer as if the check had seen it.
		return s.refuse(caller, e, toolError(s.opts.Gate.DisabledError(e.ref.Toolset, e.ref.Name), e.ref.Toolset)), nil
	}
	return res, err
}

// refuse answers a call the host will not run, and records why.
func (s *Server) refuse(caller exposure.Context, e *toolEntry, te *ToolError) *mcp.CallToolResult {
	if s.opts.Bus != nil {
		s.opts.Bus.Emit(events.Event{
			Kind:    events.CallRefused,
			Level:   events.Info,
			Toolset: e.ref.Toolset,
			Message: fmt.Sprintf("call to %s refused: %s", e.ref.Name, te.Code),
			Fields: map[string]any{"tool": e.ref.Name, "code": te.Code, "required": te.Required,
				"principal": caller.Principal, "transport": caller.Transport},
		})
	}
	return te.Result()
}

// Listeners returns the number of open subscriptions/listen streams.
func (s *Server) Listeners() int64 { return s.listeners.Load() }

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
