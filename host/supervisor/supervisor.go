// Package supervisor runs toolset plugins: one process per enabled toolset,
// started on demand, killed on disable, restarted after a crash.
//
//	cat, _ := catalog.Open(catalog.Options{})
//	sup := supervisor.New(supervisor.Options{
//		Logger:  logger,
//		Verify:  cat.Verify, // re-hash the binary before every start
//		OnEvent: func(e supervisor.Event) { bus.Emit(...) },
//	})
//	defer sup.Shutdown(context.Background())
//
//	entry, _ := cat.Lookup("scene_edit")
//	if err := sup.Start(ctx, entry); err != nil { … } // handshake + Configure
//	res, err := sup.Call(ctx, "scene_edit", supervisor.CallRequest{Tool: "add_node", Args: args}, onProgress)
//	var se *sdk.Error
//	if errors.As(err, &se) { … se.Code, se.Hint … } // PLUGIN_CRASHED, CRASH_LOOP, …; Source "plugin": the tool's own
//	_ = sup.Stop(ctx, "scene_edit") // SIGTERM, grace, SIGKILL to the process group
//
// # Processes
//
// Every start makes a new hashicorp/go-plugin client (gRPC only) with its own
// runner (see procRunner), because go-plugin's default runner gives plugins
// the host's stdin, which is the MCP stream. A plugin runs with stdin from
// /dev/null, in its own process group, with a lifeline pipe on fd 3 that
// tells it when the host is gone, and with a private 0700 directory for its
// Unix socket. Its environment is an allow list (host/pluginenv) plus what
// the operator passes by name: never the host's tokens. Its stdout carries
// only the go-plugin handshake; its stderr goes, rate-limited, to the host's
// logger named after the toolset, and the last lines are kept to explain a
// crash. Processes it detaches (setsid) are killed with it.
//
// # Limits
//
// A message from a plugin above MaxResultBytes fails the call with
// RESULT_TOO_LARGE before the host reads it; at most MaxConcurrentCalls
// calls per plugin are in flight; MemoryLimit caps its data memory
// (RLIMIT_DATA, Linux). Before Configure, the manifest the plugin serves is
// compared with the cataloged one and a difference refuses the start.
// docs/supervisor.md gives the reasons and numbers.
//
// # Hot upgrade
//
// Upgrade swaps a new binary of a running toolset in between calls: the
// new plugin starts beside the old one, is installed in one step, and the
// old one finishes the calls it took and then stops; a new plugin that fails
// to start leaves the old one serving (EventUpgradeFailed). See upgrade.go
// and docs/supervisor.md.
//
// # Crashes
//
// A plugin process that exits while it should be running has crashed: the
// toolset is marked crashed, a call that was in flight fails with
// PLUGIN_CRASHED carrying the panic text, and the next call restarts the
// plugin after an exponential backoff (0, 250ms, 500ms, 1s, … capped at 5s).
// Five crashes within a minute mark the toolset failed: calls fail with
// CRASH_LOOP until Start is called again (the operator disables and
// re-enables the toolset). A failed restart counts as a crash.
package supervisor

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/godot-mcp/godot-mcp/host/catalog"
	"github.com/godot-mcp/godot-mcp/sdk"
	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
	"github.com/godot-mcp/godot-mcp/sdk/wire"
	"github.com/godot-mcp/godot-mcp/sdk/workspace"
)

// Crash-loop policy. A plugin that crashes crashLoopCount times within
// crashLoopWindow is not restarted again until the operator asks for it.
const (
	crashLoopCount  = 5
	crashLoopWindow = time.Minute
	backoffFirst    = 250 * time.Millisecond
	backoffMax      = 5 * time.Second
)

