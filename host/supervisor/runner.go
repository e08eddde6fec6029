//go:build unix

package supervisor

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hashicorp/go-plugin/runner"

	"github.com/godot-mcp/godot-mcp/sdk/proctree"
	"github.com/godot-mcp/godot-mcp/sdk/wire"
	"github.com/godot-mcp/godot-mcp/sdk/wire/callpipe"
)

// lifelineFD is the descriptor number the lifeline has in the plugin: the
// first of exec.Cmd.ExtraFiles is always 3 (after stdin, stdout, stderr).
// callPipeFD is the second, the plugin's end of the call pipe.
const (
	lifelineFD = 3
	callPipeFD = 4
)

// killWait bounds how long Kill waits for the process group to disappear
// after SIGKILL. SIGKILL cannot be caught, so this only runs out for a
// process stuck in the kernel (uninterruptible I/O).
const killWait = time.Second

// drainWait bounds how long the runner waits, after the plugin exited, for
// its stdout and stderr pipes to reach EOF. Normally that happens at once:
// every process that could hold the pipes is in the plugin's process group,
// which is SIGKILLed when the plugin exits. A process that left the group
// (setsid) and kept the pipes would otherwise keep go-plugin's readers, and
// with them Stop, waiting forever.
const drainWait = time.Second

// procRunner starts one plugin process for go-plugin (ClientConfig.RunnerFunc)
// with the hygiene the host needs, none of which go-plugin's own Cmd runner
// offers:
//
//   - stdin is /dev/null. go-plugin hands the host's os.Stdin to plugins it
//     starts from ClientConfig.Cmd, and the host's stdin is the MCP stream: a
//     plugin reading it would steal the agent's requests.
//   - the plugin leads its own process group, so Kill reaches the children it
//     spawned (a Godot process, a shell) and not just the plugin.
//   - the plugin gets a lifeline: the read end of a pipe whose write end only
//     the host holds. If the host dies, even by SIGKILL, the kernel closes the
//     write end and the plugin sees EOF and exits (sdk.Serve does this).
//   - Kill is SIGTERM to the group, a grace period, then SIGKILL to the group.
//   - when the plugin exits for any reason its group is SIGKILLed, so no
//     grandchild outlives it.
//
// One procRunner runs one process once; the supervisor makes a new one (and
// a new go-plugin client) for every start.
type procRunner struct {
	name  string // toolset name: go-plugin names the stderr logger after it
	path  string
	grace time.Duration
	// env is the part of the plugin's environment taken from the host's
	// (host/pluginenv); go-plugin's variables and the lifeline are added.
	env []string
	// memLimit is the plugin's address-space limit in bytes; 0 for none.
	memLimit int64
	// output receives the plugin's stderr lines (crash tail and a
	// rate-limited share of the host log).
	output *outputLog
	// marker is this run's wire.InstanceEnv entry ("NAME=random"); every
	// process still carrying it once the plugin is gone is killed.
	marker string
	// goroutine starts reap; the supervisor passes its own tracked launcher
	// so that Shutdown can wait for it.
	goroutine func(func())
	// callPipe makes Start create a call pipe (package callpipe) and pass
	// the plugin its end.
	callPipe bool

	cmd       *exec.Cmd
	pid       int    // set by Start; read it with getPID where Start may run concurrently
	socketDir string // go-plugin's private directory for this plugin's sockets
	stdout    *pipeReader
	stderr    *pipeReader
	lifeline  *os.File // write end; the host holds it while the plugin runs
	// callConn is the host's end of the call pipe, nil without one. The
	// instance takes it if the plugin serves the pipe; reap closes it.
	callConn net.Conn

	// mu orders signals against reaping: once the process is reaped its pid
	// (and so its process-group id) may be reused by an unrelated process,
	// so no signal may be sent to -pid after that.
	mu     sync.Mutex
	reaped bool
	killed bool // Kill signalled the process: its death was asked for

	exited  chan struct{} // closed once the process has been reaped
	waitErr error         // the exit status; set before exited is closed
	done    chan struct{} // closed once exited and the pipes are drained
}

var _ runner.Runner = (*procRunner)(nil)

