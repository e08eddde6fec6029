package server

//lint:file-ignore SA1019 the tests cover MCP logging, which 2025-11-25 clients still use.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/godot-mcp/godot-mcp/host/config"
	"github.com/godot-mcp/godot-mcp/host/events"
	"github.com/godot-mcp/godot-mcp/host/exposure"
	"github.com/godot-mcp/godot-mcp/host/gate"
	"github.com/godot-mcp/godot-mcp/host/metrics"
	"github.com/godot-mcp/godot-mcp/host/supervisor"
	"github.com/godot-mcp/godot-mcp/internal/engines"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const (
	legacy      = "2025-11-25"
	sessionless = "2026-07-28"
)

var protocols = []string{legacy, sessionless}

// fakePlugins stands in for the supervisor: it records every call and
// answers with what it received.
type fakePlugins struct {
	mu      sync.Mutex
	calls   []string // "toolset/tool args dry_run"
	running map[string]bool
	callErr error
	lastReq supervisor.CallRequest
	status  map[string]supervisor.Status // overrides what Status reports
}

func (f *fakePlugins) Start(_ context.Context, n string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.running == nil {
		f.running = map[string]bool{}
	}
	f.running[n] = true
	return nil
}

func (f *fakePlugins) Stop(_ context.Context, n string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.running, n)
	return nil
}

func (f *fakePlugins) Status(n string) supervisor.Status {
	f.mu.Lock()
	defer f.mu.Unlock()
	if st, ok := f.status[n]; ok {
		return st
	}
	if f.running[n] {
		return supervisor.Status{State: supervisor.Running, PID: 4242}
	}
	return supervisor.Status{State: supervisor.Stopped}
}

func (f *fakePlugins) Call(_ context.Context, toolset string, req supervisor.CallRequest, onProgress func(supervisor.Progress)) (sdk.Result, error) {
	f.mu.Lock()
	f.calls = append(f.calls, fmt.Sprintf("%s/%s %s %v", toolset, req.Tool, req.Args, req.DryRun))
	f.lastReq = req
	err := f.callErr
	f.mu.Unlock()
	if err != nil {
		return sdk.Result{}, err
	}
	if onProgress != nil {
		for i := range 3 {
			onProgress(supervisor.Progress{Done: float64(i + 1), Total: 3, Message: "step"})
		}
	}
	if req.Tool == "broken" {
		// What supervisor.Call returns for a tool's own failure.
		return sdk.Result{IsError: true}, &sdk.Error{Code: "NOT_FOUND", Message: "no such node", Hint: "check the path", Toolset: toolset, Source: sdk.SourcePlugin}
	}
	return sdk.Result{
		Content:    []sdk.Content{sdk.TextContent{Text: "ok"}},
		Structured: json.RawMessage(fmt.Appendf(nil, `{"args":%s,"dry_run":%v}`, req.Args, req.DryRun)),
	}, nil
}

func (f *fakePlugins) seen() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.calls)
}

func tool(name string, class manifest.SafetyClass, schema string) manifest.Tool {
	return manifest.Tool{Name: name, Description: name + " tool", SafetyClass: class, InputSchema: json.RawMessage(schema)}
}

func withOutput(t manifest.Tool, schema string) manifest.Tool {
	t.OutputSchema = json.RawMessage(schema)
	return t
}

const nodeSchema = `{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`

func testToolsets() []*manifest.Manifest {
	return []*manifest.Manifest{
		{Name: "inspection", Version: "1.0.0", Description: "Read the project.", Tools: []manifest.Tool{
			tool("scene_tree", manifest.ReadOnly, `{"type":"object"}`),
			tool("broken", manifest.ReadOnly, `{"type":"object"}`),
		}},
		{Name: "scene_edit", Version: "1.0.0", Description: "Edit scenes.", Godot: ">= 4.4", Tools: []manifest.Tool{
			withOutput(tool("add_node", manifest.Mutating, nodeSchema), `{"type":"object","properties":{"args":{"type":"object"},"dry_run":{"type":"boolean"}},"required":["args","dry_run"],"additionalProperties":false}`),
			tool("delete_node", manifest.Destructive, nodeSchema),
		}},
		{Name: "runtime", Version: "1.0.0", Description: "Drive the game.", Tools: []manifest.Tool{
			tool("play", manifest.Runtime, `{"type":"object"}`),
			tool("secret", manifest.ReadOnly, `{"type":"object"}`),
		}},
	}
}

