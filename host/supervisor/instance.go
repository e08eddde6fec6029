package supervisor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/go-plugin/runner"
	"google.golang.org/grpc/health/grpc_health_v1"

	"github.com/godot-mcp/godot-mcp/host/catalog"
	"github.com/godot-mcp/godot-mcp/host/pluginenv"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
	"github.com/godot-mcp/godot-mcp/sdk/wire"
	"github.com/godot-mcp/godot-mcp/sdk/wire/callpipe"
)

// unrecognizedHandshake starts go-plugin's error for a first stdout line
// that is not the handshake.
const unrecognizedHandshake = "Unrecognized remote plugin message: "

// instance is one plugin process and its go-plugin client. It is never
// reused: every start makes a new one.
type instance struct {
	name   string
	path   string
	client *plugin.Client
	runner *procRunner
	rpc    pb.ToolsetClient
	// pipe is the call pipe when the plugin serves it; nil: calls go over
	// rpc.
	pipe *callpipe.Client
	// calls go over transport: pipe, or rpc's Call stream.
	transport transport
	health    grpc_health_v1.HealthClient // go-plugin's health service on the same connection
	stderr    *tail
	// calls holds one token per call in flight (MaxConcurrentCalls).
	calls chan struct{}
	// inflight counts the calls that picked this instance (under the
	// toolset's mutex); an upgrade waits for them before stopping it.
	inflight sync.WaitGroup

	// ctx is cancelled when the process is gone or being stopped; every
	// call in flight derives from it, so none outlives the process.
	ctx    context.Context
	cancel context.CancelFunc

	// stopping is set before the supervisor kills the process on purpose,
	// so that the exit is not taken for a crash.
	stopping atomic.Bool

	// done is closed once the process has exited and go-plugin's client and
	// the broker server are torn down; report is final then.
	done   chan struct{}
	report crashReport
}

// crashReport is what is known about why a process exited.
type crashReport struct {
	status string   // "exit status 2", "signal: killed"
	panic  string   // panic line and first frames, "" if none
	tail   []string // last stderr lines
}

func (inst *instance) pid() int { return inst.runner.getPID() }

