// Package gamesession lets any toolset reach the game session that the
// runtime toolset plays without an editor.
//
// A headless game session (godot_runtime_play_scene) is a tab of the
// runtime plugin's own Chromium, and its probe answers webgodot's
// Session.Call there. Other toolsets (input, profiling, testing, …) are
// separate plugin processes, so the runtime plugin publishes each live
// session:
//
//   - it listens on a Unix socket and relays each call to Session.Call,
//     with the same cancellation, deadlines and errors;
//   - it writes a small registry entry next to the socket, one per
//     project: the plugin's pid, the socket, a random token, the scene and
//     the engine's settings (fixed FPS);
//   - it removes both when the session ends (stop, exit, deadline,
//     replacement, plugin exit).
//
// A toolset attaches by project root and calls the probe as the runtime
// plugin would:
//
//	c, err := gamesession.Attach(projectRoot)
//	if err != nil {
//		return err // PRECONDITION_FAILED required=play_session: no game is running
//	}
//	var pong map[string]any
//	err = c.Call(ctx, "ping", nil, &pong)
//
// Entries live in one directory per user ($GODOT_MCP_GAME_DIR, else
// <temp>/godot-mcp-<uid>/games), created 0700 and refused when another
// user owns it or can read it; entries and sockets are 0600. An entry left
// behind by a plugin that was killed is stale: Attach notices (the pid is
// gone or the socket refuses) and removes it.
//
// Why a relay and not a second DevTools client on the tab: the runtime's
// Chromium talks DevTools over a pipe, not a port; a DevTools port would
// hand full control of the browser to every local user with no
// authentication; and the relay keeps one place (Session.Call) that knows
// how a game ends and what its errors mean.
package gamesession

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// DirEnv names the environment variable that overrides the directory of
// the registry.
const DirEnv = "GODOT_MCP_GAME_DIR"

// RequiredSession is the Required token of the refusal without a game.
const RequiredSession = "play_session"

// maxMessage bounds one request or answer (a screenshot fits).
const maxMessage = 64 << 20

// Info describes a published session.
type Info struct {
	// Project is the project root the session runs.
	Project string `json:"project"`
	// Scene is the res:// scene that was started.
	Scene string `json:"scene"`
	// Engine is the engine's version string.
	Engine string `json:"engine,omitempty"`
	// FixedFPS is the engine's --fixed-fps (0: real time).
	FixedFPS int `json:"fixed_fps,omitempty"`
	// Started is when the session started.
	Started time.Time `json:"started"`
}

// entry is the registry file.
type entry struct {
	Info
	PID    int    `json:"pid"`
	Socket string `json:"socket"`
	Token  string `json:"token"`
}

// CallFunc answers one probe call; params are the caller's JSON.
type CallFunc func(ctx context.Context, cmd string, params json.RawMessage) (json.RawMessage, error)

// NoSession is the refusal of a tool that needs a running game.
func NoSession() *sdk.Error {
	return &sdk.Error{Code: sdk.CodePreconditionFailed, Required: RequiredSession,
		Message: "no game is running for this project",
		Hint:    "start one with godot_runtime_play_scene (enable the runtime toolset first), then call this tool again"}
}