type env struct {
	srv     *Server
	gate    *gate.Gate
	plugins *fakePlugins
	bus     *events.Bus
	ring    *events.Ring
}

type envOptions struct {
	godot    string
	policy   Policy
	local    string
	profile  string
	seed     []string
	editor   Editor
	project  string
	problems func() []error
	metrics  *metrics.Registry
	toolsets []*manifest.Manifest // nil: testToolsets()
}

func newEnv(t testing.TB, o envOptions) *env {
	t.Helper()
	bus := events.NewBus(nil)
	ring := events.NewRing(200)
	bus.Subscribe(ring)
	fp := &fakePlugins{}
	toolsets := o.toolsets
	if toolsets == nil {
		toolsets = testToolsets()
	}
	tools := NewTools(ToolsOptions{Version: "test", Toolsets: toolsets, Bus: bus})
	g := gate.New(gate.Options{Toolsets: toolsets, Plugins: fp, Surface: tools, Bus: bus, GodotVersion: o.godot, VersionSource: "flag"})
	srv, err := New(Options{Version: "test", Tools: tools, Gate: g, Plugins: fp, Policy: o.policy, Bus: bus, Ring: ring, LocalTransport: o.local, LocalProfile: o.profile, Editor: o.editor,
		ProjectDir: o.project, Problems: o.problems, Metrics: o.metrics})
	if err != nil {
		t.Fatal(err)
	}
	bus.Subscribe(srv.LoggingSink())
	seed := o.seed
	if seed == nil {
		seed = gate.Defaults(nil)
	}
	g.Seed(context.Background(), seed, "startup")
	t.Cleanup(bus.Close)
	return &env{srv: srv, gate: g, plugins: fp, bus: bus, ring: ring}
}

// client is one connected test client with its notifications.
type client struct {
	cs          *mcp.ClientSession
	listChanged chan struct{}
	logs        chan *mcp.LoggingMessageParams
	progress    chan *mcp.ProgressNotificationParams
}

func (e *env) connect(t testing.TB, version string) *client {
	t.Helper()
	c := &client{
		listChanged: make(chan struct{}, 16),
		logs:        make(chan *mcp.LoggingMessageParams, 64),
		progress:    make(chan *mcp.ProgressNotificationParams, 16),
	}
	mc := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { c.listChanged <- struct{}{} },
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			select {
			case c.logs <- r.Params:
			default:
			}
		},
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) { c.progress <- r.Params },
	})
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := e.srv.Connect(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mc.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	if got := cs.InitializeResult().ProtocolVersion; got != version {
		t.Fatalf("negotiated %s, want %s", got, version)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	c.cs = cs
	return c
}

func (c *client) names(t *testing.T) []string {
	t.Helper()
	res, err := c.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, tl := range res.Tools {
		out = append(out, tl.Name)
	}
	return out
}

func (c *client) call(t *testing.T, name string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := c.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("CallTool(%s): %v", name, err)
	}
	return res
}

func structured(t *testing.T, res *mcp.CallToolResult, v any) {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("structured content %s: %v", b, err)
	}
}

func toolErr(t *testing.T, res *mcp.CallToolResult) sdk.Error {
	t.Helper()
	if !res.IsError {
		t.Fatalf("want an error result, got %+v", res)
	}
	var te sdk.Error
	if res.StructuredContent == nil {
		// A tool with an output schema: the error is in the text only.
		return parseErrorText(t, res.Content[0].(*mcp.TextContent).Text)
	}
	structured(t, res, &te)
	return te
}

// parseErrorText reads sdk.Error.Text back: "CODE: message", then
// "Hint: …" and "Required: …" lines.
func parseErrorText(t *testing.T, text string) sdk.Error {
	t.Helper()
	lines := strings.Split(text, "\n")
	var te sdk.Error
	var ok bool
	te.Code, te.Message, ok = strings.Cut(lines[0], ": ")
	if !ok {
		t.Fatalf("error text %q does not start with a code", text)
	}
	for _, l := range lines[1:] {
		if h, ok := strings.CutPrefix(l, "Hint: "); ok {
			te.Hint = h
		} else if r, ok := strings.CutPrefix(l, "Required: "); ok {
			te.Required = r
		}
	}
	return te
}

