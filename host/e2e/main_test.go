// Package e2e drives the real godot-mcp binary the way MCP clients do: the
// go-sdk client over stdio (mcp.CommandTransport) and over streamable HTTP
// (mcp.StreamableClientTransport), for both protocol generations, with real
// plugin processes built from internal/testplugins.
package e2e

//lint:file-ignore SA1019 MCP logging is deprecated by 2026-07-28 but 2025-11-25 sessions still get events through it, which these tests check.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host/pluginenv"
	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/fakeaddon"
	"github.com/godot-mcp/godot-mcp/internal/syncbuf"
	"github.com/godot-mcp/godot-mcp/internal/testplugins"
	"github.com/godot-mcp/godot-mcp/sdk"
)

const (
	legacy      = "2025-11-25"
	sessionless = "2026-07-28"
)

var protocols = []string{legacy, sessionless}

// callLogEnv names the file the gatetest plugin appends every call to
// (internal/testplugins/gatetest); empty means no log.
const callLogEnv = "GODOT_MCP_TEST_CALL_LOG"

var (
	bin        string // the godot-mcp binary
	plainBin   string // the benchmark baseline: a plain go-sdk server
	pluginsDir string // holds gatetest and inspection
	// projectPluginsDir holds the first-party toolsets (inspection,
	// project, runtime, export, testing, and the todo example), on their
	// own so the tests that count installed toolsets are not affected.
	projectPluginsDir string
	wsDir             string // holds wsedit (the workspace tests' own plugins dir)
	cacheDir          string // XDG_CACHE_HOME for the catalog's manifest cache
	configDir         string // XDG_CONFIG_HOME: no bridge token file unless a test writes one
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

// firstParty are the toolsets under plugins/ that the tests build and run
// through the real host, besides inspection (which shares its binary name
// with a test stand-in and is built on its own). The agent-contract
// snapshots cover each of them.
var firstParty = []string{
	"project", "runtime", "export", "testing", "scene_edit",
	"input_map", "resources_edit", "analysis", "batch", "composite",
	"tilemap", "scripts", "project_scaffold", "shader", "visual_shader",
	"asset_import", "animation", "scene_3d", "particles",
	"physics", "navigation", "input", "profiling", "debugger",
	"audio", "theme_ui", "editor",
}

func firstPartyModules() []string {
	out := make([]string, len(firstParty))
	for i, n := range firstParty {
		out[i] = "/plugins/" + n
	}
	return out
}

func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "godot-mcp-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	// One go build for everything: the machine is shared.
	builds := map[string]string{
		testplugins.Module + "/cmd/godot-mcp":                   "godot-mcp",
		testplugins.Module + "/internal/testplugins/gatetest":   "godot-mcp-toolset-gatetest",
		testplugins.Module + "/internal/testplugins/inspection": "godot-mcp-toolset-inspection",
		testplugins.Module + "/internal/testplugins/wsedit":     "godot-mcp-toolset-wsedit",
		testplugins.Module + "/host/e2e/internal/plainserver":   "plainserver",
		testplugins.Module + "/examples/todo-toolset":           "godot-mcp-toolset-todo",
	}
	for _, p := range firstPartyModules() {
		builds[testplugins.Module+p] = "godot-mcp-toolset-" + filepath.Base(p)
	}
	paths, err := testplugins.BuildCommands(dir, builds)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	bin = paths[testplugins.Module+"/cmd/godot-mcp"]
	plainBin = paths[testplugins.Module+"/host/e2e/internal/plainserver"]
	pluginsDir = filepath.Join(dir, "plugins")
	cacheDir = filepath.Join(dir, "cache")
	configDir = filepath.Join(dir, "config")
	projectPluginsDir = filepath.Join(dir, "project-plugins")
	wsDir = filepath.Join(dir, "wsplugins")
	for _, p := range []string{pluginsDir, cacheDir, configDir, projectPluginsDir, wsDir} {
		if err := os.Mkdir(p, 0o700); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	for _, n := range []string{"gatetest", "inspection"} {
		src := paths[testplugins.Module+"/internal/testplugins/"+n]
		if err := os.Rename(src, filepath.Join(pluginsDir, filepath.Base(src))); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	for _, p := range append(firstPartyModules(), "/examples/todo-toolset") {
		src := paths[testplugins.Module+p]
		if err := os.Rename(src, filepath.Join(projectPluginsDir, filepath.Base(src))); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	// The real inspection toolset has the stand-in's binary name, so it is
	// built on its own (one more package; the build cache is shared).
	real, err := testplugins.BuildCommands(projectPluginsDir, map[string]string{
		testplugins.Module + "/plugins/inspection": "godot-mcp-toolset-inspection",
	})
	if err != nil || real[testplugins.Module+"/plugins/inspection"] == "" {
		fmt.Fprintln(os.Stderr, "building plugins/inspection:", err)
		return 1
	}
	ws := paths[testplugins.Module+"/internal/testplugins/wsedit"]
	if err := os.Rename(ws, filepath.Join(wsDir, filepath.Base(ws))); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return enginecheck.RunTests(m, enginecheck.CheckLeaks)
}

// hostEnv is the environment of a host process: the test's, without the
// variables that would change what the host does, plus a private manifest
// cache and a call log for the gatetest plugin.
func hostEnv(callLog string, extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "GODOT_MCP_") || strings.HasPrefix(kv, "XDG_CACHE_HOME=") || strings.HasPrefix(kv, "XDG_CONFIG_HOME=") {
			continue
		}
		env = append(env, kv)
	}
	// Plugins see only allow-listed variables; the call log is passed by
	// name, the way an operator passes one.
	// A developer's own bridge token file (godot-mcp bridge-token) must
	// not make every test host require a token.
	env = append(env, "XDG_CACHE_HOME="+cacheDir, "XDG_CONFIG_HOME="+configDir, callLogEnv+"="+callLog, pluginenv.PassEnvVar+"="+callLogEnv,
		// The editor bridge stays off unless a test turns it on: parallel
		// hosts would race for its port, and a developer's open editor must
		// not attach to a test host.
		"GODOT_MCP_BRIDGE_URL=off")
	return append(env, extra...) // a later duplicate wins in os/exec
}

// notes collects a client's notifications.
type notes struct {
	listChanged chan struct{}
	progress    chan *mcp.ProgressNotificationParams
	logs        chan *mcp.LoggingMessageParams
}

func newClient(n *notes) *mcp.Client {
	return mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			select {
			case n.listChanged <- struct{}{}:
			default:
			}
		},
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			select {
			case n.progress <- r.Params:
			default:
			}
		},
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			select {
			case n.logs <- r.Params:
			default:
			}
		},
	})
}

