package godotrun

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/godotlog"
	"github.com/godot-mcp/godot-mcp/sdk/proctree"
)

// Spec is one run of Godot.
type Spec struct {
	// Bin is the binary; its HeadlessArgs come first on the command line.
	Bin *Binary
	// Args follow the headless flags.
	Args []string
	// Dir is the working directory (the project directory).
	Dir string
	// Timeout is the deadline of the run; the process group is killed when
	// it passes. It must be positive.
	Timeout time.Duration
	// MaxOutput is how many bytes of output the Outcome keeps (the first
	// quarter and the last three quarters); 0 means DefaultMaxOutput. The
	// errors are found in all of it regardless.
	MaxOutput int
	// Tick, if set, is called about once a second while Godot runs, with
	// the time so far and the number of lines printed.
	Tick func(elapsed time.Duration, lines int)
}

// DefaultMaxOutput is the output kept when Spec.MaxOutput is 0.
const DefaultMaxOutput = 64 << 10

// Outcome is what a run did.
type Outcome struct {
	// Command is the command line that ran.
	Command []string
	// ExitCode is Godot's exit status; nil when it was killed (timeout,
	// cancellation) or died of a signal.
	ExitCode *int
	// Signal names the signal that ended Godot when it was not ours.
	Signal string
	// TimedOut is set when the deadline passed and the group was killed.
	TimedOut bool
	// Cancelled is set when the caller gave up and the group was killed.
	Cancelled bool
	// Duration is the wall time from start to exit.
	Duration time.Duration
	// Output is the captured stdout and stderr, interleaved as Godot wrote
	// them, cut in the middle when longer than MaxOutput.
	Output string
	// OutputBytes is the size of the whole output; DroppedBytes how much
	// of it Output left out.
	OutputBytes, DroppedBytes int64
	// Lines is the number of lines printed.
	Lines int
	// Errors and Warnings are what godotlog found in the whole output;
	// DroppedEntries counts those beyond godotlog.MaxEntries.
	Errors, Warnings []godotlog.Entry
	DroppedEntries   int
}

// drainWait bounds the wait for the output pipe to close after the group
// was killed: a process that left the group (setsid) may hold it open.
const drainWait = time.Second

// MarkerEnv is the environment variable every run gives Godot, with a
// random value per run. Whatever Godot starts inherits it, so a daemon
// that double-forked away from Godot's process group and session (and was
// re-parented to the plugin, a subreaper, or to init) is still found and
// killed when the run ends (proctree.KillMarked), as the host finds what a
// plugin left behind (docs/supervisor.md, "Containment").
const MarkerEnv = "GODOT_MCP_RUN"

// guardScript is the process-group guard. It leads the run's process
// group and reads a pipe only the plugin holds open: first Godot's pid,
// then nothing until EOF, which comes when the plugin dies in any way,
// SIGKILL included. It then kills Godot's descendants, found through /proc
// by parent pid (children Godot put in a session of their own with setsid
// are out of the group), every process carrying the run's marker ($1, the
// MarkerEnv entry: daemons whose parent is gone), and its own group: Godot
// and all it started. At a normal end the plugin kills the group itself and
// the guard never reads EOF.
const guardScript = `read pid; read x
list=$pid; new=$pid
while [ -n "$new" ]; do
  found=
  for s in /proc/[0-9]*/stat; do
    read -r l < "$s" 2>/dev/null || continue
    set -- ${l##*) }
    for p in $new; do
      if [ "$2" = "$p" ]; then d=${s#/proc/}; found="$found ${d%/stat}"; fi
    done
  done
  new=$found; list="$list $found"
done
kill -9 $list 2>/dev/null
for e in /proc/[0-9]*/environ; do
  if tr '\0' '\n' < "$e" 2>/dev/null | grep -qxF "$marker"; then d=${e#/proc/}; kill -9 "${d%/environ}" 2>/dev/null; fi
done
kill -9 0`