func waitFor(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
	}
}

var coreNames = []string{
	"godot_debug_workflow", "godot_describe_class", "godot_disable_toolset", "godot_enable_toolset", "godot_get_server_info",
	"godot_health_check", "godot_list_history", "godot_list_tools_by_safety_class", "godot_list_toolsets",
	"godot_read_resource", "godot_redo", "godot_undo",
}

func TestDefaultSurfaceIsCoreAndInspection(t *testing.T) {
	for _, v := range protocols {
		t.Run(v, func(t *testing.T) {
			e := newEnv(t, envOptions{godot: "4.5"})
			c := e.connect(t, v)
			want := slices.Sorted(slices.Values(append(slices.Clone(coreNames), "godot_inspection_broken", "godot_inspection_scene_tree")))
			if got := c.names(t); !slices.Equal(got, want) {
				t.Errorf("tools = %v\nwant    %v", got, want)
			}
			ins := c.cs.InitializeResult().Instructions
			for _, s := range []string{"- inspection: Read the project.", "- scene_edit: Edit scenes.", `godot_enable_toolset({"toolsets":["name", …]})`} {
				if !strings.Contains(ins, s) {
					t.Errorf("instructions lack %q:\n%s", s, ins)
				}
			}
		})
	}
}

func TestEnableShowsToolsNotifiesAndReturnsSchemas(t *testing.T) {
	for _, v := range protocols {
		t.Run(v, func(t *testing.T) {
			e := newEnv(t, envOptions{godot: "4.5"})
			c := e.connect(t, v)
			other := e.connect(t, v)
			res := c.call(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"scene_edit", "runtime"}})
			if res.IsError {
				t.Fatalf("enable failed: %+v", res.Content[0])
			}
			var out struct {
				Enabled []string   `json:"enabled"`
				Tools   []mcp.Tool `json:"tools"`
			}
			structured(t, res, &out)
			// The pull fallback is compact: one summary line, then JSON
			// without indentation and without output schemas.
			text := res.Content[0].(*mcp.TextContent).Text
			if strings.Count(text, "\n") != 1 || strings.Contains(text, "outputSchema") || strings.Contains(text, "_meta") {
				t.Errorf("enable result text is not compact:\n%s", text)
			}
			if !slices.Equal(out.Enabled, []string{"scene_edit", "runtime"}) {
				t.Errorf("enabled = %v", out.Enabled)
			}
			byName := map[string]mcp.Tool{}
			for _, tl := range out.Tools {
				byName[tl.Name] = tl
			}
			del, ok := byName["godot_scene_edit_delete_node"]
			if !ok || len(out.Tools) != 4 {
				t.Fatalf("enable result tools = %v", out.Tools)
			}
			schema, _ := json.Marshal(del.InputSchema)
			for _, s := range []string{`"confirm"`, `"dry_run"`, `"path"`} {
				if !strings.Contains(string(schema), s) {
					t.Errorf("delete_node schema %s lacks %s", schema, s)
				}
			}
			if del.Annotations == nil || del.Annotations.DestructiveHint == nil || !*del.Annotations.DestructiveHint {
				t.Errorf("delete_node annotations = %+v", del.Annotations)
			}
			waitFor(t, c.listChanged, "list_changed on the enabling session")
			waitFor(t, other.listChanged, "list_changed on another session")
			got := other.names(t)
			for _, n := range []string{"godot_scene_edit_add_node", "godot_scene_edit_delete_node", "godot_runtime_play"} {
				if !slices.Contains(got, n) {
					t.Errorf("after enable, another session's list lacks %s: %v", n, got)
				}
			}
			// Idempotent.
			res = c.call(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"scene_edit"}})
			structured(t, res, &out)
			if res.IsError || len(out.Enabled) != 0 || len(out.Tools) != 0 {
				t.Errorf("second enable = %+v", out)
			}
		})
	}
}