func newNotes() *notes {
	return &notes{
		listChanged: make(chan struct{}, 16),
		progress:    make(chan *mcp.ProgressNotificationParams, 16),
		logs:        make(chan *mcp.LoggingMessageParams, 64),
	}
}

// session is one connected client.
type session struct {
	*mcp.ClientSession
	*notes
	callLog string
	// stderr is the host's log (stdio hosts only).
	stderr *syncbuf.Buffer
}

// stdioHost starts `godot-mcp serve` with args over stdio and connects.
func stdioHost(t testing.TB, version string, args ...string) *session {
	t.Helper()
	return stdioHostEnv(t, version, nil, args...)
}

// stdioHostEnv is stdioHost with extra environment variables for the host
// (and through it, its plugins).
// bridgeURL is a free local address for the host's editor bridge, as the
// ws:// URL GODOT_MCP_BRIDGE_URL takes and a fake addon dials.
func bridgeURL(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return "ws://" + ln.Addr().String()
}

// attachAddon starts the fake addon against the bridge of s at opts.URL
// (from bridgeURL), reconnecting fast unless opts says otherwise, waits
// until the host reports the editor attached, and closes the addon when
// the test ends.
func attachAddon(t *testing.T, s *session, opts fakeaddon.Options) *fakeaddon.Addon {
	t.Helper()
	if opts.RetryMin == 0 {
		opts.RetryMin = 10 * time.Millisecond
	}
	if opts.RetryMax == 0 {
		opts.RetryMax = 50 * time.Millisecond
	}
	ed := fakeaddon.Start(opts)
	t.Cleanup(ed.Close)
	waitUntil(t, "the editor to attach", func() bool {
		var info struct {
			Editor struct {
				Connected bool `json:"connected"`
			} `json:"editor"`
		}
		s.ok(t, "godot_get_server_info", nil, &info)
		return info.Editor.Connected
	})
	return ed
}