// Dir returns the registry directory, creating it owner-only.
func Dir() (string, error) {
	dir := os.Getenv(DirEnv)
	check := []string{dir}
	if dir == "" {
		base := filepath.Join(os.TempDir(), "godot-mcp-"+strconv.Itoa(os.Getuid()))
		dir = filepath.Join(base, "games")
		check = []string{base, dir}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("gamesession: %w", err)
	}
	// Only the owner may reach the sockets: in a shared temp directory
	// anybody could create ours first.
	for _, d := range check {
		fi, err := os.Lstat(d)
		if err != nil {
			return "", fmt.Errorf("gamesession: %w", err)
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok || !fi.IsDir() || int(st.Uid) != os.Getuid() || fi.Mode().Perm()&0o077 != 0 {
			return "", fmt.Errorf("gamesession: %s must be a directory of this user with mode 0700 (set %s to another one)", d, DirEnv)
		}
	}
	return dir, nil
}

// key names a project's entry: a hash of its resolved root.
func key(root string) string {
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	if r, err := filepath.Abs(root); err == nil {
		root = r
	}
	sum := sha256.Sum256([]byte(root))
	return hex.EncodeToString(sum[:8])
}

// Publication is a published session; Close withdraws it.
type Publication struct {
	ln        net.Listener
	entryPath string
	sockPath  string
	token     string
	call      CallFunc
	wg        sync.WaitGroup
	ctx       context.Context
	cancel    context.CancelFunc
	once      sync.Once
}

// Publish makes the session reachable by Attach(info.Project) until Close.
// A previous entry of the project is replaced.
func Publish(info Info, call CallFunc) (*Publication, error) {
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	k := key(info.Project)
	var tb [16]byte
	_, _ = rand.Read(tb[:])
	token := hex.EncodeToString(tb[:])
	// A socket per publication: closing a listener unlinks its path, which
	// must not take a newer session's socket with it.
	p := &Publication{entryPath: filepath.Join(dir, k+".json"), sockPath: filepath.Join(dir, k+"-"+token[:8]+".sock"),
		token: token, call: call}
	ln, err := net.Listen("unix", p.sockPath)
	if err != nil {
		return nil, fmt.Errorf("gamesession: %w", err)
	}
	if err := os.Chmod(p.sockPath, 0o600); err != nil {
		_ = ln.Close()
		return nil, fmt.Errorf("gamesession: %w", err)
	}
	p.ln = ln
	data, _ := json.Marshal(entry{Info: info, PID: os.Getpid(), Socket: p.sockPath, Token: p.token})
	tmp := p.entryPath + ".tmp" + strconv.Itoa(os.Getpid())
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		_ = ln.Close()
		return nil, fmt.Errorf("gamesession: %w", err)
	}
	if err := os.Rename(tmp, p.entryPath); err != nil {
		_ = os.Remove(tmp)
		_ = ln.Close()
		return nil, fmt.Errorf("gamesession: %w", err)
	}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

func (p *Publication) accept() {
	defer p.wg.Done()
	for {
		conn, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			p.serve(conn)
		}()
	}
}

type request struct {
	Token     string          `json:"token"`
	Cmd       string          `json:"cmd"`
	Params    json.RawMessage `json:"params,omitempty"`
	TimeoutMS int64           `json:"timeout_ms,omitempty"`
}

type answer struct {
	Result json.RawMessage `json:"result,omitempty"`
	Error  *sdk.Error      `json:"error,omitempty"`
}

func (p *Publication) serve(conn net.Conn) {
	defer conn.Close()
	// The call ends with the publication, with its deadline, or when the
	// caller hangs up (a read on the connection returns then).
	ctx, cancel := context.WithCancel(p.ctx)
	defer cancel()
	rd := bufio.NewReaderSize(conn, 64<<10)
	line, err := readLine(rd)
	if err != nil {
		return
	}
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		return
	}
	if subtle.ConstantTimeCompare([]byte(req.Token), []byte(p.token)) != 1 {
		writeAnswer(conn, answer{Error: &sdk.Error{Code: sdk.CodePreconditionFailed, Message: "the game session refused the call (wrong token)", Hint: "attach again with gamesession.Attach"}})
		return
	}
	if req.TimeoutMS > 0 {
		var c2 context.CancelFunc
		ctx, c2 = context.WithTimeout(ctx, time.Duration(req.TimeoutMS)*time.Millisecond)
		defer c2()
	}
	go func() {
		var b [1]byte
		_, _ = conn.Read(b[:]) // EOF when the caller goes away
		cancel()
	}()
	res, err := p.call(ctx, req.Cmd, req.Params)
	if err != nil {
		var se *sdk.Error
		switch {
		case errors.As(err, &se):
		case ctx.Err() != nil && errors.Is(err, ctx.Err()):
			// The call ran out of the time its caller gave it: say so as
			// the caller would, whichever side's clock fired first.
			errors.As(ctxError(ctx, req.Cmd), &se)
		default:
			se = &sdk.Error{Code: sdk.CodeToolError, Message: err.Error(), Hint: "check the game's output with godot_runtime_get_game_output"}
		}
		writeAnswer(conn, answer{Error: se})
		return
	}
	writeAnswer(conn, answer{Result: res})
}

func writeAnswer(conn net.Conn, a answer) {
	data, _ := json.Marshal(a)
	_, _ = conn.Write(append(data, '\n'))
}