// Options configure a Supervisor. The zero value works: no logging, default
// timeouts, no editor attached, no verification.
type Options struct {
	// Logger receives supervisor logs; each plugin's stderr goes to
	// Logger.Named(toolset). Nil discards.
	Logger hclog.Logger
	// StartTimeout bounds one start: process start, handshake and Configure.
	// Default 10s.
	StartTimeout time.Duration
	// StopGrace is how long a plugin has to exit after SIGTERM before its
	// process group gets SIGKILL. Default 2s.
	StopGrace time.Duration
	// HostVersion, ProjectDir and GodotVersion are passed to plugins in
	// Configure. GodotVersion is asked at every start and may return "".
	HostVersion  string
	ProjectDir   string
	GodotVersion func() string
	// Editor serves the plugins' HostEditor calls. Nil: every command
	// answers BRIDGE_DISCONNECTED. It must honour the request context: a
	// plugin that dies mid-command cancels it, and Stop waits for it.
	Editor pb.HostEditorServer
	// Workspace serves the plugins' HostWorkspace calls and learns which
	// tool calls are in flight (a commit must belong to one). Nil: the
	// service is not offered and a plugin's workspace calls fail.
	Workspace Workspace
	// Verify is called before every start, including restarts after a
	// crash; an error refuses the start (catalog.Catalog.Verify re-hashes
	// the binary).
	Verify func(catalog.Entry) error
	// OnEvent is called synchronously for every Event. It must not block
	// and must not call back into the Supervisor.
	OnEvent func(Event)
	// AutoMTLS makes go-plugin negotiate mutual TLS on every plugin
	// connection. Off by default: the plugin's socket lives in a private
	// 0700 directory no other local user can enter, and mTLS makes every
	// start several times slower (docs/supervisor.md has the numbers).
	AutoMTLS bool

	// PassEnv returns the names of host environment variables the plugin of
	// the named toolset gets besides the allow list of host/pluginenv (the
	// operator's plugins.pass_env). Nil: none.
	PassEnv func(toolset string) []string
	// SecretEnv names variables never passed to any plugin, whatever
	// PassEnv says (the host's bearer tokens).
	SecretEnv []string
	// MemoryLimit returns the data-memory limit in bytes of the named
	// toolset's plugin (RLIMIT_DATA, Linux only); 0 or a nil func: none.
	MemoryLimit func(toolset string) int64
	// MaxResultBytes bounds one message a plugin sends the host (a result
	// or a progress event). A larger one fails the call with
	// RESULT_TOO_LARGE before the host reads it. Default 16 MiB; at most
	// wire.MaxMessageBytes.
	MaxResultBytes int
	// MaxConcurrentCalls bounds the calls in flight to one plugin; further
	// calls wait for a slot (their context bounds the wait). Default 8.
	MaxConcurrentCalls int
	// GRPCCallsOnly sends every call over gRPC, even to plugins that serve
	// the call pipe (package callpipe), which is otherwise used: for
	// comparisons, and as a way around a suspected fault of the pipe.
	// The host sets it when $GODOT_MCP_PLUGIN_CALLS (CallsEnv) is "grpc".
	GRPCCallsOnly bool
}

// CallsEnv names the environment variable with which an operator sends
// every call over gRPC ("grpc"); see Options.GRPCCallsOnly.
const CallsEnv = "GODOT_MCP_PLUGIN_CALLS"

// Defaults of the plugin limits; docs/supervisor.md explains them.
const (
	DefaultMaxResultBytes     = 16 << 20
	DefaultMaxConcurrentCalls = 8
)

// Workspace is the host's workspace as the supervisor needs it
// (host/workspace.Host implements it).
type Workspace interface {
	// Service returns the HostWorkspace service for one toolset's plugin.
	Service(toolset string) pb.HostWorkspaceServer
	// BeginCall records a tool call in flight; the returned func ends it.
	BeginCall(toolset, tool, callID string, dryRun bool) (end func())
}

// State is the lifecycle state of a toolset's plugin.
type State string

// The states.
const (
	// Stopped: not running; Start runs it.
	Stopped State = "stopped"
	// Starting: a start (or a restart after a crash) is in progress.
	Starting State = "starting"
	// Running: the plugin is up and configured.
	Running State = "running"
	// Crashed: the plugin died; the next Call restarts it.
	Crashed State = "crashed"
	// Failed: the plugin crashed too often (crash loop); only Start runs it
	// again.
	Failed State = "failed"
)

// Status describes a toolset's plugin.
type Status struct {
	State     State
	PID       int // 0 unless running
	Restarts  int // restarts after crashes since the last Start
	LastError string
	StartedAt time.Time
}

// Event kinds.
const (
	EventStarted   = "started"
	EventExited    = "exited" // stopped on request
	EventCrashed   = "crashed"
	EventRestarted = "restarted"
	EventCrashLoop = "crash_loop"
	// EventUpgraded: a new binary of a running toolset was swapped in
	// (Upgrade); EventUpgradeFailed: it was refused and the old one serves
	// on, Message saying why.
	EventUpgraded      = "upgraded"
	EventUpgradeFailed = "upgrade_failed"
)

// Event reports a lifecycle change of a plugin.
type Event struct {
	Kind    string // one of the Event* constants
	Toolset string
	PID     int
	Message string
}

