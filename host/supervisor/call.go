package supervisor

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	"github.com/godot-mcp/godot-mcp/sdk"
	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
	"github.com/godot-mcp/godot-mcp/sdk/wire/callpipe"
	"github.com/godot-mcp/godot-mcp/sdk/workspace"
)

// Progress is one progress report of a call in flight.
type Progress struct {
	Done, Total float64 // Total is 0 when unknown
	Message     string
}

// Call runs one tool of a running toolset and returns its result, converted
// from the wire here and nowhere else. Progress events are passed to
// onProgress (may be nil) as they arrive, on the caller's goroutine.
//
// A failure the tool reported itself is returned as the *sdk.Error it sent,
// with Source sdk.SourcePlugin and Toolset set, next to the result's other
// content. The supervisor's own errors are *sdk.Error with Source empty: PLUGIN_NOT_RUNNING (not started, or stopped meanwhile),
// PLUGIN_CRASHED (the process died during the call; Message carries the
// panic), CRASH_LOOP, PLUGIN_START_FAILED (a restart failed), PLUGIN_ERROR
// and CALL_CANCELLED (ctx ended; the stream is cancelled and the plugin's
// handler sees its context end).
//
// A crashed toolset is restarted here, after its backoff, which the caller's
// ctx bounds.
func (s *Supervisor) Call(ctx context.Context, name string, req CallRequest, onProgress func(Progress)) (sdk.Result, error) {
	for {
		s.mu.Lock()
		ts := s.toolsets[name]
		s.mu.Unlock()
		if ts == nil {
			return sdk.Result{}, notRunning(name)
		}
		ts.mu.Lock()
		switch ts.state {
		case Running:
			inst := ts.inst
			inst.inflight.Add(1)
			ts.mu.Unlock()
			w, err := s.call(ctx, inst, req, onProgress)
			inst.inflight.Done()
			if err != nil {
				return sdk.Result{}, err
			}
			res, terr := sdk.ResultFromWire(w)
			if terr != nil {
				terr.Toolset = name
				return res, terr
			}
			return res, nil
		case Starting:
			settled := ts.settled
			ts.mu.Unlock()
			if settled == nil {
				// Cannot happen (Starting always has a launch); waiting
				// for the toolset's lock is the safe fallback.
				if err := ts.lock(ctx); err != nil {
					return sdk.Result{}, cancelled(name, "waiting for the start of", err)
				}
				ts.unlock()
				continue
			}
			select {
			case <-settled:
			case <-ctx.Done():
				return sdk.Result{}, cancelled(name, "waiting for the start of", ctx.Err())
			}
		case Crashed:
			gen := ts.gen
			ts.mu.Unlock()
			if err := s.restart(ctx, ts, gen); err != nil {
				return sdk.Result{}, err
			}
		case Failed:
			last := ts.lastErr
			ts.mu.Unlock()
			return sdk.Result{}, &sdk.Error{Code: sdk.CodeCrashLoop, Toolset: name,
				Message: fmt.Sprintf("toolset %q crashed %d times within %s and is no longer restarted; last crash: %s",
					name, crashLoopCount, crashLoopWindow, last),
				Hint: fmt.Sprintf(hintCrashLoop, crashLoopCount, crashLoopWindow)}
		default:
			ts.mu.Unlock()
			return sdk.Result{}, notRunning(name)
		}
	}
}

func notRunning(name string) *sdk.Error {
	return &sdk.Error{Code: sdk.CodePluginNotRunning, Toolset: name,
		Message: fmt.Sprintf("toolset %q is not running", name), Hint: hintNotRunning}
}