func stdioHostEnv(t testing.TB, version string, env []string, args ...string) *session {
	t.Helper()
	callLog := filepath.Join(t.TempDir(), "calls.jsonl")
	cmd := exec.Command(bin, append([]string{"serve", "--plugins-dir", pluginsDir}, args...)...)
	cmd.Env = hostEnv(callLog, env...)
	stderr := &syncbuf.Buffer{}
	cmd.Stderr = stderr
	n := newNotes()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := newClient(n).Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connecting over stdio: %v\nstderr:\n%s", err, stderr)
	}
	if got := cs.InitializeResult().ProtocolVersion; got != version {
		t.Fatalf("negotiated %s, want %s", got, version)
	}
	t.Cleanup(func() {
		cs.Close()
		if t.Failed() {
			t.Logf("host stderr:\n%s", stderr)
		}
	})
	return &session{ClientSession: cs, notes: n, callLog: callLog, stderr: stderr}
}

// httpHost is a running `godot-mcp serve --http`.
type httpHost struct {
	url     string
	callLog string
	stderr  *syncbuf.Buffer
}

var urlRE = regexp.MustCompile(`url=(http://\S+)`)

// startHTTP starts `godot-mcp serve --http 127.0.0.1:0` and waits for it to
// print its URL.
func startHTTP(t testing.TB, env []string, args ...string) *httpHost {
	t.Helper()
	return startHTTPAt(t, "127.0.0.1:0", env, args...)
}

// startHTTPAt starts `godot-mcp serve --http addr`; the returned URL always
// points at 127.0.0.1.
func startHTTPAt(t testing.TB, addr string, env []string, args ...string) *httpHost {
	t.Helper()
	callLog := filepath.Join(t.TempDir(), "calls.jsonl")
	cmd := exec.Command(bin, append([]string{"serve", "--http", addr, "--plugins-dir", pluginsDir}, args...)...)
	cmd.Env = hostEnv(callLog, env...)
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h := &httpHost{callLog: callLog, stderr: &syncbuf.Buffer{}}
	found := make(chan string, 1)
	scanDone := make(chan struct{})
	go func() {
		defer close(scanDone)
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(h.stderr, line)
			if m := urlRE.FindStringSubmatch(line); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			_ = cmd.Process.Kill()
			<-done
			t.Error("host did not exit on SIGTERM")
		}
		<-scanDone
		if t.Failed() {
			t.Logf("host stderr:\n%s", h.stderr)
		}
	})
	select {
	case u := <-found:
		h.url = loopbackURL(u)
	case <-time.After(30 * time.Second):
		t.Fatalf("host did not start serving HTTP\nstderr:\n%s", h.stderr)
	}
	return h
}

// connect opens a client session to the HTTP host.
func (h *httpHost) connect(t testing.TB, version string, headers map[string]string) *session {
	t.Helper()
	n := newNotes()
	tr := &mcp.StreamableClientTransport{Endpoint: h.url}
	if len(headers) > 0 {
		tr.HTTPClient = headerClient(headers)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := newClient(n).Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connecting over HTTP (%s): %v", version, err)
	}
	if got := cs.InitializeResult().ProtocolVersion; got != version {
		t.Fatalf("negotiated %s, want %s", got, version)
	}
	t.Cleanup(func() { cs.Close() })
	return &session{ClientSession: cs, notes: n, callLog: h.callLog}
}