func TestDisabledToolAnswersWithTheEnableCall(t *testing.T) {
	e := newEnv(t, envOptions{godot: "4.5"})
	c := e.connect(t, legacy)
	te := toolErr(t, c.call(t, "godot_scene_edit_delete_node", map[string]any{"path": "a"}))
	if te.Code != sdk.CodeToolsetDisabled || te.Toolset != "scene_edit" ||
		!strings.Contains(te.Hint, `godot_enable_toolset({"toolsets":["scene_edit"]})`) {
		t.Errorf("error = %+v", te)
	}
	if seen := e.plugins.seen(); len(seen) != 0 {
		t.Errorf("plugin saw %v", seen)
	}
	// An unknown name is still the SDK's protocol error.
	if _, err := c.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "godot_nope"}); err == nil {
		t.Error("calling an unknown tool succeeded")
	}
}

func TestVersionRefusedEnableIsStructured(t *testing.T) {
	for _, godot := range []string{"", "4.3"} {
		t.Run("godot="+godot, func(t *testing.T) {
			e := newEnv(t, envOptions{godot: godot})
			c := e.connect(t, sessionless)
			te := toolErr(t, c.call(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"scene_edit"}}))
			if te.Code != sdk.CodePreconditionFailed || te.Required != sdk.RequiredGodotVersion || te.Toolset != "scene_edit" ||
				!strings.Contains(te.Hint, ">= 4.4") {
				t.Errorf("error = %+v", te)
			}
			if !strings.Contains(te.Hint, "found "+orStr(godot, "no version")) {
				t.Errorf("hint %q does not name the found version", te.Hint)
			}
		})
	}
}

func TestSafety(t *testing.T) {
	e := newEnv(t, envOptions{godot: "4.5", seed: []string{"scene_edit"}})
	c := e.connect(t, legacy)
	tests := []struct {
		name     string
		tool     string
		args     map[string]any
		code     string
		required string
		sees     string // what the plugin receives; "" = nothing
	}{
		{"destructive without confirm", "godot_scene_edit_delete_node", map[string]any{"path": "a"}, sdk.CodePreconditionFailed, sdk.RequiredConfirm, ""},
		{"destructive with confirm=false", "godot_scene_edit_delete_node", map[string]any{"path": "a", "confirm": false}, sdk.CodePreconditionFailed, sdk.RequiredConfirm, ""},
		{"destructive dry run needs no confirm", "godot_scene_edit_delete_node", map[string]any{"path": "a", "dry_run": true}, "", "", `scene_edit/delete_node {"path":"a"} true`},
		{"bad arguments", "godot_scene_edit_add_node", map[string]any{"path": 7}, sdk.CodeInvalidArgument, "", ""},
		{"unknown argument", "godot_scene_edit_add_node", map[string]any{"path": "a", "x": 1}, sdk.CodeInvalidArgument, "", ""},
		{"confirmed", "godot_scene_edit_delete_node", map[string]any{"path": "a", "confirm": true}, "", "", `scene_edit/delete_node {"path":"a"} false`},
		{"dry run", "godot_scene_edit_add_node", map[string]any{"path": "b", "dry_run": true}, "", "", `scene_edit/add_node {"path":"b"} true`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(e.plugins.seen())
			res := c.call(t, tt.tool, tt.args)
			seen := e.plugins.seen()[before:]
			if tt.code != "" {
				te := toolErr(t, res)
				if te.Code != tt.code || te.Required != tt.required {
					t.Errorf("error = %+v, want code %s required %q", te, tt.code, tt.required)
				}
			} else if res.IsError {
				t.Fatalf("call failed: %+v", res.Content)
			}
			want := []string{}
			if tt.sees != "" {
				want = []string{tt.sees}
			}
			if !slices.Equal(append([]string{}, seen...), want) {
				t.Errorf("plugin saw %v, want %v", seen, want)
			}
		})
	}
}

func TestPluginErrorsAreStructured(t *testing.T) {
	e := newEnv(t, envOptions{godot: "4.5"})
	c := e.connect(t, legacy)
	te := toolErr(t, c.call(t, "godot_inspection_broken", nil))
	if te.Code != "NOT_FOUND" || te.Hint != "check the path" || te.Toolset != "inspection" {
		t.Errorf("plugin error = %+v", te)
	}
	e.plugins.mu.Lock()
	e.plugins.callErr = &sdk.Error{Code: sdk.CodePluginCrashed, Toolset: "inspection", Message: "the plugin died", Hint: "it restarts"}
	e.plugins.mu.Unlock()
	te = toolErr(t, c.call(t, "godot_inspection_scene_tree", nil))
	if te.Code != sdk.CodePluginCrashed || te.Hint != "it restarts" {
		t.Errorf("supervisor error = %+v", te)
	}
	e.plugins.mu.Lock()
	e.plugins.callErr = errors.New("boom")
	e.plugins.mu.Unlock()
	if te = toolErr(t, c.call(t, "godot_inspection_scene_tree", nil)); te.Code != sdk.CodeInternalError {
		t.Errorf("plain error = %+v", te)
	}
}