// CallRequest is one tool call.
type CallRequest struct {
	Tool   string          // bare tool name
	Args   json.RawMessage // arguments object, validated by the caller
	DryRun bool
	CallID string // for logs and the workspace journal; "" gets a unique one
	// EditorAttached tells the plugin to work in editor mode.
	EditorAttached bool
}

// Supervisor runs the plugins of the enabled toolsets. It is safe for
// concurrent use.
type Supervisor struct {
	opts Options
	log  hclog.Logger

	mu       sync.Mutex
	toolsets map[string]*toolset
	// closed is set by Shutdown. Launches check it under the toolset's
	// mutex, the same one Stop takes to abort them, so no plugin can start
	// behind Shutdown's back.
	closed atomic.Bool

	// callSeq numbers calls that come without a call id.
	callSeq atomic.Uint64
	// inFlight are the calls running, for the host services' checks
	// (editorGuard).
	inFlight workspace.Calls

	// wg counts every goroutine the supervisor starts (process reapers,
	// exit watchers, broker servers); Shutdown waits for all of them.
	wg sync.WaitGroup
}

// New returns a Supervisor. Call Shutdown when done.
func New(opts Options) *Supervisor {
	if opts.Logger == nil {
		opts.Logger = hclog.NewNullLogger()
	}
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = 10 * time.Second
	}
	if opts.StopGrace <= 0 {
		opts.StopGrace = 2 * time.Second
	}
	if opts.Editor == nil {
		opts.Editor = disconnectedEditor{}
	}
	if opts.MaxResultBytes <= 0 {
		opts.MaxResultBytes = DefaultMaxResultBytes
	}
	opts.MaxResultBytes = min(opts.MaxResultBytes, wire.MaxMessageBytes)
	if opts.MaxConcurrentCalls <= 0 {
		opts.MaxConcurrentCalls = DefaultMaxConcurrentCalls
	}
	return &Supervisor{opts: opts, log: opts.Logger, toolsets: map[string]*toolset{}}
}

// goroutine runs f in a goroutine that Shutdown waits for.
func (s *Supervisor) goroutine(f func()) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		f()
	}()
}

func (s *Supervisor) emit(e Event) {
	if e.Kind == EventCrashed || e.Kind == EventCrashLoop {
		s.log.Warn("plugin "+e.Kind, "toolset", e.Toolset, "pid", e.PID, "message", e.Message)
	} else {
		s.log.Info("plugin "+e.Kind, "toolset", e.Toolset, "pid", e.PID)
	}
	if s.opts.OnEvent != nil {
		s.opts.OnEvent(e)
	}
}

// toolset is the supervisor's record of one toolset. It outlives the
// plugin processes (instances) that serve it.
type toolset struct {
	name string

	// ops serialises launches and stops, so that a toolset never has two
	// processes. It is a channel so that waiting for it honours a context.
	ops chan struct{}

	mu    sync.Mutex
	gen   uint64 // bumped by Start and Stop; a launch from an older generation is discarded
	entry catalog.Entry
	state State
	inst  *instance // the running plugin; nil unless state is Running
	// draining are instances replaced by Upgrade that still finish the
	// calls they took; Stop kills them too.
	draining map[*instance]bool
	restarts int
	crashes  []time.Time // within crashLoopWindow
	lastErr  string
	started  time.Time
	settled  chan struct{}      // closed when the launch in progress ends; nil if none
	abort    context.CancelFunc // cancels the launch in progress; nil if none
	// restarting marks the launch in progress as a restart after a crash
	// (which may be waiting out its backoff); Start supersedes it.
	restarting bool
}

func (s *Supervisor) toolset(name string, create bool) (*toolset, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed.Load() {
		return nil, shuttingDown(name)
	}
	ts := s.toolsets[name]
	if ts == nil && create {
		ts = &toolset{name: name, ops: make(chan struct{}, 1), state: Stopped}
		s.toolsets[name] = ts
	}
	return ts, nil
}