// call runs one call on a live instance.
func (s *Supervisor) call(ctx context.Context, inst *instance, req CallRequest, onProgress func(Progress)) (*pb.CallResult, error) {
	// The call ends when the caller gives up or the instance goes away,
	// whichever is first. The caller's deadline is deliberately not sent to
	// the plugin (gRPC would): with it the plugin races the host to the
	// deadline and may answer "cancelled" as a result just before the host
	// gives up, so the caller would see either outcome. Without it the
	// host cancels first, always, and the plugin learns of it from its
	// context as before.
	callCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	stopCaller := context.AfterFunc(ctx, cancel)
	defer stopCaller()
	stopInst := context.AfterFunc(inst.ctx, cancel)
	defer stopInst()
	if req.CallID == "" {
		req.CallID = fmt.Sprintf("s%d", s.callSeq.Add(1))
	}
	defer s.inFlight.Begin(req.CallID, workspace.CallInfo{Toolset: inst.name, Tool: req.Tool, DryRun: req.DryRun})()
	if s.opts.Workspace != nil {
		defer s.opts.Workspace.BeginCall(inst.name, req.Tool, req.CallID, req.DryRun)()
	}

	// At most MaxConcurrentCalls calls per plugin are in flight: each may
	// hold a result of up to MaxResultBytes, and its rendering for MCP.
	select {
	case inst.calls <- struct{}{}:
		defer func() { <-inst.calls }()
	case <-callCtx.Done():
		// The caller gave up (callError tells), or the plugin went away
		// while the call waited, which callError reports like a broken
		// connection: stopped or crashed.
		return nil, s.callError(ctx, inst, req, status.Error(codes.Canceled, "the plugin went away while the call waited for a slot"))
	}

	pbReq := &pb.CallRequest{
		Tool:          req.Tool,
		ArgumentsJson: req.Args,
		DryRun:        req.DryRun,
		CallId:        req.CallID,

		EditorAttached: req.EditorAttached,
	}
	var progress func(*pb.Progress)
	if onProgress != nil {
		progress = func(p *pb.Progress) {
			onProgress(Progress{Done: p.GetProgress(), Total: p.GetTotal(), Message: p.GetMessage()})
		}
	}
	result, err := inst.transport.Call(callCtx, pbReq, s.opts.MaxResultBytes, progress)
	if err != nil {
		return nil, s.callError(ctx, inst, req, err)
	}
	if result == nil {
		return nil, &sdk.Error{Code: sdk.CodePluginError, Toolset: inst.name,
			Message: fmt.Sprintf("toolset %q ended call %q without a result", inst.name, req.Tool),
			Hint:    "report this to the toolset's author: every call must end with exactly one result"}
	}
	return result, nil
}

// callError turns a failed call into an *sdk.Error, telling the caller's
// cancellation, a deliberate stop, a crash and a plugin-side RPC error apart.
func (s *Supervisor) callError(ctx context.Context, inst *instance, req CallRequest, err error) error {
	if ctx.Err() != nil {
		return &sdk.Error{Code: sdk.CodeCallCancelled, Toolset: inst.name,
			Message: fmt.Sprintf("call %q of toolset %q: %v", req.Tool, inst.name, ctx.Err()),
			Hint:    "the plugin was told to stop; retry with a longer deadline if the tool needs more time",
			Err:     ctx.Err()}
	}
	if inst.stopping.Load() {
		return &sdk.Error{Code: sdk.CodePluginNotRunning, Toolset: inst.name,
			Message: fmt.Sprintf("toolset %q was stopped while call %q ran", inst.name, req.Tool),
			Hint:    hintNotRunning, Err: err}
	}
	var tooLarge *callpipe.TooLargeError
	st := status.Convert(err)
	switch {
	case errors.As(err, &tooLarge):
		return &sdk.Error{Code: sdk.CodeResultTooLarge, Toolset: inst.name,
			Message: fmt.Sprintf("toolset %q answered call %q with more than the host accepts from a plugin (%d MiB): %s",
				inst.name, req.Tool, s.opts.MaxResultBytes>>20, tooLarge),
			Hint: "ask for less (a narrower path, a lower limit, a smaller image), or have the operator raise plugins.max_result_mb in the policy config",
			Err:  err}
	case errors.Is(err, callpipe.ErrClosed), errors.Is(err, context.Canceled):
		// The call pipe is gone, or the call was cancelled while the
		// caller still waits: the process exited or is being stopped.
		return s.lostConnection(inst, req, err)
	case st.Code() == codes.Unavailable, st.Code() == codes.Canceled:
		// Either the connection broke (Canceled: the watcher saw the
		// process exit), or a live plugin answered with one of these codes
		// itself, which a plugin not built on the SDK may do. The code
		// cannot tell them apart; the process and the connection can.
		if s.pluginAlive(inst) {
			return pluginStatusError(inst, req, err)
		}
		return s.lostConnection(inst, req, err)
	default:
		return pluginStatusError(inst, req, err)
	}
}