func TestProgressIsForwarded(t *testing.T) {
	e := newEnv(t, envOptions{godot: "4.5"})
	c := e.connect(t, legacy)
	res, err := c.cs.CallTool(context.Background(), &mcp.CallToolParams{
		Name: "godot_inspection_scene_tree", Arguments: map[string]any{}, Meta: mcp.Meta{"progressToken": "p1"},
	})
	if err != nil || res.IsError {
		t.Fatal(err, res)
	}
	for i := range 3 {
		select {
		case p := <-c.progress:
			if p.ProgressToken != "p1" || p.Progress != float64(i+1) || p.Total != 3 {
				t.Errorf("progress %d = %+v", i, p)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("progress %d not received", i)
		}
	}
}

func TestDisableRemovesTools(t *testing.T) {
	e := newEnv(t, envOptions{godot: "4.5", seed: []string{"inspection", "scene_edit"}})
	c := e.connect(t, sessionless)
	res := c.call(t, "godot_disable_toolset", map[string]any{"toolsets": []string{"scene_edit", "runtime"}})
	var out struct {
		Disabled        []string `json:"disabled"`
		AlreadyDisabled []string `json:"already_disabled"`
	}
	structured(t, res, &out)
	if !slices.Equal(out.Disabled, []string{"scene_edit"}) || !slices.Equal(out.AlreadyDisabled, []string{"runtime"}) {
		t.Errorf("disable = %+v", out)
	}
	waitFor(t, c.listChanged, "list_changed after disable")
	for _, n := range c.names(t) {
		if strings.HasPrefix(n, "godot_scene_edit_") {
			t.Errorf("%s still listed", n)
		}
	}
	if e.plugins.Status("scene_edit").State != supervisor.Stopped {
		t.Error("scene_edit plugin still running")
	}
	te := toolErr(t, c.call(t, "godot_disable_toolset", map[string]any{"toolsets": []string{"core"}}))
	if te.Code != sdk.CodeInvalidArgument {
		t.Errorf("disable core = %+v", te)
	}
}

func TestPolicy(t *testing.T) {
	cfg := &config.Config{
		Stdio:    struct{ Profile string }{Profile: "reader"},
		Profiles: map[string]config.Profile{"reader": {Allow: []string{"class:read_only"}, Deny: []string{"godot_runtime_secret"}}},
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	chain, err := exposure.NewChain(cfg)
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, envOptions{godot: "4.5", policy: chain, profile: "reader", seed: []string{"inspection", "scene_edit"}})
	c := e.connect(t, legacy)
	got := c.names(t)
	for _, n := range got {
		if strings.HasPrefix(n, "godot_scene_edit_") || n == "godot_enable_toolset" {
			t.Errorf("reader sees %s: %v", n, got)
		}
	}
	if !slices.Contains(got, "godot_list_toolsets") || !slices.Contains(got, "godot_inspection_scene_tree") {
		t.Errorf("reader lost read-only tools: %v", got)
	}
	te := toolErr(t, c.call(t, "godot_scene_edit_add_node", map[string]any{"path": "a"}))
	if te.Code != sdk.CodeToolNotExposed || te.Required != "layer:"+exposure.LayerProfile {
		t.Errorf("withheld call = %+v", te)
	}
	if seen := e.plugins.seen(); len(seen) != 0 {
		t.Errorf("plugin saw %v", seen)
	}
	// Visible and callable agree for the enable tool itself.
	te = toolErr(t, c.call(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"runtime"}}))
	if te.Code != sdk.CodeToolNotExposed {
		t.Errorf("enable by a reader = %+v", te)
	}
	var filtered int
	e.bus.Close()
	for _, ev := range e.ring.Recent() {
		if ev.Kind == events.ToolsFiltered {
			filtered++
		}
	}
	if filtered == 0 {
		t.Error("no ToolsFiltered event")
	}
}

