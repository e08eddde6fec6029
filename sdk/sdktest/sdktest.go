// Package sdktest runs a toolset in-process against a fake godot-mcp host,
// for the toolset author's unit tests.
//
// The toolset is served over the same gRPC path the real host uses
// (go-plugin's in-process connection, the broker, the HostLog and HostEditor
// services), so argument validation, error mapping, progress and logging
// behave exactly as in production. Only the process boundary is missing.
//
//	func TestCount(t *testing.T) {
//		h := sdktest.New(t, toolset(), sdktest.Options{ProjectDir: t.TempDir()})
//		res := h.Call(context.Background(), "count", map[string]any{"pattern": "*.gd"})
//		if res.IsError {
//			t.Fatalf("count failed: %s", res.Text())
//		}
//		var out CountResult
//		if err := res.Structured(&out); err != nil {
//			t.Fatal(err)
//		}
//	}
//
// To test a toolset's editor mode, script an [Editor] and pass its Serve
// method as Options.Editor.
//
// The host side of the connection is shut down when the test ends, and no
// goroutine is left behind, so tests using go.uber.org/goleak stay clean.
//
// The fake host serves the workspace (sdk.Call.Workspace) with the same
// code the real host runs (package sdk/workspace) on Options.ProjectDir:
// versions, CONFLICT, atomic commits, dry runs and one journal action per
// call behave as in production. [Host.Workspace] gives the test the journal
// to undo, redo and inspect:
//
//	res := h.Call(ctx, "create_node", args)
//	hist := h.Workspace().History()   // one action named by the tool
//	_, err := h.Workspace().Undo(ctx, 1, false)
package sdktest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/addonerr"
	"github.com/godot-mcp/godot-mcp/sdk/editorcmd"
	"github.com/godot-mcp/godot-mcp/sdk/internal/hook"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
	"github.com/godot-mcp/godot-mcp/sdk/wire"
	"github.com/godot-mcp/godot-mcp/sdk/workspace"
)

// Options describe the fake host.
type Options struct {
	// ProjectDir is passed to the toolset in Configure (Env.ProjectDir).
	ProjectDir string
	// GodotVersion is passed in Configure (Env.GodotVersion), e.g. "4.4.1".
	GodotVersion string
	// HostVersion is passed in Configure; "" means "test".
	HostVersion string
	// Editor answers Call.Editor. nil means no Godot peer is attached: every
	// command fails with BRIDGE_DISCONNECTED, as with the real host. For a
	// scripted editor that records what the toolset sent, pass
	// NewEditor()…Serve (see Editor). It plays the addon: a failure it
	// returns is the addon's (its Code, Hint and Required), and the toolset
	// receives it mapped by sdk/addonerr.Refusal, as behind the host.
	Editor func(command string, params json.RawMessage) (json.RawMessage, *sdk.Error)
	// WorkspaceEditor, when set, plays the attached Godot editor for the
	// workspace: scenes it reports unsaved cannot be written, and it is
	// told to reload what changed.
	WorkspaceEditor workspace.Editor
	// Workspace bounds the journal; the zero value takes the defaults.
	Workspace workspace.Options
}

// Host is a fake godot-mcp host with one toolset plugged in.
type Host struct {
	t       testing.TB
	opts    Options
	name    string
	toolset pb.ToolsetClient

	rules map[string]*toolRules // by bare tool name: the host's checks

	mu   sync.Mutex
	logs []LogLine

	ws      *workspace.Workspace // nil without a project
	wsErr   error                // why ws is nil
	calls   workspace.Calls
	callSeq atomic.Uint64

	closeOnce sync.Once
	closeFn   func()
}