// spawn starts a plugin process and brings it to ready: handshake, broker
// services, Configure. On failure nothing of it is left running.
func (s *Supervisor) spawn(ctx context.Context, ts *toolset, e catalog.Entry) (*instance, error) {
	if s.opts.Verify != nil {
		if err := s.opts.Verify(e); err != nil {
			return nil, &sdk.Error{Code: sdk.CodePluginUntrusted, Toolset: ts.name,
				Message: fmt.Sprintf("refusing to start toolset %q: %v", ts.name, err),
				Hint:    "if the new binary is intended, the host swaps it in by itself once it is trusted (no lock file: at once; with a lock file: after \"godot-mcp plugins lock\"); otherwise reinstall the toolset from a trusted source",
				Err:     err}
		}
	}
	log := s.log.Named(ts.name)
	inst := &instance{name: ts.name, path: e.Path, stderr: newTail(), done: make(chan struct{}),
		calls: make(chan struct{}, s.opts.MaxConcurrentCalls)}
	var pass []string
	if s.opts.PassEnv != nil {
		pass = s.opts.PassEnv(ts.name)
	}
	env := pluginenv.Build(os.Environ(), pluginenv.Options{Pass: pass, Secret: s.opts.SecretEnv})
	var memLimit int64
	if s.opts.MemoryLimit != nil {
		memLimit = s.opts.MemoryLimit(ts.name)
	}
	output := newOutputLog(log, inst.stderr)
	inst.runner = newProcRunner(ts.name, e.Path, s.opts.StopGrace, env, memLimit, output, s.goroutine)
	inst.runner.callPipe = !s.opts.GRPCCallsOnly
	timeout := s.opts.StartTimeout
	if dl, ok := ctx.Deadline(); ok {
		timeout = time.Until(dl)
	}
	inst.client = plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  wire.Handshake,
		VersionedPlugins: wire.PluginSets(nil),
		RunnerFunc: func(_ hclog.Logger, spec *exec.Cmd, socketDir string) (runner.Runner, error) {
			inst.runner.socketDir = socketDir
			inst.runner.prepare(spec)
			return inst.runner, nil
		},
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		GRPCDialOptions:  wire.GRPCDialOptions(),
		StartTimeout:     timeout,
		// The plugin gets none of the host's environment from go-plugin;
		// the runner adds the allow-listed part (prepare).
		SkipHostEnv: true,
		// The runner reads the plugin's stderr itself (pumpStderr): raw
		// lines (panics!) are kept for the crash report and a rate-limited
		// share is logged to the toolset logger.
		//
		// What the plugin writes to os.Stdout/os.Stderr after the handshake
		// arrives over go-plugin's stdio stream and takes the same way. It
		// must never reach the host's stdout, which is the MCP stream.
		SyncStdout: output.writer(),
		SyncStderr: output.writer(),
		Logger:     s.log,
		AutoMTLS:   s.opts.AutoMTLS,
	})

	// A cancelled start (Stop, or the caller gave up) kills the process, so
	// that go-plugin's handshake wait ends at once.
	stopAbort := context.AfterFunc(ctx, inst.runner.abort)
	defer stopAbort()

	fail := func(err error) (*instance, error) {
		inst.stopping.Store(true)
		inst.client.Kill() // tears down go-plugin's goroutines and the socket directory
		if inst.runner.getPID() != 0 {
			<-inst.runner.done
		} else if inst.runner.socketDir != "" {
			// go-plugin's Kill skips its cleanup for a process that never
			// started (a missing or non-executable binary).
			_ = os.RemoveAll(inst.runner.socketDir)
		}
		r := inst.runner.report(inst.stderr)
		msg := fmt.Sprintf("toolset %q (%s) failed to start: %v", ts.name, e.Path, err)
		switch {
		case ctx.Err() != nil && errors.Is(context.Cause(ctx), context.DeadlineExceeded):
			msg = fmt.Sprintf("toolset %q (%s) did not become ready within %s: %v", ts.name, e.Path, s.opts.StartTimeout, err)
		case ctx.Err() != nil:
			return nil, cancelled(ts.name, "starting", ctx.Err())
		}
		hint := "run the binary with --describe to check that it is a working godot-mcp toolset, and read the host log for its output"
		if line, ok := strings.CutPrefix(err.Error(), unrecognizedHandshake); ok && ctx.Err() == nil && !strings.HasPrefix(line, "\n") {
			// go-plugin read something other than its handshake line.
			line, _, _ = strings.Cut(line, "\n")
			msg = fmt.Sprintf("toolset %q (%s) printed to stdout before the go-plugin handshake: %q", ts.name, e.Path, line)
			hint = "a plugin must not write to stdout before serving (no prints in init or main); it should log to stderr. Report this to the toolset's author"
		}
		if r.panic != "" {
			msg += "\n" + r.panic
		}
		return nil, &sdk.Error{Code: sdk.CodePluginStartFailed, Toolset: ts.name, Message: msg,
			Hint: hint, Detail: strings.Join(r.tail, "\n"), Err: err}
	}

	rpcClient, err := inst.client.Client()
	if err != nil {
		return fail(err)
	}
	raw, err := rpcClient.Dispense(wire.PluginName)
	if err != nil {
		return fail(err)
	}
	wc, ok := raw.(*wire.Client)
	if !ok {
		return fail(fmt.Errorf("unexpected plugin client type %T", raw))
	}
	inst.rpc = wc.Toolset
	if gc, ok := rpcClient.(*plugin.GRPCClient); ok && gc.Conn != nil {
		inst.health = grpc_health_v1.NewHealthClient(gc.Conn)
	}

	// The host services live until the broker closes, which happens when
	// the go-plugin client is killed.
	brokerID := wc.Broker.NextId()
	var ws pb.HostWorkspaceServer
	if s.opts.Workspace != nil {
		ws = s.opts.Workspace.Service(ts.name)
	}
	editor := editorGuard{inner: s.opts.Editor, toolset: ts.name, calls: &s.inFlight}
	s.goroutine(func() { wc.Broker.AcceptAndServe(brokerID, newHostServer(log, editor, ws)) })

	godot := ""
	if s.opts.GodotVersion != nil {
		godot = s.opts.GodotVersion()
	}
	// The manifest the host cataloged (from --describe or the lock file)
	// decides gating, safety classes and exposure; the plugin must serve
	// the same one, or it could declare a tool read-only and run it as
	// destructive.
	if e.Manifest != nil {
		served, err := inst.rpc.Describe(ctx, &pb.DescribeRequest{})
		if err != nil {
			return fail(fmt.Errorf("describe: %w", err))
		}
		if diff := manifestDiff(e.Manifest, manifest.FromProto(served)); diff != "" {
			_, err := fail(fmt.Errorf("the manifest it serves differs from the one it printed with --describe: %s", diff))
			var se *sdk.Error
			if errors.As(err, &se) && se.Code == sdk.CodePluginStartFailed {
				se.Code = sdk.CodePluginError
				se.Hint = "the toolset is refused because it declares one thing and serves another; report this to the toolset's author, and do not use this binary"
			}
			return nil, err
		}
	}
	configured, err := inst.rpc.Configure(ctx, &pb.ConfigureRequest{
		HostVersion:          s.opts.HostVersion,
		ProjectDir:           sdk.PathToWire(s.opts.ProjectDir),
		GodotVersion:         godot,
		HostServicesBrokerId: brokerID,
	})
	if err != nil {
		return fail(fmt.Errorf("configure: %w", err))
	}
	if configured.GetCallPipe() && inst.runner.callConn != nil {
		// The runner closes the connection when the process is gone,
		// which fails the calls still waiting on it. Calls that come
		// over the pipe reach the host services over it too.
		services := callpipe.NewServices()
		registerHostServices(services, log, editor, ws)
		inst.pipe = callpipe.NewClient(inst.runner.callConn, services)
		inst.transport = inst.pipe
	} else {
		inst.transport = grpcTransport{rpc: inst.rpc}
	}

	inst.ctx, inst.cancel = context.WithCancel(context.Background())
	s.goroutine(func() { s.watch(ts, inst) })
	return inst, nil
}