func TestEnableRefusesWidening(t *testing.T) {
	e := newEnv(t, envOptions{godot: "4.5", policy: editorPolicy(t), profile: "editor"})
	c := e.connect(t, legacy)
	te := toolErr(t, c.call(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"runtime"}}))
	if te.Code != sdk.CodeToolNotExposed || te.Toolset != "runtime" || te.Required != "layer:"+exposure.LayerProfile {
		t.Errorf("widening enable = %+v", te)
	}
	if e.gate.Enabled("runtime") {
		t.Error("runtime enabled anyway")
	}
	if res := c.call(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"scene_edit"}}); res.IsError {
		t.Errorf("allowed enable failed: %+v", res.Content)
	}
}

// editorPolicy is a stdio profile that denies the runtime toolset.
func editorPolicy(t *testing.T) *exposure.Chain {
	t.Helper()
	cfg := &config.Config{
		Stdio:    struct{ Profile string }{Profile: "editor"},
		Profiles: map[string]config.Profile{"editor": {Deny: []string{"runtime"}}},
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	chain, err := exposure.NewChain(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return chain
}

// A name with spaces around it is the same toolset to the gate, so it must
// be the same toolset to the policy check.
func TestEnableRefusesWideningWhateverTheSpacing(t *testing.T) {
	e := newEnv(t, envOptions{godot: "4.5", policy: editorPolicy(t), profile: "editor"})
	c := e.connect(t, legacy)
	for _, name := range []string{" runtime", "runtime ", "\truntime\n"} {
		te := toolErr(t, c.call(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"scene_edit", name}}))
		if te.Code != sdk.CodeToolNotExposed || te.Toolset != "runtime" || te.Required != "layer:"+exposure.LayerProfile {
			t.Errorf("enable %q = %+v", name, te)
		}
		if e.gate.Enabled("runtime") || e.gate.Enabled("scene_edit") {
			t.Fatalf("enable %q changed the enabled set: %v", name, e.gate.EnabledSet())
		}
	}
	res := c.call(t, "godot_enable_toolset", map[string]any{"toolsets": []string{" scene_edit ", "scene_edit"}})
	var out struct {
		Enabled []string `json:"enabled"`
	}
	structured(t, res, &out)
	if res.IsError || !slices.Equal(out.Enabled, []string{"scene_edit"}) {
		t.Errorf("allowed enable with spaces = %+v", res.StructuredContent)
	}
}

// Disabling is a change to the shared set too: a caller that gets none of a
// toolset's tools must not turn it off for everyone else.
func TestDisableRefusesWhatThePolicyWithholds(t *testing.T) {
	e := newEnv(t, envOptions{godot: "4.5", policy: editorPolicy(t), profile: "editor",
		seed: []string{"inspection", "scene_edit", "runtime"}})
	c := e.connect(t, legacy)
	for _, name := range []string{"runtime", " runtime"} {
		te := toolErr(t, c.call(t, "godot_disable_toolset", map[string]any{"toolsets": []string{"scene_edit", name}}))
		if te.Code != sdk.CodeToolNotExposed || te.Toolset != "runtime" || te.Required != "layer:"+exposure.LayerProfile {
			t.Errorf("disable %q = %+v", name, te)
		}
		if !strings.Contains(te.Message, "disabling") || te.Hint == "" {
			t.Errorf("disable refusal does not say what was refused or how to fix it: %+v", te)
		}
		if !e.gate.Enabled("runtime") || !e.gate.Enabled("scene_edit") {
			t.Fatalf("refused disable %q changed the enabled set: %v", name, e.gate.EnabledSet())
		}
	}
	if res := c.call(t, "godot_disable_toolset", map[string]any{"toolsets": []string{"scene_edit"}}); res.IsError {
		t.Errorf("allowed disable failed: %+v", res.StructuredContent)
	}
	if e.gate.Enabled("scene_edit") {
		t.Error("scene_edit still enabled")
	}
	var refused int
	e.bus.Close()
	for _, ev := range e.ring.Recent() {
		if ev.Kind == events.ToolsetRefused && ev.Toolset == "runtime" {
			refused++
		}
	}
	if refused != 2 {
		t.Errorf("%d ToolsetRefused events for runtime, want 2", refused)
	}
}