// New serves ts in-process, configures it as the host would, and returns the
// host. It fails the test if the toolset is invalid or Configure fails. The
// connection is closed when the test ends.
func New(t testing.TB, ts *sdk.Toolset, opts Options) *Host {
	t.Helper()
	if opts.HostVersion == "" {
		opts.HostVersion = "test"
	}
	stderr := &testWriter{t: t}
	impl, err := hook.NewServer(ts, stderr)
	if err != nil {
		t.Fatalf("sdktest: %v", err)
	}
	m, err := ts.Manifest()
	if err != nil {
		_ = impl.Close()
		t.Fatalf("sdktest: %v", err)
	}
	rules, err := hostRules(m, opts.GodotVersion)
	if err != nil {
		_ = impl.Close()
		t.Fatalf("sdktest: %v", err)
	}
	client, server := plugin.TestPluginGRPCConn(t, false, wire.PluginSets(impl)[wire.ProtocolVersion])
	h := &Host{t: t, opts: opts, name: ts.Name, rules: rules}
	if opts.ProjectDir != "" {
		// A directory that does not exist is allowed (tests of tools that
		// never touch files pass a made-up one); the workspace then
		// answers as a host without a project would.
		if h.ws, h.wsErr = workspace.Open(opts.ProjectDir, opts.Workspace); h.wsErr == nil {
			h.ws.SetEditor(opts.WorkspaceEditor)
		}
	}

	raw, err := client.Dispense(wire.PluginName)
	if err != nil {
		_ = client.Close()
		server.Stop()
		t.Fatalf("sdktest: dispense: %v", err)
	}
	wc := raw.(*wire.Client)
	h.toolset = wc.Toolset

	id := wc.Broker.NextId()
	served := make(chan struct{})
	go func() {
		defer close(served)
		wc.Broker.AcceptAndServe(id, func(o []grpc.ServerOption) *grpc.Server {
			s := grpc.NewServer(append(o, wire.GRPCServerOptions()...)...)
			pb.RegisterHostLogServer(s, &logService{h: h})
			pb.RegisterHostEditorServer(s, &editorService{h: h})
			pb.RegisterHostWorkspaceServer(s, workspace.NewService(h.ws, ts.Name, &h.calls))
			return s
		})
	}()
	h.closeFn = func() {
		_ = impl.Close() // the plugin's connection to the host services
		// Close closes the host broker, which stops AcceptAndServe, and asks
		// the plugin to shut down as the real host does; the plugin side
		// then stops its own server.
		_ = client.Close()
		select {
		case <-server.DoneCh:
		case <-time.After(5 * time.Second):
			server.Stop() // the shutdown request was lost
		}
		<-served
		stderr.close()
	}
	t.Cleanup(h.Close)

	_, err = h.toolset.Configure(context.Background(), &pb.ConfigureRequest{
		HostVersion:          opts.HostVersion,
		ProjectDir:           sdk.PathToWire(opts.ProjectDir),
		GodotVersion:         opts.GodotVersion,
		HostServicesBrokerId: id,
	})
	if err != nil {
		h.Close()
		t.Fatalf("sdktest: configure: %v", err)
	}
	return h
}

// Workspace returns the project's workspace, the one the toolset writes
// through: read its History, Undo and Redo as godot_undo would. It fails the
// test when Options.ProjectDir was empty.
func (h *Host) Workspace() *workspace.Workspace {
	h.t.Helper()
	if h.ws == nil {
		h.t.Fatalf("sdktest: no workspace: set Options.ProjectDir to an existing directory (%v)", h.wsErr)
	}
	return h.ws
}

// Close shuts the connection down. It runs automatically when the test ends;
// call it earlier only to check shutdown behaviour.
func (h *Host) Close() {
	h.closeOnce.Do(h.closeFn)
}

// Manifest fetches the manifest over the Describe RPC, as the host does.
func (h *Host) Manifest(ctx context.Context) (*manifest.Manifest, error) {
	p, err := h.toolset.Describe(ctx, &pb.DescribeRequest{})
	if err != nil {
		return nil, err
	}
	return manifest.FromProto(p), nil
}

// CallOption adjusts one call.
type CallOption func(*callOptions)

type callOptions struct {
	req                *pb.CallRequest
	confirm            bool
	confirmDestructive bool
}

// DryRun passes dry_run=true, as an agent does. The host accepts it only
// for mutating and destructive tools (the call answers INVALID_ARGUMENT
// otherwise) and hands it to the tool as Call.DryRun.
func DryRun() CallOption {
	return func(o *callOptions) { o.req.DryRun = true }
}

// Confirm passes confirm=true, as an agent does once the user agreed. A
// destructive tool's real run needs it: without it (and without DryRun)
// the host answers PRECONDITION_FAILED and the tool never runs.
func Confirm() CallOption {
	return func(o *callOptions) { o.confirm = true }
}

// ConfirmDestructive passes confirm=true exactly when the tool is
// destructive, as an agent does once the user agreed. It suits a test
// helper that calls many tools and is not about the confirm rule itself.
func ConfirmDestructive() CallOption {
	return func(o *callOptions) { o.confirmDestructive = true }
}

