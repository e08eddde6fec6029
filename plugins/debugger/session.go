package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// A session is one game run under the debugger: the plugin listens on a
// loopback port, starts Godot with --remote-debug pointing at it, and the
// game connects back. The game runs in a process group of its own
// (godotrun.Run) with a deadline; it is killed by godot_debugger_stop, by
// the next godot_debugger_run, at the deadline, and with the plugin (the
// group's guard kills it when the plugin exits, as when the toolset is
// disabled).

// Timeouts of the protocol.
var (
	connectWait = 30 * time.Second // for the game to connect after start
	replyWait   = 10 * time.Second // for the game to answer a query
)

// frame is one stack frame.
type frame struct {
	Level    int    `json:"level"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Function string `json:"function"`
	Location string `json:"location" jsonschema:"res://file:line"`
}

// variable is one variable of a frame.
type variable struct {
	Name  string `json:"name"`
	Type  string `json:"type" jsonschema:"the Godot type of the value"`
	Value any    `json:"value"`
}

type session struct {
	d        Dialect
	bin      *godotrun.Binary
	conn     net.Conn
	rd       *msgReader
	wmu      sync.Mutex
	kill     context.CancelFunc
	done     chan struct{} // closed when Godot exited
	outcome  *godotrun.Outcome
	runErr   error
	started  time.Time
	deadline time.Time
	command  []string

	mu          sync.Mutex
	changed     chan struct{} // closed and replaced on every state change
	paused      bool
	breaks      int // debug_enter messages so far
	thread      int64
	reason      string
	closed      bool // the connection ended
	output      []string
	errs        []string
	replies     chan message
	opLock      chan struct{}
	threadedCmd bool
}

const maxKept = 200 // output lines and errors kept

func newSession(d Dialect, bin *godotrun.Binary) *session {
	return &session{
		d: d, bin: bin, changed: make(chan struct{}), done: make(chan struct{}),
		replies: make(chan message, 4096), opLock: make(chan struct{}, 1),
		threadedCmd: d == Godot4 && (bin == nil || bin.Major > 4 || bin.Minor >= 2),
	}
}

func (s *session) notify() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// serve reads the game's messages until the connection ends.
func (s *session) serve() {
	defer func() {
		s.mu.Lock()
		s.closed, s.paused = true, false
		s.notify()
		s.mu.Unlock()
	}()
	for {
		m, err := s.rd.next()
		if err != nil {
			if !errors.Is(err, net.ErrClosed) && !errors.Is(err, io.EOF) {
				s.mu.Lock()
				s.errs = keep(s.errs, "debugger connection: "+err.Error())
				s.mu.Unlock()
			}
			return
		}
		s.handle(m)
	}
}

func keep(list []string, v ...string) []string {
	list = append(list, v...)
	if len(list) > maxKept {
		list = list[len(list)-maxKept:]
	}
	return list
}

func (s *session) handle(m message) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch m.Name {
	case "debug_enter":
		s.paused = true
		s.breaks++
		s.reason = ""
		if len(m.Data) > 1 {
			s.reason, _ = m.Data[1].(string)
		}
		s.thread = m.Thread
		if len(m.Data) > 3 {
			if t, ok := m.Data[3].(int64); ok {
				s.thread = t
			}
		}
		s.notify()
	case "debug_exit":
		s.paused = false
		s.notify()
	case "output":
		for _, v := range m.Data {
			switch x := v.(type) {
			case string:
				s.output = keep(s.output, strings.TrimRight(x, "\n"))
			case Packed: // Godot 4: [strings, types]
				if x.Type == "PackedStringArray" {
					for _, it := range x.Items {
						str, _ := it.(string)
						s.output = keep(s.output, strings.TrimRight(str, "\n"))
					}
				}
			case []any:
				for _, it := range x {
					if str, ok := it.(string); ok {
						s.output = keep(s.output, strings.TrimRight(str, "\n"))
					}
				}
			}
		}
	case "error":
		s.errs = keep(s.errs, describeError(s.d, m.Data))
	case "stack_dump", "stack_frame_vars", "stack_frame_var", "evaluation_return":
		select {
		case s.replies <- m:
		default: // nobody asked for this many; drop
		}
	}
}

// describeError renders an "error" message as "file:line: error".
func describeError(d Dialect, data []any) string {
	arr := data
	if d == Godot3 && len(data) > 0 {
		if a, ok := data[0].([]any); ok {
			arr = a
		}
	}
	str := func(i int) string {
		if i < len(arr) {
			return fmt.Sprint(arr[i])
		}
		return ""
	}
	if d == Godot3 { // [hr, min, sec, msec, func, file, line, error, descr, warning]
		return fmt.Sprintf("%s:%s: %s %s", str(5), str(6), str(7), str(8))
	}
	// [hr, min, sec, msec, file, func, line, error, descr, warning, …]
	return fmt.Sprintf("%s:%s: %s %s", str(4), str(6), str(7), str(8))
}

func (s *session) state() (paused, closed bool, breaks int, changed chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.paused, s.closed, s.breaks, s.changed
}

// lock serialises the operations of tool calls on the session.
func (s *session) lock(ctx context.Context) error {
	select {
	case s.opLock <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *session) unlock() { <-s.opLock }

// send sends a command to the game; while paused it goes to the thread
// that broke.
func (s *session) send(name string, args ...any) error {
	s.mu.Lock()
	thread := int64(0)
	if s.paused {
		thread = s.thread
	}
	threaded := s.threadedCmd || s.rd.threaded
	s.mu.Unlock()
	s.wmu.Lock()
	defer s.wmu.Unlock()
	_ = s.conn.SetWriteDeadline(time.Now().Add(replyWait))
	if err := command(s.conn, s.d, threaded, thread, name, args...); err != nil {
		return gone(fmt.Sprintf("sending %s to the game failed: %v", name, err))
	}
	return nil
}

func gone(why string) *sdk.Error {
	e := sdk.Errorf(sdk.CodePreconditionFailed, "start the game again with godot_debugger_run", "the game is no longer connected to the debugger: %s", why)
	e.Required = requiredSession
	return e
}

// drain drops replies nobody waited for.
func (s *session) drain() {
	for {
		select {
		case <-s.replies:
		default:
			return
		}
	}
}

// reply waits for the game's message named name. The game leaving the
// break (Godot 4 resumes when evaluate has no script instance) or the
// connection ending is an error.
func (s *session) reply(ctx context.Context, name string) (message, error) {
	t := time.NewTimer(replyWait)
	defer t.Stop()
	for {
		_, _, _, changed := s.state()
		select {
		case m := <-s.replies:
			if m.Name == name {
				return m, nil
			}
		case <-changed:
			paused, closed, _, _ := s.state()
			if closed {
				return message{}, gone("the connection ended while waiting for " + name)
			}
			if !paused {
				return message{}, sdk.Errorf(sdk.CodePreconditionFailed, "set a breakpoint or call godot_debugger_force_break, then retry",
					"the game resumed before it answered %s", name)
			}
		case <-t.C:
			return message{}, sdk.Errorf(sdk.CodeTimeout, "retry; if it keeps failing stop the game with godot_debugger_stop and run it again",
				"the game did not answer %s within %s", name, replyWait)
		case <-ctx.Done():
			return message{}, ctx.Err()
		}
	}
}

// waitBreak waits until the game breaks after breaks debug_enters, or
// wait passes (false).
func (s *session) waitBreak(ctx context.Context, breaks int, wait time.Duration) (bool, error) {
	t := time.NewTimer(wait)
	defer t.Stop()
	for {
		paused, closed, n, changed := s.state()
		if paused && n > breaks {
			return true, nil
		}
		if closed {
			return false, gone("the game exited or closed the connection")
		}
		select {
		case <-changed:
		case <-t.C:
			return false, nil
		case <-ctx.Done():
			return false, ctx.Err()
		}
	}
}

// stack asks for the stack of the break.
func (s *session) stack(ctx context.Context) ([]frame, error) {
	s.drain()
	if err := s.send("get_stack_dump"); err != nil {
		return nil, err
	}
	m, err := s.reply(ctx, "stack_dump")
	if err != nil {
		return nil, err
	}
	var frames []frame
	add := func(file any, line any, fn any) {
		f := frame{Level: len(frames)}
		f.File, _ = file.(string)
		if n, ok := line.(int64); ok {
			f.Line = int(n)
		}
		f.Function = fmt.Sprint(fn)
		if sn, ok := fn.(StringName); ok {
			f.Function = string(sn)
		}
		f.Location = fmt.Sprintf("%s:%d", f.File, f.Line)
		frames = append(frames, f)
	}
	if s.d == Godot3 { // one Dictionary per frame: file, line, function, id
		for _, v := range m.Data {
			d, ok := v.(*Dict)
			if !ok {
				return nil, malformed("a stack frame that is a %T", v)
			}
			add(d.get("file"), d.get("line"), d.get("function"))
		}
		return frames, nil
	}
	// Godot 4: [3n, file, line, function, …]
	if len(m.Data) < 1 {
		return nil, malformed("an empty stack_dump")
	}
	for i := 1; i+2 < len(m.Data); i += 3 {
		add(m.Data[i], m.Data[i+1], m.Data[i+2])
	}
	return frames, nil
}

// get returns the value of the string key k.
func (d *Dict) get(k string) any {
	for i, key := range d.Keys {
		if s, ok := key.(string); ok && s == k {
			return d.Values[i]
		}
		if s, ok := key.(StringName); ok && string(s) == k {
			return d.Values[i]
		}
	}
	return nil
}

// vars asks for the locals, members and globals of frame level.
func (s *session) vars(ctx context.Context, level int) (locals, members, globals []variable, err error) {
	s.drain()
	if err := s.send("get_stack_frame_vars", int64(level)); err != nil {
		return nil, nil, nil, err
	}
	m, err := s.reply(ctx, "stack_frame_vars")
	if err != nil {
		return nil, nil, nil, err
	}
	if s.d == Godot3 { // [n, name, value, …] for locals, members, globals
		lists := [3][]variable{}
		i := 0
		for l := range 3 {
			if i >= len(m.Data) {
				break
			}
			n, _ := m.Data[i].(int64)
			i++
			for ; n > 0 && i+1 < len(m.Data); n-- {
				name, _ := m.Data[i].(string)
				lists[l] = append(lists[l], variable{Name: name, Type: typeName(m.Data[i+1]), Value: toJSON(m.Data[i+1])})
				i += 2
			}
		}
		return lists[0], lists[1], lists[2], nil
	}
	if len(m.Data) < 1 {
		return nil, nil, nil, malformed("an empty stack_frame_vars")
	}
	n, _ := m.Data[0].(int64)
	if n < 0 || n > maxValues {
		return nil, nil, nil, malformed("stack_frame_vars announces %d variables", n)
	}
	for range n {
		v, err := s.reply(ctx, "stack_frame_var")
		if err != nil {
			return nil, nil, nil, err
		}
		name, kind, value, ok := stackVar(v.Data)
		if !ok {
			return nil, nil, nil, malformed("a stack_frame_var of %d values", len(v.Data))
		}
		vr := variable{Name: name, Type: typeName(value), Value: toJSON(value)}
		switch kind {
		case 0:
			locals = append(locals, vr)
		case 1:
			members = append(members, vr)
		default:
			globals = append(globals, vr)
		}
	}
	return locals, members, globals, nil
}

// stackVar reads a ScriptStackVariable: [name, type, var_type, value]
// (Godot 4.0: [name, type, value]).
func stackVar(data []any) (name string, kind int64, value any, ok bool) {
	if len(data) != 3 && len(data) != 4 {
		return "", 0, nil, false
	}
	name, _ = data[0].(string)
	kind, _ = data[1].(int64)
	return name, kind, data[len(data)-1], true
}

// evaluate evaluates expr in frame level (Godot 4).
func (s *session) evaluate(ctx context.Context, expr string, level int) (variable, error) {
	s.drain()
	if err := s.send("evaluate", expr, int64(level)); err != nil {
		return variable{}, err
	}
	m, err := s.reply(ctx, "evaluation_return")
	if err != nil {
		return variable{}, err
	}
	_, _, value, ok := stackVar(m.Data)
	if !ok {
		return variable{}, malformed("an evaluation_return of %d values", len(m.Data))
	}
	return variable{Name: expr, Type: typeName(value), Value: toJSON(value)}, nil
}

// close kills the game and waits for it to be gone.
func (s *session) close() {
	s.kill()
	s.mu.Lock()
	conn := s.conn
	s.mu.Unlock()
	if conn != nil {
		conn.Close()
	}
	<-s.done
}

// snapshot of what the game printed.
func (s *session) printed() (output, errs []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.output...), append([]string(nil), s.errs...)
}

// bp is a breakpoint.
type bp struct {
	Path string `json:"path" jsonschema:"res:// path of the GDScript file"`
	Line int    `json:"line" jsonschema:"line number, 1-based"`
}

// breakpoints are the breakpoints set, kept across runs: a run starts
// with all of them (--breakpoints).
type breakpoints struct {
	mu  sync.Mutex
	set map[bp]bool
}

func (b *breakpoints) add(p bp) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.set == nil {
		b.set = map[bp]bool{}
	}
	b.set[p] = true
}

func (b *breakpoints) remove(p bp) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	had := b.set[p]
	delete(b.set, p)
	return had
}

func (b *breakpoints) list() []bp {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]bp, 0, len(b.set))
	for p := range b.set {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Line < out[j].Line
	})
	return out
}

func (b *breakpoints) clear() []bp {
	l := b.list()
	b.mu.Lock()
	b.set = nil
	b.mu.Unlock()
	return l
}

// start runs the game under the debugger: listen, start Godot, accept its
// connection.
func start(ctx context.Context, bin *godotrun.Binary, dir string, args []string, bps []bp, timeout time.Duration) (*session, error) {
	d := Godot4
	if bin.Major == 3 {
		d = Godot3
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listening for the game's debugger: %w", err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	remote := fmt.Sprintf("127.0.0.1:%d", port)
	if d == Godot4 {
		remote = "tcp://" + remote
	}
	full := []string{"--path", dir, "--remote-debug", remote}
	if len(bps) > 0 {
		var list []string
		for _, p := range bps {
			list = append(list, fmt.Sprintf("%s:%d", p.Path, p.Line))
		}
		full = append(full, "--breakpoints", strings.Join(list, ","))
	}
	full = append(full, args...)

	s := newSession(d, bin)
	runCtx, kill := context.WithCancel(context.Background())
	s.kill = kill
	s.started = time.Now()
	s.deadline = s.started.Add(timeout)
	s.command = append(append([]string{bin.Path}, bin.HeadlessArgs()...), full...)
	go func() {
		defer close(s.done)
		o, err := godotrun.Run(runCtx, godotrun.Spec{Bin: bin, Args: full, Dir: dir, Timeout: timeout})
		s.mu.Lock()
		s.outcome, s.runErr = o, err
		conn := s.conn
		s.mu.Unlock()
		// Godot is gone: so is the connection.
		if conn != nil {
			conn.Close()
		}
		kill()
	}()

	type accepted struct {
		c   net.Conn
		err error
	}
	ch := make(chan accepted, 1)
	go func() {
		c, err := ln.Accept()
		ch <- accepted{c, err}
	}()
	fail := func(e error) (*session, error) {
		kill()
		<-s.done
		return nil, e
	}
	select {
	case a := <-ch:
		if a.err != nil {
			return fail(a.err)
		}
		s.mu.Lock()
		s.conn = a.c
		s.mu.Unlock()
	case <-s.done:
		s.mu.Lock()
		o, rerr := s.outcome, s.runErr
		s.mu.Unlock()
		if rerr != nil {
			return nil, rerr
		}
		return nil, sdk.Errorf(sdk.CodePreconditionFailed, "fix the errors Godot printed, then run again",
			"Godot exited before it connected to the debugger (exit %v): %s", exitOf(o), tail(o.Output, 1500))
	case <-time.After(connectWait):
		return fail(sdk.Errorf(sdk.CodeTimeout, "check that the binary is a debug build (an export template has no debugger), or set GODOT_MCP_GODOT_BIN to a Godot editor binary",
			"the game did not connect to the debugger within %s", connectWait))
	case <-ctx.Done():
		return fail(ctx.Err())
	}
	s.rd = &msgReader{r: bufio.NewReaderSize(quickAck(s.conn), 64<<10), d: d}
	go s.serve()
	return s, nil
}

func exitOf(o *godotrun.Outcome) string {
	if o == nil || o.ExitCode == nil {
		return "none"
	}
	return fmt.Sprint(*o.ExitCode)
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