func newProcRunner(name, path string, grace time.Duration, env []string, memLimit int64, output *outputLog, goroutine func(func())) *procRunner {
	return &procRunner{
		name:      name,
		path:      path,
		grace:     grace,
		env:       env,
		memLimit:  memLimit,
		output:    output,
		goroutine: goroutine,
		exited:    make(chan struct{}),
		done:      make(chan struct{}),
	}
}

// prepare takes the environment go-plugin computed (magic cookie, protocol
// versions, socket directory, AutoMTLS certificate) from spec, which holds
// none of the host's own variables (ClientConfig.SkipHostEnv), and adds the
// allow-listed host variables in r.env and the lifeline. Everything else in
// spec (its Stdin in particular) is deliberately ignored.
func (r *procRunner) prepare(spec *exec.Cmd) {
	cmd := exec.Command(r.path)
	env := make([]string, 0, len(r.env)+len(spec.Env)+1)
	env = append(env, r.env...)
	env = append(env, spec.Env...)
	var id [12]byte
	_, _ = rand.Read(id[:])
	r.marker = wire.InstanceEnv + "=" + hex.EncodeToString(id[:])
	cmd.Env = append(env, wire.LifelineFDEnv+"="+strconv.Itoa(lifelineFD), r.marker)
	if r.callPipe {
		cmd.Env = append(cmd.Env, callpipe.FDEnv+"="+strconv.Itoa(callPipeFD))
	}
	cmd.Stdin = nil // /dev/null: never the host's MCP stream
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	r.cmd = cmd
}

// Start implements runner.Runner.
func (r *procRunner) Start(_ context.Context) (err error) {
	if r.cmd == nil {
		return errors.New("supervisor: runner used before prepare")
	}
	// Every pipe is created here rather than with cmd.StdoutPipe: exec.Cmd
	// closes its own pipes in Wait, and the runner must decide itself when
	// the readers are done (see drainWait).
	var toClose []*os.File
	defer func() {
		for _, f := range toClose {
			_ = f.Close()
		}
	}()
	pipe := func() (rd, wr *os.File, err error) {
		rd, wr, err = os.Pipe()
		if err != nil {
			return nil, nil, fmt.Errorf("supervisor: creating a pipe for %s: %w", r.name, err)
		}
		// The child's ends are closed in the host once the child has them
		// (or on failure); the host's ends only on failure.
		toClose = append(toClose, wr)
		return rd, wr, nil
	}
	outR, outW, err := pipe()
	if err != nil {
		return err
	}
	errR, errW, err := pipe()
	if err != nil {
		_ = outR.Close()
		return err
	}
	lifeR, lifeW, err := os.Pipe()
	if err != nil {
		_ = outR.Close()
		_ = errR.Close()
		return fmt.Errorf("supervisor: creating the lifeline pipe for %s: %w", r.name, err)
	}
	toClose = append(toClose, lifeR)

	r.cmd.Stdout = outW
	r.cmd.Stderr = errW
	r.cmd.ExtraFiles = []*os.File{lifeR}
	var callConn net.Conn
	if r.callPipe {
		host, plugin, err := socketPair()
		if err != nil {
			_ = outR.Close()
			_ = errR.Close()
			_ = lifeW.Close()
			return fmt.Errorf("supervisor: creating the call pipe for %s: %w", r.name, err)
		}
		toClose = append(toClose, plugin)
		r.cmd.ExtraFiles = append(r.cmd.ExtraFiles, plugin)
		callConn = host
	}
	if err := r.cmd.Start(); err != nil {
		_ = outR.Close()
		_ = errR.Close()
		_ = lifeW.Close()
		if callConn != nil {
			_ = callConn.Close()
		}
		return fmt.Errorf("supervisor: starting %s: %w", r.path, err)
	}
	r.callConn = callConn
	r.mu.Lock()
	r.pid = r.cmd.Process.Pid
	r.mu.Unlock()
	r.stdout = newPipeReader(outR)
	r.stderr = newPipeReader(errR)
	r.lifeline = lifeW
	r.goroutine(r.pumpStderr)
	r.goroutine(r.reap)
	if r.memLimit > 0 {
		// The plugin is still in its runtime's start-up or waiting for
		// the handshake: nothing it does before this can be large.
		if err := setMemoryLimit(r.pid, r.memLimit); err != nil {
			r.abort()
			return fmt.Errorf("supervisor: setting the memory limit of %s to %d MiB: %w", r.name, r.memLimit>>20, err)
		}
	}
	return nil
}