// A tokenless HTTP caller is on this machine, like the stdio client, and
// runs as the same profile.
func TestTokenlessHTTPCallerRunsAsTheLocalProfile(t *testing.T) {
	e := newEnv(t, envOptions{godot: "4.5", policy: editorPolicy(t), profile: "editor"})
	req := &mcp.CallToolRequest{Extra: &mcp.RequestExtra{Header: http.Header{}}}
	c := e.srv.caller(req)
	if c.Transport != exposure.TransportHTTP || !c.Loopback || c.Profile != "editor" || c.Principal != "" {
		t.Errorf("tokenless HTTP caller = %+v, want http, loopback, profile editor", c)
	}
	if _, layer := e.srv.policy.Widens(c, e.srv.reg.refs("runtime")); layer != exposure.LayerProfile {
		t.Errorf("tokenless HTTP caller may use runtime (layer %q), which the local profile denies", layer)
	}
	// A token's profile still wins.
	req.Extra.TokenInfo = tokenInfo("ci-bot", "ci", true)
	if c := e.srv.caller(req); c.Profile != "ci" || c.Principal != "ci-bot" {
		t.Errorf("token caller = %+v", c)
	}
}

func TestAnnotationsFollowTheSafetyClass(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		class manifest.SafetyClass
		want  mcp.ToolAnnotations
	}{
		{manifest.ReadOnly, mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no}},
		{manifest.Mutating, mcp.ToolAnnotations{DestructiveHint: &no, OpenWorldHint: &no}},
		{manifest.Destructive, mcp.ToolAnnotations{DestructiveHint: &yes, OpenWorldHint: &no}},
		{manifest.Runtime, mcp.ToolAnnotations{OpenWorldHint: &yes}},
	}
	for _, tt := range tests {
		got, _ := json.Marshal(annotations(tt.class))
		want, _ := json.Marshal(tt.want)
		if string(got) != string(want) {
			t.Errorf("%s: %s, want %s", tt.class, got, want)
		}
	}
}