// lostConnection is the error of a call whose connection to the plugin is
// gone: a crash (with the process's last words), or a stop.
func (s *Supervisor) lostConnection(inst *instance, req CallRequest, err error) error {
	// Wait for the process to be gone so that its stderr, and with it
	// the panic, has been read completely.
	t := time.NewTimer(s.opts.StopGrace + killWait + drainWait)
	defer t.Stop()
	select {
	case <-inst.done:
	case <-t.C:
		// The process lives but its connection is dead: it is of no
		// use any more. Killing it makes the watcher record a crash.
		s.log.Error("lost the connection to a live plugin; killing it", "toolset", inst.name, "pid", inst.pid(), "error", err)
		_ = inst.runner.Kill(context.Background())
		<-inst.done
	}
	if inst.stopping.Load() {
		return &sdk.Error{Code: sdk.CodePluginNotRunning, Toolset: inst.name,
			Message: fmt.Sprintf("toolset %q was stopped while call %q ran", inst.name, req.Tool),
			Hint:    hintNotRunning, Err: err}
	}
	return &sdk.Error{Code: sdk.CodePluginCrashed, Toolset: inst.name,
		Message: inst.report.message(inst.name, req.Tool),
		Hint:    hintCrashed,
		Detail:  strings.Join(inst.report.tail, "\n"),
		Err:     err}
}

// pluginStatusError is a gRPC status a live plugin answered a call with,
// or its refusal of a call on the call pipe.
func pluginStatusError(inst *instance, req CallRequest, err error) *sdk.Error {
	detail := err.Error() // a call pipe's refusal: the plugin's own words
	if st, ok := status.FromError(err); ok {
		detail = fmt.Sprintf("%s: %s", st.Code(), st.Message())
	}
	return &sdk.Error{Code: sdk.CodePluginError, Toolset: inst.name,
		Message: fmt.Sprintf("toolset %q failed call %q: %s", inst.name, req.Tool, detail),
		Hint:    "report this to the toolset's author: a tool failure should be a result with isError, not an RPC error",
		Err:     err}
}

// healthProbeTimeout bounds the health check that tells a plugin's own
// Unavailable or Canceled status from a lost connection. A live plugin
// answers within a millisecond; a dead one fails at once (its socket is
// closed), so the bound only matters for a wedged process.
const healthProbeTimeout = 2 * time.Second

// pluginAlive reports whether inst's process is running and its connection
// answers: then a call's Unavailable or Canceled status came from the plugin,
// not from a broken connection. It asks go-plugin's health service on the
// same connection the call used.
func (s *Supervisor) pluginAlive(inst *instance) bool {
	if inst.ctx.Err() != nil || inst.health == nil {
		return false // the watcher saw the process exit, or it is being stopped
	}
	select {
	case <-inst.runner.exited:
		return false
	default:
	}
	ctx, cancel := context.WithTimeout(inst.ctx, healthProbeTimeout)
	defer cancel()
	res, err := inst.health.Check(ctx, &grpc_health_v1.HealthCheckRequest{Service: plugin.GRPCServiceName})
	if err != nil || res.GetStatus() != grpc_health_v1.HealthCheckResponse_SERVING {
		return false
	}
	// The process may have exited while the probe ran (a reply from a
	// dying process still means the call's status was not a broken
	// connection, but the crash is what matters to the caller).
	select {
	case <-inst.runner.exited:
		return false
	default:
		return inst.ctx.Err() == nil
	}
}