func (ts *toolset) lock(ctx context.Context) error {
	select {
	case ts.ops <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (ts *toolset) unlock() { <-ts.ops }

// beginLaunch marks a launch in progress; ts.mu must be held.
func (ts *toolset) beginLaunch(cancel context.CancelFunc, restart bool) {
	ts.state = Starting
	ts.settled = make(chan struct{})
	ts.abort = cancel
	ts.restarting = restart
}

// endLaunch ends the launch in progress; ts.mu must be held. The caller
// sets the outcome's state, except for a restart superseded by Start: that
// one leaves the toolset crashed until Start's own launch begins, so that no
// caller waits on a launch that is over.
func (ts *toolset) endLaunch() {
	if ts.settled != nil {
		close(ts.settled)
	}
	if ts.state == Starting {
		ts.state = Crashed
	}
	ts.settled, ts.abort, ts.restarting = nil, nil, false
}

// recordCrash counts a crash now and returns whether that makes a crash
// loop; ts.mu must be held.
func (ts *toolset) recordCrash(now time.Time) (loop bool) {
	kept := ts.crashes[:0]
	for _, t := range ts.crashes {
		if now.Sub(t) < crashLoopWindow {
			kept = append(kept, t)
		}
	}
	ts.crashes = append(kept, now)
	return len(ts.crashes) >= crashLoopCount
}

// backoff is how long after the last crash a restart waits: nothing after
// the first crash (one crash is usually one bad input), then doubling.
func (ts *toolset) backoff() time.Duration {
	n := len(ts.crashes)
	if n <= 1 {
		return 0
	}
	d := backoffFirst << (n - 2)
	if d > backoffMax || d <= 0 {
		d = backoffMax
	}
	return d
}

// Start runs the toolset's plugin: verify, start the process, handshake,
// serve the host services and Configure. It returns once the plugin is ready
// for calls. Start is idempotent: a running toolset is left alone. It resets
// the crash history, so it also revives a toolset in a crash loop.
func (s *Supervisor) Start(ctx context.Context, e catalog.Entry) error {
	ts, err := s.toolset(e.Name, true)
	if err != nil {
		return err
	}
	// An explicit start does not wait out a crash restart's backoff: it
	// supersedes the restart.
	ts.mu.Lock()
	if ts.restarting && ts.abort != nil {
		ts.gen++
		ts.abort()
	}
	ts.mu.Unlock()
	if err := ts.lock(ctx); err != nil {
		return cancelled(e.Name, "starting", err)
	}
	defer ts.unlock()
	ts.mu.Lock()
	if s.closed.Load() {
		ts.mu.Unlock()
		return shuttingDown(e.Name)
	}
	if ts.state == Running {
		ts.mu.Unlock()
		return nil
	}
	ts.gen++
	gen := ts.gen
	ts.entry = e
	ts.crashes = nil
	ts.restarts = 0
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ts.beginLaunch(cancel, false)
	ts.mu.Unlock()
	return s.launch(lctx, ts, gen, false)
}

// launch starts a new instance for ts and installs it unless a Stop or
// Start superseded this launch (gen changed). ts.ops must be held and ts in
// state Starting.
func (s *Supervisor) launch(ctx context.Context, ts *toolset, gen uint64, restart bool) error {
	ts.mu.Lock()
	entry := ts.entry
	ts.mu.Unlock()

	ctx, cancel := context.WithTimeout(ctx, s.opts.StartTimeout)
	defer cancel()
	inst, err := s.spawn(ctx, ts, entry)

	ts.mu.Lock()
	ts.endLaunch()
	if ts.gen != gen {
		ts.mu.Unlock()
		if inst != nil {
			s.stopInstance(context.Background(), inst)
		}
		return &sdk.Error{Code: sdk.CodePluginNotRunning, Toolset: ts.name,
			Message: fmt.Sprintf("toolset %q was stopped while it was starting", ts.name), Hint: hintNotRunning}
	}
	if err != nil {
		ts.lastErr = err.Error()
		var ev *Event
		switch {
		case !restart:
			ts.state = Stopped
		case ts.recordCrash(time.Now()):
			ts.state = Failed
			ev = &Event{Kind: EventCrashLoop, Toolset: ts.name, Message: err.Error()}
		default:
			ts.state = Crashed
		}
		ts.mu.Unlock()
		if ev != nil {
			s.emit(*ev)
		}
		return err
	}
	ts.inst = inst
	ts.state = Running
	ts.started = time.Now()
	kind := EventStarted
	if restart {
		ts.restarts++
		kind = EventRestarted
	}
	ts.mu.Unlock()
	s.emit(Event{Kind: kind, Toolset: ts.name, PID: inst.pid(), Message: fmt.Sprintf("%s %s", entry.Path, entry.SHA256)})
	return nil
}

// restart brings a crashed toolset back for Call, after its backoff. It
// does nothing if something else already handled the crash (gen changed or
// the state moved on).
func (s *Supervisor) restart(ctx context.Context, ts *toolset, gen uint64) error {
	if err := ts.lock(ctx); err != nil {
		return cancelled(ts.name, "restarting", err)
	}
	defer ts.unlock()
	ts.mu.Lock()
	if ts.gen != gen || ts.state != Crashed {
		ts.mu.Unlock()
		return nil
	}
	if s.closed.Load() {
		ts.mu.Unlock()
		return shuttingDown(ts.name)
	}
	var wait time.Duration
	if n := len(ts.crashes); n > 0 {
		wait = time.Until(ts.crashes[n-1].Add(ts.backoff()))
	}
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ts.beginLaunch(cancel, true)
	ts.mu.Unlock()

	if wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-lctx.Done():
			t.Stop()
			ts.mu.Lock()
			ts.endLaunch() // back to crashed, unless Stop took over
			ts.mu.Unlock()
			if ctx.Err() != nil {
				return cancelled(ts.name, "waiting to restart", ctx.Err())
			}
			return nil // superseded by Stop or Start; Call looks again
		}
	}
	err := s.launch(lctx, ts, gen, true)
	if ctx.Err() != nil {
		return cancelled(ts.name, "restarting", ctx.Err())
	}
	ts.mu.Lock()
	superseded := ts.gen != gen
	ts.mu.Unlock()
	if superseded {
		return nil // Stop or Start took over; Call looks again
	}
	return err
}