// CallID sets the call id the tool sees in Call.CallID.
func CallID(id string) CallOption {
	return func(o *callOptions) { o.req.CallId = id }
}

// Progress is one progress event the tool sent.
type Progress struct {
	Done, Total float64
	Message     string
}

// Result is what a call returned.
type Result struct {
	// IsError reports a tool failure (a result, not a protocol error).
	IsError bool
	// ErrorCode is the failure's machine-readable code, such as
	// INVALID_ARGUMENT; empty on success.
	ErrorCode string
	// Error holds the failure's details; nil on success (and for results
	// the tool marked IsError without an error).
	Error *sdk.Error
	// Content is the result's content, as the tool built it.
	Content []sdk.Content
	// StructuredJSON is the structured content; nil when absent.
	StructuredJSON json.RawMessage
	// Progress lists the progress events, in order.
	Progress []Progress
	// Err is a protocol failure: the tool does not exist, the stream broke,
	// or the plugin broke the protocol (no result, or more than one). A
	// tool's own failure is never an Err: see IsError.
	Err error
}

// Text returns the text content, joined by newlines.
func (r *Result) Text() string {
	var parts []string
	for _, c := range r.Content {
		if tc, ok := c.(sdk.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// Structured unmarshals the structured content into v.
func (r *Result) Structured(v any) error {
	if r.Err != nil {
		return r.Err
	}
	if r.StructuredJSON == nil {
		return fmt.Errorf("result has no structured content (text: %q)", r.Text())
	}
	return json.Unmarshal(r.StructuredJSON, v)
}

// Call calls a tool and collects everything it sends. args is marshalled to
// JSON unless it is already json.RawMessage or []byte; nil means no
// arguments. Call is safe to use from several goroutines; cancel ctx to
// cancel the call.
func (h *Host) Call(ctx context.Context, tool string, args any, opts ...CallOption) *Result {
	// Editor mode exactly when the test attached a scripted editor, as the
	// host sets it when an editor is attached.
	req := &pb.CallRequest{Tool: tool, EditorAttached: h.opts.Editor != nil}
	switch a := args.(type) {
	case nil:
		req.ArgumentsJson = []byte("{}")
	case json.RawMessage:
		req.ArgumentsJson = a
	case []byte:
		req.ArgumentsJson = a
	default:
		b, err := json.Marshal(args)
		if err != nil {
			return &Result{Err: fmt.Errorf("sdktest: encoding arguments: %w", err)}
		}
		req.ArgumentsJson = b
	}
	co := &callOptions{req: req}
	for _, o := range opts {
		o(co)
	}
	if r := h.rules[tool]; r != nil {
		confirm := co.confirm || (co.confirmDestructive && (r.spec.SafetyClass == manifest.Destructive || r.spec.ConfirmOverwrite != ""))
		plain, dry, refusal := r.screen(h.name, h.opts.ProjectDir, req.ArgumentsJson, req.DryRun, confirm)
		if refusal != nil {
			return &Result{IsError: true, ErrorCode: refusal.Code, Error: refusal,
				Content: []sdk.Content{sdk.TextContent{Text: refusal.Text()}}}
		}
		req.ArgumentsJson, req.DryRun = plain, dry
	}
	if req.CallId == "" {
		req.CallId = fmt.Sprintf("sdktest-%d", h.callSeq.Add(1))
	}
	defer h.calls.Begin(req.CallId, workspace.CallInfo{Toolset: h.name, Tool: tool, DryRun: req.DryRun})()
	stream, err := h.toolset.Call(ctx, req)
	if err != nil {
		return &Result{Err: err}
	}
	res := &Result{}
	results := 0
	for {
		ev, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			res.Err = err
			return res
		}
		switch e := ev.GetEvent().(type) {
		case *pb.CallEvent_Progress:
			if results > 0 {
				res.Err = errors.New("sdktest: progress after the result")
				return res
			}
			res.Progress = append(res.Progress, Progress{
				Done: e.Progress.GetProgress(), Total: e.Progress.GetTotal(), Message: e.Progress.GetMessage(),
			})
		case *pb.CallEvent_Result:
			results++
			fillResult(res, e.Result)
		}
	}
	switch results {
	case 0:
		res.Err = errors.New("sdktest: the plugin ended the call without a result")
	case 1:
	default:
		res.Err = fmt.Errorf("sdktest: the plugin sent %d results; exactly one is allowed", results)
	}
	return res
}

func fillResult(res *Result, r *pb.CallResult) {
	res.IsError = r.GetIsError()
	if te := r.GetError(); te != nil {
		res.ErrorCode = te.GetCode()
		res.Error = sdk.ErrorFromWire(te)
	}
	if b := r.GetStructuredContentJson(); len(b) > 0 {
		res.StructuredJSON = json.RawMessage(b)
	}
	for _, c := range r.GetContent() {
		switch {
		case c.GetText() != nil:
			res.Content = append(res.Content, sdk.TextContent{Text: c.GetText().GetText()})
		case c.GetImage() != nil:
			res.Content = append(res.Content, sdk.ImageContent{Data: c.GetImage().GetData(), MIMEType: c.GetImage().GetMimeType()})
		}
	}
}

// LogLine is one line the toolset logged through the host.
type LogLine struct {
	Level   string // trace, debug, info, warn or error
	Message string
	Fields  map[string]string
}

// String renders the line as "level message k=v ...", fields sorted.
func (l LogLine) String() string {
	var b strings.Builder
	b.WriteString(l.Level)
	b.WriteByte(' ')
	b.WriteString(l.Message)
	keys := make([]string, 0, len(l.Fields))
	for k := range l.Fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%s", k, l.Fields[k])
	}
	return b.String()
}

// Logs returns the lines logged so far through the HostLog service.
func (h *Host) Logs() []LogLine {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]LogLine(nil), h.logs...)
}