// watch waits for the process to exit, tears its client down, and records a
// crash unless the exit was asked for. The toolset's state changes and the
// event goes out before done is closed, so a caller that saw its call fail
// with PLUGIN_CRASHED finds the toolset crashed, and its next call restarts
// it.
func (s *Supervisor) watch(ts *toolset, inst *instance) {
	<-inst.runner.done
	inst.cancel()
	inst.client.Kill() // the process is gone: this closes the connection and the broker
	if inst.pipe != nil {
		// The runner closed the pipe; its host service requests in
		// flight end with it (as the broker's do with Kill).
		inst.pipe.Wait()
	}
	inst.report = inst.runner.report(inst.stderr)
	if inst.stopping.Load() {
		close(inst.done)
		return
	}

	msg := inst.report.message(inst.name, "")
	ts.mu.Lock()
	if ts.inst != inst {
		ts.mu.Unlock()
		close(inst.done)
		return
	}
	ts.inst = nil
	ts.lastErr = msg
	kind := EventCrashed
	if ts.recordCrash(time.Now()) {
		ts.state = Failed
		kind = EventCrashLoop
	} else {
		ts.state = Crashed
	}
	ts.mu.Unlock()
	s.emit(Event{Kind: kind, Toolset: inst.name, PID: inst.pid(), Message: msg})
	close(inst.done)
}

// stopInstance kills a running instance on purpose and waits until it is
// torn down. ctx bounds only the grace period Kill gives the plugin; the wait
// for the exit has its own bound (StopGrace + killWait + drainWait), so an
// already cancelled ctx still waits for a normally exiting plugin instead of
// reporting it as stuck.
func (s *Supervisor) stopInstance(ctx context.Context, inst *instance) {
	inst.stopping.Store(true)
	inst.cancel()
	if err := inst.runner.Kill(ctx); err != nil {
		s.log.Error("stopping plugin", "toolset", inst.name, "error", err)
	}
	t := time.NewTimer(s.opts.StopGrace + killWait + drainWait)
	defer t.Stop()
	select {
	case <-inst.done:
	case <-t.C:
		// Only a process stuck in the kernel gets here; the watcher
		// finishes the teardown whenever it exits.
		s.log.Error("plugin did not exit after SIGKILL", "toolset", inst.name, "pid", inst.pid())
	}
}

// report summarises why the process exited, from its exit status and its
// last stderr lines. Valid once done is closed (or the start failed).
func (r *procRunner) report(t *tail) crashReport {
	rep := crashReport{tail: t.Lines()}
	select {
	case <-r.exited:
		if r.waitErr != nil {
			rep.status = r.waitErr.Error()
		} else {
			rep.status = "exit status 0"
		}
	default:
	}
	rep.panic = panicReport(rep.tail)
	return rep
}

// message renders the report for a caller. during names the call that was
// in flight, if any.
func (r crashReport) message(name, during string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "toolset %q crashed", name)
	if during != "" {
		fmt.Fprintf(&b, " during call %q", during)
	}
	if r.status != "" {
		fmt.Fprintf(&b, " (%s)", r.status)
	}
	if r.panic != "" {
		b.WriteString(": ")
		b.WriteString(r.panic)
	} else {
		b.WriteString("; it printed no panic (killed by a signal or exited on its own)")
	}
	return b.String()
}