// socketPair makes the call pipe: a connected pair of Unix stream sockets,
// private to the host and the plugin (no path, no listener). The host's end
// is returned as a connection, the plugin's as a file for ExtraFiles.
func socketPair() (host net.Conn, plugin *os.File, err error) {
	// Close-on-exec from birth, so no other child the host starts inherits
	// either end (ExtraFiles gives the plugin its end regardless). Not every
	// Unix has SOCK_CLOEXEC, so under ForkLock, as the standard library does.
	syscall.ForkLock.RLock()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fds[0])
		syscall.CloseOnExec(fds[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, nil, err
	}
	hf := os.NewFile(uintptr(fds[0]), "call pipe")
	host, err = net.FileConn(hf) // a duplicate
	_ = hf.Close()
	if err != nil {
		_ = syscall.Close(fds[1])
		return nil, nil, err
	}
	return host, os.NewFile(uintptr(fds[1]), "call pipe (plugin)"), nil
}

// pumpStderr copies the plugin's stderr, line by line, to its outputLog.
// go-plugin gets an empty stderr (Stderr), so that every line goes through
// the rate limit and is logged at the level docs/plugin-protocol.md promises.
func (r *procRunner) pumpStderr() {
	w := r.output.writer()
	buf := make([]byte, 32<<10)
	for {
		n, err := r.stderr.Read(buf)
		if n > 0 {
			_, _ = w.Write(buf[:n])
		}
		if err != nil {
			break
		}
	}
	_ = w.Close()
	r.output.flush()
}

// reap waits for the process, kills what is left of its group, and closes the
// pipes once drained. Start runs it in a goroutine the supervisor owns; done
// is closed when it returns.
func (r *procRunner) reap() {
	defer close(r.done)
	// Learn that the process exited without reaping it: while it is a
	// zombie its pid cannot be reused, so -pid still names only its group.
	waitExitNoReap(r.pid)
	r.mu.Lock()
	if canWaitNoReap {
		_ = syscall.Kill(-r.pid, syscall.SIGKILL)
	}
	if canWaitNoReap {
		r.waitErr = r.cmd.Wait()
		r.reaped = true
		r.mu.Unlock()
	} else {
		// Without waitid(WNOWAIT) the group is killed after reaping; a
		// pid reused in between would be an extraordinary coincidence.
		r.mu.Unlock()
		r.waitErr = r.cmd.Wait()
		r.mu.Lock()
		_ = syscall.Kill(-r.pid, syscall.SIGKILL)
		r.reaped = true
		r.mu.Unlock()
	}
	_ = r.lifeline.Close()
	if r.callConn != nil {
		_ = r.callConn.Close()
	}
	// Descendants that left the group and were re-parented when the plugin
	// died (a crash gives no chance to find them by ancestry) still carry
	// the run's marker in their environment.
	proctree.KillMarked(r.marker)
	close(r.exited)

	timer := time.NewTimer(drainWait)
	defer timer.Stop()
	for _, p := range []*pipeReader{r.stdout, r.stderr} {
		select {
		case <-p.eof:
		case <-timer.C:
		}
	}
	_ = r.stdout.f.Close()
	_ = r.stderr.f.Close()
}

// signal sends sig to the plugin's process group unless it is already gone.
func (r *procRunner) signal(sig syscall.Signal) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pid > 0 && !r.reaped {
		_ = syscall.Kill(-r.pid, sig)
	}
}

// killDetached kills the plugin's descendants that left its process group
// (setsid, a daemonizing double fork), which the group signals cannot reach.
// It must run while the plugin is alive: once it exits its orphans are
// re-parented and no longer found (docs/supervisor.md, "Containment").
// Descendants still in the group are left to the group's SIGTERM.
func (r *procRunner) killDetached() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pid <= 0 || r.reaped {
		return
	}
	pid := r.pid
	proctree.KillDescendants(pid, func(d int) bool {
		pg, err := syscall.Getpgid(d)
		return err == nil && pg == pid
	})
}