func readLine(rd *bufio.Reader) ([]byte, error) {
	var out []byte
	for {
		chunk, isPrefix, err := rd.ReadLine()
		if err != nil {
			return nil, err
		}
		out = append(out, chunk...)
		if len(out) > maxMessage {
			return nil, errors.New("gamesession: message too large")
		}
		if !isPrefix {
			return out, nil
		}
	}
}

// Close withdraws the session: the entry and the socket go, calls in
// flight are cancelled, and Close returns once they have answered. It is
// safe to call twice.
func (p *Publication) Close() {
	p.once.Do(func() {
		// Remove the entry only while it is still ours: a newer session of
		// the project may have replaced it.
		if e, err := readEntry(p.entryPath); err == nil && e.Token == p.token {
			_ = os.Remove(p.entryPath)
		}
		p.cancel()
		_ = p.ln.Close()
		p.wg.Wait()
	})
}

func readEntry(path string) (*entry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var e entry
	if err := json.Unmarshal(data, &e); err != nil {
		return nil, err
	}
	return &e, nil
}

// Client reaches one published session.
type Client struct {
	e    entry
	path string
}

// Attach finds the live session of the project at root. Without one it
// answers NoSession; a stale entry (its plugin is gone) is removed.
func Attach(root string) (*Client, error) {
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, key(root)+".json")
	e, err := readEntry(path)
	if err != nil {
		return nil, NoSession()
	}
	if !alive(e.PID) {
		_ = os.Remove(path)
		return nil, NoSession()
	}
	return &Client{e: *e, path: path}, nil
}

// Info describes the session.
func (c *Client) Info() Info { return c.e.Info }

func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// Call sends one call to the game's probe and decodes its answer into out
// (nil: discard). Errors are the runtime's: *sdk.Error with its code; a
// session that ended meanwhile is NoSession.
func (c *Client) Call(ctx context.Context, cmd string, params any, out any) error {
	if params == nil {
		params = map[string]any{}
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return err
	}
	req := request{Token: c.e.Token, Cmd: cmd, Params: raw}
	if dl, ok := ctx.Deadline(); ok {
		req.TimeoutMS = max(1, time.Until(dl).Milliseconds())
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", c.e.Socket)
	if err != nil {
		if ctx.Err() == nil {
			// The plugin is gone or no longer serves this session.
			if e, rerr := readEntry(c.path); rerr == nil && e.Token == c.e.Token {
				_ = os.Remove(c.path)
			}
			return NoSession()
		}
		return ctxError(ctx, cmd)
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { _ = conn.Close() })
	defer stop()
	data, _ := json.Marshal(req)
	if _, err := conn.Write(append(data, '\n')); err != nil {
		if ctx.Err() != nil {
			return ctxError(ctx, cmd)
		}
		return NoSession()
	}
	line, err := readLine(bufio.NewReaderSize(conn, 64<<10))
	if err != nil {
		if ctx.Err() != nil {
			return ctxError(ctx, cmd)
		}
		if !alive(c.e.PID) {
			return NoSession()
		}
		return &sdk.Error{Code: sdk.CodeToolError, Message: fmt.Sprintf("the game session closed the connection before it answered %q: %v", cmd, err),
			Hint: "check whether the game still runs with godot_runtime_is_playing"}
	}
	var a answer
	if err := json.Unmarshal(line, &a); err != nil {
		return fmt.Errorf("gamesession: bad answer: %w", err)
	}
	if a.Error != nil {
		a.Error.Source = ""
		return a.Error
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(a.Result, out); err != nil {
		return &sdk.Error{Code: sdk.CodeToolError, Message: fmt.Sprintf("the game's probe answered %q with something unexpected: %v", cmd, err), Hint: "stop the game and start it again"}
	}
	return nil
}

func ctxError(ctx context.Context, cmd string) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return &sdk.Error{Code: sdk.CodeTimeout,
			Message: fmt.Sprintf("the game did not answer %q in time (it answers between frames; a game stuck in a loop never does)", cmd),
			Hint:    "check the game's output for an error or an endless loop, then retry"}
	}
	return &sdk.Error{Code: sdk.CodeCancelled, Message: "the call to the game was cancelled", Hint: "call again when needed", Err: ctx.Err()}
}