func TestLoggingSinkHonoursSetLevel(t *testing.T) {
	e := newEnv(t, envOptions{godot: "4.5"})
	c := e.connect(t, legacy)
	if err := c.cs.SetLoggingLevel(context.Background(), &mcp.SetLoggingLevelParams{Level: "warning"}); err != nil {
		t.Fatal(err)
	}
	e.bus.Emit(events.Event{Kind: events.PluginStarted, Level: events.Info, Message: "below the level"})
	e.bus.Emit(events.Event{Kind: events.PluginCrashed, Level: events.Error, Message: "above the level"})
	select {
	case p := <-c.logs:
		data, _ := json.Marshal(p.Data)
		if p.Level != "error" || !strings.Contains(string(data), "above the level") {
			t.Errorf("log = %s %s", p.Level, data)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no logging notification")
	}
}

func TestCoreInfoTools(t *testing.T) {
	e := newEnv(t, envOptions{godot: "4.5"})
	c := e.connect(t, sessionless)
	var list struct {
		Toolsets []toolsetView `json:"toolsets"`
	}
	structured(t, c.call(t, "godot_list_toolsets", nil), &list)
	if len(list.Toolsets) != 4 || list.Toolsets[0].Name != "core" {
		t.Fatalf("toolsets = %+v", list.Toolsets)
	}
	for _, v := range list.Toolsets {
		if v.Name == "scene_edit" && (v.Enabled || v.Godot != ">= 4.4" || v.ToolCount != 2 || v.State != "stopped" || v.EnableCall == "") {
			t.Errorf("scene_edit = %+v", v)
		}
		if v.Name == "inspection" && (!v.Enabled || v.State != "running") {
			t.Errorf("inspection = %+v", v)
		}
	}
	var info struct {
		Protocol struct{ Version string } `json:"protocol"`
		Godot    struct{ Version, Source string }
		Toolsets []pluginView `json:"toolsets"`
		Events   []events.Event
		Engines  engines.Info `json:"engines"`
	}
	structured(t, c.call(t, "godot_get_server_info", map[string]any{"events": 10}), &info)
	if info.Protocol.Version != sessionless || info.Godot.Version != "4.5" || info.Godot.Source != "flag" {
		t.Errorf("info = %+v", info)
	}
	// The engines that would run this Godot 4.5 project: each says whether
	// it is there, and why not; the web runtime lists what it cannot do.
	en := info.Engines
	if en.Native.Kind != "native" || en.Web.Kind != "web" || (!en.Web.Available && en.Web.Why == "") || (!en.Native.Available && en.Native.Why == "") {
		t.Errorf("engines = %+v", en)
	}
	if en.Web.Available && (len(en.Web.Cannot) == 0 || en.GameSessions != "web" || (!en.Native.Available && en.RunsWith != "web")) {
		t.Errorf("engines with the web runtime = %+v", en)
	}
	var health struct{ Status string }
	structured(t, c.call(t, "godot_health_check", nil), &health)
	if health.Status != "ok" {
		t.Errorf("health = %+v", health)
	}
	var classes map[string][]string
	structured(t, c.call(t, "godot_list_tools_by_safety_class", map[string]any{"class": "destructive"}), &classes)
	if len(classes) != 2 || !slices.Equal(classes["destructive"], []string{"godot_scene_edit_delete_node"}) || classes["toolsets_to_enable"] == nil {
		t.Errorf("by class = %+v", classes)
	}
}

func TestListResultsAreCacheable(t *testing.T) {
	e := newEnv(t, envOptions{godot: "4.5"})
	c := e.connect(t, sessionless)
	res, err := c.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.CacheScope != "private" || res.TTLMs != 0 {
		t.Errorf("cacheable = %+v", res.Cacheable)
	}
	if !slices.IsSorted(c.names(t)) {
		t.Error("tools are not in name order")
	}
}

func gateReq(toolsets ...string) gate.Request { return gate.Request{Toolsets: toolsets, By: "test"} }

// An error result of a tool that declares an output schema carries no
// structured content (clients validate it against that schema even on
// errors, and the official TypeScript client throws): the code leads the
// text. A tool without an output schema keeps the structured error.
func TestErrorResultsRespectOutputSchemas(t *testing.T) {
	e := newEnv(t, envOptions{godot: "4.5", seed: []string{"scene_edit"}})
	c := e.connect(t, legacy)
	res := c.call(t, "godot_scene_edit_add_node", map[string]any{"path": 7})
	if !res.IsError || res.StructuredContent != nil {
		t.Fatalf("error of a tool with an output schema: isError=%v structured=%v", res.IsError, res.StructuredContent)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !strings.HasPrefix(text, "INVALID_ARGUMENT: path must be a string, got 7\nHint: ") {
		t.Errorf("text = %q", text)
	}
	if res := c.call(t, "godot_scene_edit_add_node", map[string]any{"path": "a"}); res.IsError || res.StructuredContent == nil {
		t.Errorf("success of a tool with an output schema: %+v", res)
	}
	te := toolErr(t, c.call(t, "godot_scene_edit_delete_node", map[string]any{"path": "a"}))
	if te.Code != sdk.CodePreconditionFailed || te.Source != sdk.SourceHost {
		t.Errorf("error of a tool without an output schema = %+v", te)
	}
}

// Prompts written for other Godot MCP servers toggle one toolset as
// {"category": name}; a toggle naming nothing says what to pass.
func TestToggleTakesCategory(t *testing.T) {
	e := newEnv(t, envOptions{godot: "4.5"})
	c := e.connect(t, legacy)
	var out struct {
		Enabled  []string `json:"enabled"`
		Disabled []string `json:"disabled"`
	}
	structured(t, c.call(t, "godot_enable_toolset", map[string]any{"category": "scene_edit"}), &out)
	if !slices.Equal(out.Enabled, []string{"scene_edit"}) {
		t.Errorf("enable by category = %+v", out)
	}
	structured(t, c.call(t, "godot_disable_toolset", map[string]any{"category": "scene_edit"}), &out)
	if !slices.Equal(out.Disabled, []string{"scene_edit"}) {
		t.Errorf("disable by category = %+v", out)
	}
	te := toolErr(t, c.call(t, "godot_enable_toolset", map[string]any{}))
	if te.Code != sdk.CodeInvalidArgument || !strings.Contains(te.Hint, "category") {
		t.Errorf("empty toggle = %+v", te)
	}
}