type logService struct {
	pb.UnimplementedHostLogServer
	h *Host
}

func (s *logService) Log(_ context.Context, req *pb.LogRequest) (*pb.LogResponse, error) {
	line := LogLine{Level: req.GetLevel(), Message: req.GetMessage(), Fields: map[string]string{}}
	f := req.GetFields()
	for i := 0; i+1 < len(f); i += 2 {
		line.Fields[f[i]] = f[i+1]
	}
	s.h.mu.Lock()
	s.h.logs = append(s.h.logs, line)
	s.h.mu.Unlock()
	return &pb.LogResponse{}, nil
}

type editorService struct {
	pb.UnimplementedHostEditorServer
	h *Host
}

func (s *editorService) Command(_ context.Context, req *pb.EditorRequest) (*pb.EditorResponse, error) {
	if s.h.opts.Editor == nil {
		return &pb.EditorResponse{Error: (&sdk.Error{
			Code:    sdk.CodeBridgeDisconnected,
			Message: "no Godot editor is attached",
			Hint:    "open the project in the Godot editor with the godot-mcp addon enabled",
		}).Wire()}, nil
	}
	// The host's rule, checked here so a toolset's own tests catch it: a
	// dry run never reaches the editor with a command that changes it.
	if c, ok := s.h.calls.Lookup(req.GetCallId()); ok && c.DryRun {
		if err := editorcmd.AllowedInDryRun(req.GetCommand(), req.GetParamsJson()); err != nil {
			s.h.t.Errorf("sdktest: tool %q reached the editor during a dry run: %v (the host refuses this; send mutating commands with sdk.Editor.Apply, which records them in a dry run)", c.Tool, err)
			e := &sdk.Error{Code: sdk.CodePluginError, Message: "the host refused an editor command during a dry run: " + err.Error()}
			return &pb.EditorResponse{Error: e.Wire()}, nil
		}
	}
	out, f := s.h.opts.Editor(req.GetCommand(), json.RawMessage(req.GetParamsJson()))
	if f != nil {
		// The host's bridge maps the addon's refusals with this function.
		e := addonerr.Refusal(req.GetCommand(), f.Code, f.Hint, f.Required)
		return &pb.EditorResponse{Error: e.Wire()}, nil
	}
	return &pb.EditorResponse{Ok: true, ResultJson: out}, nil
}

// testWriter sends the plugin's fallback stderr output to the test log, and
// to the real stderr once the test is over (testing forbids late Logf).
type testWriter struct {
	t      testing.TB
	mu     sync.Mutex
	closed bool
}

func (w *testWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return os.Stderr.Write(p)
	}
	w.t.Logf("plugin stderr: %s", strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

func (w *testWriter) close() {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
}