// Run runs Godot as spec says and returns what happened. The run gets a
// process group of its own, led by a guard process (see guardScript) that
// ties the group's life to the plugin's, and the whole group is killed when
// Godot exits, when the deadline passes and when ctx is cancelled: nothing
// the run started outlives it.
//
// An error means Godot could not be started; a run that failed is an
// Outcome.
func Run(ctx context.Context, spec Spec) (*Outcome, error) {
	if spec.Timeout <= 0 {
		return nil, errors.New("godotrun: Spec.Timeout must be positive")
	}
	maxOut := spec.MaxOutput
	if maxOut <= 0 {
		maxOut = DefaultMaxOutput
	}
	args := append(spec.Bin.HeadlessArgs(), spec.Args...)
	out := &Outcome{Command: append([]string{spec.Bin.Path}, args...)}

	// The guard first: its pid is the group's id.
	guardR, guardW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer guardW.Close()
	marker, err := newMarker()
	if err != nil {
		return nil, err
	}
	guard := exec.Command("/bin/sh", "-c", "marker=\"$1\"\n"+guardScript, "guard", marker)
	guard.Stdin = guardR
	guard.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = guard.Start()
	guardR.Close()
	if err != nil {
		return nil, fmt.Errorf("starting the process-group guard: %w", err)
	}
	pgid := guard.Process.Pid
	g := &group{pgid: pgid, marker: marker}
	defer func() {
		g.kill()
		_ = guard.Wait()
		g.mu.Lock()
		g.reaped = true
		g.mu.Unlock()
	}()

	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(spec.Bin.Path, args...)
	cmd.Dir = spec.Dir
	cmd.Env = childEnv([]string{marker})
	cmd.Stdout, cmd.Stderr = outW, outW
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pgid: pgid}
	start := time.Now()
	err = cmd.Start()
	outW.Close()
	if err != nil {
		outR.Close()
		return nil, fmt.Errorf("starting %s: %w", spec.Bin.Path, err)
	}
	// The guard's first line: whose descendants to hunt if the plugin dies.
	_, _ = fmt.Fprintf(guardW, "%d\n", cmd.Process.Pid)

	capt := newCapture(maxOut)
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		capt.readFrom(outR)
	}()
	exited := make(chan struct{})
	var waitErr error
	go func() {
		waitErr = cmd.Wait()
		close(exited)
	}()

	timer := time.NewTimer(spec.Timeout)
	defer timer.Stop()
	ticker := time.NewTicker(time.Second)
	defer ticker.Stop()
loop:
	for {
		select {
		case <-exited:
			break loop
		case <-timer.C:
			out.TimedOut = true
			g.killTree(cmd.Process.Pid)
		case <-ctx.Done():
			if !out.TimedOut {
				out.Cancelled = true
			}
			g.killTree(cmd.Process.Pid)
		case <-ticker.C:
			if spec.Tick != nil {
				spec.Tick(time.Since(start), capt.lineCount())
			}
		}
		if out.TimedOut || out.Cancelled {
			<-exited
			break
		}
	}
	out.Duration = time.Since(start)
	// Godot is gone; whatever it left running goes with the group.
	g.kill()
	select {
	case <-readDone:
	case <-time.After(drainWait):
		outR.Close() // a process outside the group holds the pipe
		<-readDone
	}
	outR.Close()

	var ee *exec.ExitError
	switch {
	case out.TimedOut || out.Cancelled:
		// Killed on purpose: no exit code, and no "failure" either.
	case waitErr == nil:
		code := 0
		out.ExitCode = &code
	case errors.As(waitErr, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			out.Signal = ws.Signal().String()
		} else {
			code := ee.ExitCode()
			out.ExitCode = &code
		}
	default:
		return nil, fmt.Errorf("waiting for %s: %w", spec.Bin.Path, waitErr)
	}
	capt.finish(out)
	return out, nil
}

// newMarker returns a fresh MarkerEnv entry ("GODOT_MCP_RUN=<random>").
func newMarker() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("making the run's marker: %w", err)
	}
	return MarkerEnv + "=" + hex.EncodeToString(b), nil
}

// group is the run's process group and marker. Signals go to the group
// only while its leader, the guard, is unreaped: until then the id cannot
// name another process group.
type group struct {
	pgid   int
	marker string
	mu     sync.Mutex
	reaped bool
	swept  bool // the marked processes were killed once Godot was gone
}