func (s *session) names(t testing.TB) []string {
	t.Helper()
	res, err := s.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(res.Tools))
	for i, tl := range res.Tools {
		out[i] = tl.Name
	}
	return out
}

func (s *session) call(t testing.TB, name string, args any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("CallTool(%s): %v", name, err)
	}
	return res
}

func (s *session) ok(t testing.TB, name string, args any, out any) {
	t.Helper()
	res := s.call(t, name, args)
	if res.IsError {
		t.Fatalf("%s failed: %s", name, text(res))
	}
	if out != nil {
		decode(t, res, out)
	}
}

// pluginCalls reads the gatetest plugin's call log.
func (s *session) pluginCalls(t testing.TB) []string {
	t.Helper()
	return readLines(t, s.callLog)
}

func readLines(t testing.TB, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

func decode(t testing.TB, res *mcp.CallToolResult, out any) {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("structured content %s: %v", b, err)
	}
}

func toolError(t testing.TB, res *mcp.CallToolResult) sdk.Error {
	t.Helper()
	if !res.IsError {
		t.Fatalf("want an error result, got %s", text(res))
	}
	var te sdk.Error
	if res.StructuredContent == nil {
		// A tool with an output schema carries its error in the text only
		// (structured content would break the schema): CODE: message, then
		// Hint: and Required: lines.
		return errorFromText(t, text(res))
	}
	decode(t, res, &te)
	return te
}

// errorFromText reads the one text format of every godot-mcp error.
func errorFromText(t testing.TB, txt string) sdk.Error {
	t.Helper()
	var te sdk.Error
	lines := strings.Split(txt, "\n")
	code, msg, ok := strings.Cut(lines[0], ": ")
	if !ok || code == "" || strings.ToUpper(code) != code {
		t.Fatalf("error text does not start with its code: %q", txt)
	}
	te.Code, te.Message = code, msg
	for _, l := range lines[1:] {
		if h, ok := strings.CutPrefix(l, "Hint: "); ok {
			te.Hint = h
		} else if r, ok := strings.CutPrefix(l, "Required: "); ok {
			te.Required = r
		}
	}
	return te
}

func text(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func waitListChanged(t testing.TB, s *session, who string) {
	t.Helper()
	select {
	case <-s.listChanged:
	case <-time.After(15 * time.Second):
		t.Fatalf("%s: no notifications/tools/list_changed", who)
	}
}

// waitGone waits until the process pid has exited.
func waitGone(t testing.TB, pid int) {
	t.Helper()
	if !testplugins.WaitDead(pid, 15*time.Second) {
		t.Fatalf("plugin process %d still runs", pid)
	}
}

// pluginPID asks the server for a toolset's plugin pid.
func (s *session) pluginPID(t testing.TB, toolset string) int {
	t.Helper()
	var info struct {
		Toolsets []struct {
			Name  string `json:"name"`
			PID   int    `json:"pid"`
			State string `json:"state"`
		} `json:"toolsets"`
	}
	s.ok(t, "godot_get_server_info", map[string]any{"events": 0}, &info)
	for _, ts := range info.Toolsets {
		if ts.Name == toolset {
			return ts.PID
		}
	}
	t.Fatalf("server info lists no toolset %q", toolset)
	return 0
}

// drain empties a notification channel, so a later wait sees only new ones.
func drain(ch chan struct{}) {
	for {
		select {
		case <-ch:
		default:
			return
		}
	}
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// loopbackURL rewrites a URL printed for a wildcard listener
// (http://[::]:port/mcp, http://0.0.0.0:port/mcp) to 127.0.0.1.
func loopbackURL(u string) string {
	for _, wild := range []string{"[::]", "0.0.0.0"} {
		u = strings.Replace(u, "://"+wild+":", "://127.0.0.1:", 1)
	}
	return u
}