// Stop kills the toolset's plugin and its whole process group: SIGTERM, up
// to StopGrace, then SIGKILL. A start in progress is aborted. Calls in
// flight fail with PLUGIN_NOT_RUNNING. Stop is idempotent and also clears a
// crashed or failed state. ctx bounds the grace period; the group is killed
// either way.
func (s *Supervisor) Stop(ctx context.Context, name string) error {
	s.mu.Lock()
	ts := s.toolsets[name]
	s.mu.Unlock()
	if ts == nil {
		return nil
	}
	ts.mu.Lock()
	ts.gen++
	if ts.abort != nil {
		ts.abort()
	}
	inst := ts.inst
	ts.inst = nil
	ts.state = Stopped
	ts.crashes = nil
	draining := ts.draining
	ts.draining = nil
	ts.mu.Unlock()
	for d := range draining {
		s.stopInstance(ctx, d)
	}

	// Wait for an aborted launch to finish, so that no process of this
	// toolset survives Stop. Launches react to abort at once.
	lockErr := ts.lock(ctx)
	if lockErr == nil {
		defer ts.unlock()
	}
	if inst != nil {
		s.stopInstance(ctx, inst)
		s.emit(Event{Kind: EventExited, Toolset: name, PID: inst.pid(), Message: "stopped"})
	}
	if lockErr != nil {
		return cancelled(name, "stopping", lockErr)
	}
	return nil
}

// Status reports the toolset's state; an unknown toolset is Stopped.
func (s *Supervisor) Status(name string) Status {
	s.mu.Lock()
	ts := s.toolsets[name]
	s.mu.Unlock()
	if ts == nil {
		return Status{State: Stopped}
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	st := Status{State: ts.state, Restarts: ts.restarts, LastError: ts.lastErr}
	if ts.inst != nil {
		st.PID = ts.inst.pid()
		st.StartedAt = ts.started
	}
	return st
}

// Shutdown stops every plugin concurrently and waits for all of the
// supervisor's goroutines. Later Starts fail with HOST_SHUTTING_DOWN.
func (s *Supervisor) Shutdown(ctx context.Context) {
	s.mu.Lock()
	s.closed.Store(true)
	names := make([]string, 0, len(s.toolsets))
	for n := range s.toolsets {
		names = append(names, n)
	}
	s.mu.Unlock()

	var wg sync.WaitGroup
	for _, n := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = s.Stop(ctx, n)
		}()
	}
	wg.Wait()

	done := make(chan struct{})
	go func() {
		s.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		s.log.Warn("shutdown: plugin goroutines still running", "error", ctx.Err())
	}
}

func shuttingDown(name string) *sdk.Error {
	return &sdk.Error{Code: sdk.CodeHostShuttingDown, Toolset: name, Message: "the host is shutting down", Hint: "restart the host"}
}

func cancelled(name, doing string, err error) *sdk.Error {
	return &sdk.Error{Code: sdk.CodeCallCancelled, Toolset: name,
		Message: fmt.Sprintf("gave up %s toolset %q: %v", doing, name, err),
		Hint:    "retry with a longer deadline", Err: err}
}