// kill ends the group and then every process carrying the run's marker:
// descendants that left the group and lost their parent (a double fork).
func (g *group) kill() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.reaped {
		_ = syscall.Kill(-g.pgid, syscall.SIGKILL)
	}
	// One sweep after Godot is gone suffices: nothing is left to start a
	// marked process. (Each sweep reads every process's environment.)
	if !g.swept {
		g.swept = true
		reap(proctree.KillMarked(g.marker))
	}
}

// reapWait bounds how long reap waits for one killed process to die.
const reapWait = time.Second

// reap collects the killed processes that are the caller's children: a
// plugin built on the SDK is a subreaper, so a daemon Godot orphaned was
// re-parented to it and would stay a zombie for the plugin's life. Only
// pids just killed for carrying this run's marker are waited for, never a
// child some other exec.Cmd owns; a pid that is not our child answers
// ECHILD at once.
func reap(pids []int) {
	for _, p := range pids {
		deadline := time.Now().Add(reapWait)
		for {
			var ws syscall.WaitStatus
			n, err := syscall.Wait4(p, &ws, syscall.WNOHANG, nil)
			if n == p || err != nil || time.Now().After(deadline) {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
}

// capture keeps the head and the tail of a stream and feeds every line to
// a godotlog.Parser.
type capture struct {
	mu               sync.Mutex
	head             []byte
	tail             []byte // ring buffer of the last tailCap bytes
	tailAt           int    // next write position in tail once full
	full             bool
	headCap, tailCap int
	total            int64
	lines            int
	parser           godotlog.Parser
	line             []byte // the current, unfinished line
}

// maxLine bounds one line given to the parser; the rest of a longer line
// is not parsed (it is still counted and captured).
const maxLine = 64 << 10

func newCapture(max int) *capture {
	h := max / 4
	return &capture{headCap: h, tailCap: max - h, tail: make([]byte, 0, max-h)}
}

func (c *capture) readFrom(r io.Reader) {
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			c.write(buf[:n])
		}
		if err != nil {
			return
		}
	}
}

func (c *capture) write(p []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.total += int64(len(p))
	rest := p
	if room := c.headCap - len(c.head); room > 0 {
		n := min(room, len(rest))
		c.head = append(c.head, rest[:n]...)
		rest = rest[n:]
	}
	for len(rest) > 0 {
		if !c.full {
			n := min(c.tailCap-len(c.tail), len(rest))
			c.tail = append(c.tail, rest[:n]...)
			rest = rest[n:]
			if len(c.tail) == c.tailCap {
				c.full = true
			}
			continue
		}
		n := copy(c.tail[c.tailAt:], rest)
		c.tailAt = (c.tailAt + n) % c.tailCap
		rest = rest[n:]
	}
	for len(p) > 0 {
		i := indexByte(p, '\n')
		if i < 0 {
			c.appendLine(p)
			return
		}
		c.appendLine(p[:i])
		c.parser.Line(string(c.line))
		c.line = c.line[:0]
		c.lines++
		p = p[i+1:]
	}
}

func (c *capture) appendLine(p []byte) {
	if room := maxLine - len(c.line); room > 0 {
		c.line = append(c.line, p[:min(room, len(p))]...)
	}
}

func indexByte(p []byte, b byte) int { return bytes.IndexByte(p, b) }

func (c *capture) lineCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lines
}

// finish fills the output fields of o.
func (c *capture) finish(o *Outcome) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.line) > 0 {
		c.parser.Line(string(c.line))
		c.lines++
	}
	o.Errors, o.Warnings, o.DroppedEntries = c.parser.Finish()
	o.OutputBytes, o.Lines = c.total, c.lines
	tail := c.tail
	if c.full {
		tail = append(append([]byte{}, c.tail[c.tailAt:]...), c.tail[:c.tailAt]...)
	}
	kept := int64(len(c.head) + len(tail))
	if kept >= c.total {
		o.Output = string(c.head) + string(tail)
		return
	}
	// Start the tail at a line boundary when one is near.
	if i := indexByte(tail, '\n'); i >= 0 && i < 200 {
		tail = tail[i+1:]
	}
	o.DroppedBytes = c.total - int64(len(c.head)+len(tail))
	o.Output = strings.ToValidUTF8(string(c.head), "") +
		fmt.Sprintf("\n[… %d bytes of output dropped here; the errors and warnings above and below were still found in all of it …]\n", o.DroppedBytes) +
		strings.ToValidUTF8(string(tail), "")
}