// getPID returns the pid, 0 before Start.
func (r *procRunner) getPID() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pid
}

// abort kills the group at once without waiting: used when a start is
// cancelled.
func (r *procRunner) abort() { r.signal(syscall.SIGKILL) }

// Kill implements runner.Runner: SIGTERM to the group, up to grace for the
// plugin to exit, then SIGKILL to the group. ctx cuts the grace period short.
// It returns once the plugin has been reaped (its group is SIGKILLed then
// too), or after killWait past SIGKILL.
func (r *procRunner) Kill(ctx context.Context) error {
	if r.getPID() == 0 {
		return nil
	}
	select {
	case <-r.exited:
		return nil
	default:
	}
	r.mu.Lock()
	r.killed = true
	r.mu.Unlock()
	r.killDetached()
	r.signal(syscall.SIGTERM)
	grace := time.NewTimer(r.grace)
	defer grace.Stop()
	select {
	case <-r.exited:
		return nil
	case <-grace.C:
	case <-ctx.Done():
	}
	r.signal(syscall.SIGKILL)
	wait := time.NewTimer(killWait)
	defer wait.Stop()
	select {
	case <-r.exited:
		return nil
	case <-wait.C:
		return fmt.Errorf("supervisor: plugin %s (pid %d) did not exit after SIGKILL", r.name, r.getPID())
	}
}

// Wait implements runner.Runner. A death Kill asked for is not an error:
// go-plugin would log "signal: terminated" as one for every Stop.
func (r *procRunner) Wait(ctx context.Context) error {
	select {
	case <-r.exited:
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.killed {
			return nil
		}
		return r.waitErr
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Stdout implements runner.Runner; go-plugin reads the handshake line from it.
func (r *procRunner) Stdout() io.ReadCloser { return r.stdout }

// Stderr implements runner.Runner. go-plugin would log every line it reads
// here without a rate limit; pumpStderr reads the real pipe instead, so
// go-plugin gets a stream that is empty from the start.
func (r *procRunner) Stderr() io.ReadCloser { return io.NopCloser(strings.NewReader("")) }

// Name implements runner.Runner. go-plugin names the plugin's stderr logger
// after it, so the toolset name makes plugin logs read "<host>.<toolset>".
func (r *procRunner) Name() string { return r.name }

// ID implements runner.Runner.
func (r *procRunner) ID() string {
	pid := r.getPID()
	if pid == 0 {
		return ""
	}
	return strconv.Itoa(pid)
}

// Diagnose implements runner.Runner. The usual reason a plugin fails the
// handshake is output on stdout before it: go-plugin reads the first stdout
// line as the handshake.
func (r *procRunner) Diagnose(context.Context) string {
	return fmt.Sprintf("plugin %s (%s) did not answer with the go-plugin handshake line. "+
		"The first line a plugin writes to stdout must be the handshake, so a plugin must not print to stdout "+
		"before serving (log to stderr instead); also check that the binary is a godot-mcp toolset built for this system",
		r.name, r.path)
}

// PluginToHost implements runner.AddrTranslator: host and plugin share the
// file system and network.
func (r *procRunner) PluginToHost(network, addr string) (string, string, error) {
	return network, addr, nil
}

// HostToPlugin implements runner.AddrTranslator.
func (r *procRunner) HostToPlugin(network, addr string) (string, string, error) {
	return network, addr, nil
}

// pipeReader is the host's end of a plugin's stdout or stderr. It notes when
// the reader reaches EOF, so that the runner knows the pipe is drained.
type pipeReader struct {
	f    *os.File
	once sync.Once
	eof  chan struct{}
}

func newPipeReader(f *os.File) *pipeReader { return &pipeReader{f: f, eof: make(chan struct{})} }

func (p *pipeReader) Read(b []byte) (int, error) {
	n, err := p.f.Read(b)
	if err != nil {
		p.once.Do(func() { close(p.eof) })
		if errors.Is(err, os.ErrClosed) {
			// The runner closed a pipe a runaway process kept open.
			err = io.EOF
		}
	}
	return n, err
}

// Close is a no-op: the runner closes the pipe in reap, after the process
// exited and the pipe drained.
func (p *pipeReader) Close() error { return nil }
