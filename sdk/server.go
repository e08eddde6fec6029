package sdk

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
	"github.com/godot-mcp/godot-mcp/sdk/wire"
)

// server implements the Toolset gRPC service for a *Toolset.
type server struct {
	pb.UnimplementedToolsetServer

	ts       *Toolset
	manifest *pb.Manifest
	tools    map[string]*Tool
	stderr   io.Writer // where logs go when there is no host
	logger   hclog.Logger

	mu      sync.Mutex
	broker  *plugin.GRPCBroker
	env     Env
	conn    *grpc.ClientConn // to the host services; nil before Configure
	connErr error            // why conn is nil after Configure
	// callPipe is set once the plugin serves calls on the host's call pipe
	// (callpipe package); Configure tells the host.
	callPipe bool

	warm sync.Once // runs Toolset.Warm after the first Configure
}

var (
	_ pb.ToolsetServer = (*server)(nil)
	_ wire.BrokerAware = (*server)(nil)
)

// hostCallTimeout bounds an RPC to the host's log service, so a wedged host
// cannot stall a tool that logs.
const hostCallTimeout = 5 * time.Second

func newServer(ts *Toolset, stderr io.Writer) (*server, error) {
	if ts == nil {
		return nil, errors.New("toolset is nil")
	}
	m, err := ts.Manifest()
	if err != nil {
		return nil, err
	}
	s := &server{
		ts:       ts,
		manifest: m.ToProto(),
		tools:    make(map[string]*Tool, len(ts.Tools)),
		stderr:   stderr,
	}
	for i := range ts.Tools {
		s.tools[ts.Tools[i].spec.Name] = &ts.Tools[i]
	}
	s.logger = hclog.New(&hclog.LoggerOptions{
		Name:       ts.Name,
		Level:      hclog.Debug,
		Output:     &hostLogWriter{s: s},
		JSONFormat: true,
	})
	return s, nil
}

// SetBroker implements wire.BrokerAware.
func (s *server) SetBroker(b *plugin.GRPCBroker) {
	s.mu.Lock()
	s.broker = b
	s.mu.Unlock()
}

// Describe implements pb.ToolsetServer. It does not need Configure.
func (s *server) Describe(context.Context, *pb.DescribeRequest) (*pb.Manifest, error) {
	return s.manifest, nil
}

// Configure implements pb.ToolsetServer.
func (s *server) Configure(ctx context.Context, req *pb.ConfigureRequest) (*pb.ConfigureResponse, error) {
	env := Env{
		HostVersion:  req.GetHostVersion(),
		ProjectDir:   PathFromWire(req.GetProjectDir()),
		GodotVersion: req.GetGodotVersion(),
	}
	s.mu.Lock()
	s.env = env
	s.closeConnLocked()
	s.dialLocked(req.GetHostServicesBrokerId())
	s.mu.Unlock()
	if s.ts.OnConfigure != nil {
		if err := s.ts.OnConfigure(ctx, env); err != nil {
			return nil, status.Errorf(codes.FailedPrecondition, "configure toolset %q: %v", s.ts.Name, err)
		}
	}
	if s.ts.Warm != nil {
		s.warm.Do(func() { go s.ts.Warm() })
	}
	s.mu.Lock()
	pipe := s.callPipe
	s.mu.Unlock()
	return &pb.ConfigureResponse{CallPipe: pipe}, nil
}

// Call implements pb.ToolsetServer: progress events, then exactly one result.
func (s *server) Call(req *pb.CallRequest, stream pb.Toolset_CallServer) error {
	res, err := s.call(stream.Context(), req, stream.Send, nil)
	if err != nil {
		return status.Error(codes.NotFound, err.Error())
	}
	return stream.Send(&pb.CallEvent{Event: &pb.CallEvent_Result{Result: res}})
}

// call runs one call, whichever way it came (gRPC or the call pipe): send
// carries its progress events, and host, when not nil, the call's requests
// to the host services (the pipe the call came on; nil: the broker
// connection). The error is for a call that cannot run at all (an unknown
// tool); a tool's own failure is in the result.
func (s *server) call(ctx context.Context, req *pb.CallRequest, send func(*pb.CallEvent) error, host grpc.ClientConnInterface) (*pb.CallResult, error) {
	t, ok := s.tools[req.GetTool()]
	if !ok {
		return nil, fmt.Errorf("toolset %q has no tool %q", s.ts.Name, req.GetTool())
	}
	s.mu.Lock()
	env := s.env
	s.mu.Unlock()
	call := &Call{
		Tool:   req.GetTool(),
		DryRun: req.GetDryRun(),
		Env:    env,
		CallID: req.GetCallId(),
		srv:    s,

		mode: modeOf(req.GetEditorAttached()),
		send: send,
		host: host,
	}
	res, err := t.run(ctx, call, req.GetArgumentsJson())
	call.finish()
	if ctx.Err() != nil {
		// The caller is gone and will never see this answer; the log is
		// where an operator (and the tests) see whether the tool noticed
		// and stopped (code CANCELLED) or ran to the end regardless.
		code := "none (the tool finished its work)"
		if err != nil {
			code = asError(ctx, err).Code
		}
		call.Logger().Info("cancelled call ended", "code", code)
	}
	return resultToProto(ctx, t, res, err, env.ProjectDir), nil
}

// Close releases the connection to the host services.
func (s *server) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closeConnLocked()
}

func (s *server) closeConnLocked() error {
	var err error
	if s.conn != nil {
		err = s.conn.Close()
	}
	s.conn, s.connErr = nil, nil
	return err
}

var errNoHost = errors.New("no host services: the plugin was not configured by a godot-mcp host")

// dialLocked connects to the host services announced in Configure. It runs
// in Configure rather than on first use because go-plugin's broker forgets an
// announced connection after five seconds; the gRPC connection itself is
// still established lazily, on the first RPC. A failure is remembered until
// the next Configure: logs then go to stderr and Editor reports
// BRIDGE_DISCONNECTED.
func (s *server) dialLocked(id uint32) {
	if s.broker == nil || id == 0 {
		s.connErr = errNoHost
		return
	}
	s.conn, s.connErr = s.broker.DialWithOptions(id, wire.GRPCDialOptions()...)
	if s.connErr != nil {
		s.connErr = fmt.Errorf("connecting to the host services (broker id %d): %w", id, s.connErr)
		fmt.Fprintf(s.stderr, "%s: %v; logging to stderr\n", s.ts.Name, s.connErr)
	}
}

// hostConn returns the connection to the host services.
func (s *server) hostConn() (*grpc.ClientConn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn == nil && s.connErr == nil {
		return nil, errNoHost
	}
	return s.conn, s.connErr
}

func modeOf(editorAttached bool) Mode {
	if editorAttached {
		return ModeEditor
	}
	return ModeHeadless
}

func errNoEditor(why string) *Error {
	return &Error{
		Code:    CodeBridgeDisconnected,
		Message: "no Godot peer is attached: " + why,
		Hint:    "open the project in the Godot editor with the godot-mcp addon enabled, or start the host with a project directory",
	}
}

func (s *server) editor(ctx context.Context, call *Call, command string, params, result any) error {
	conn, err := call.hostServices()
	if err != nil {
		return errNoEditor(err.Error())
	}
	var paramsJSON []byte
	switch p := params.(type) {
	case nil:
		paramsJSON = []byte("{}")
	case json.RawMessage:
		paramsJSON = p
	default:
		if paramsJSON, err = json.Marshal(params); err != nil {
			return fmt.Errorf("editor command %q: encoding params: %w", command, err)
		}
	}
	resp, err := pb.NewHostEditorClient(conn).Command(ctx, &pb.EditorRequest{Command: command, ParamsJson: paramsJSON, CallId: call.CallID})
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("editor command %q: %w", command, ctx.Err())
		}
		return errNoEditor(fmt.Sprintf("the host's editor service failed: %v", status.Convert(err).Message()))
	}
	if !resp.GetOk() {
		e := ErrorFromWire(resp.GetError())
		if e == nil {
			e = &Error{Code: CodeToolError}
		}
		if e.Message == "" {
			e.Message = fmt.Sprintf("editor command %q failed", command)
		}
		return e
	}
	if result != nil && len(bytes.TrimSpace(resp.GetResultJson())) > 0 {
		if err := json.Unmarshal(resp.GetResultJson(), result); err != nil {
			return fmt.Errorf("editor command %q: decoding result: %w", command, err)
		}
	}
	return nil
}

// resultToProto turns a handler's outcome into the wire result. An error's
// text names project files as res:// paths: an OS error carries the
// absolute path, which says nothing to the agent and tells every caller
// where the project lives.
func resultToProto(ctx context.Context, t *Tool, res Result, err error, projectDir string) *pb.CallResult {
	if err != nil {
		e := asError(ctx, err)
		if projectDir != "" {
			c := *e
			c.Message, c.Hint = resPaths(projectDir, c.Message), resPaths(projectDir, c.Hint)
			e = &c
		}
		return resultToWire(Result{}, nil, e)
	}
	var structured []byte
	if res.Structured != nil {
		b, err := json.Marshal(res.Structured)
		if err != nil {
			return resultToWire(Result{}, nil, &Error{Code: CodeToolError,
				Message: fmt.Sprintf("tool %q: structured result cannot be encoded as JSON: %v", t.spec.Name, err)})
		}
		// json.Marshal output starts with the value itself (it compacts
		// what a MarshalJSON method returns), so one byte tells an object.
		if b[0] != '{' {
			return resultToWire(Result{}, nil, &Error{Code: CodeToolError,
				Message: fmt.Sprintf("tool %q: structured result must be a JSON object, got %.40s", t.spec.Name, b),
				Hint:    "return a struct or a map with sdk.JSON"})
		}
		if t.out != nil && !res.IsError {
			var generic any
			_ = json.Unmarshal(b, &generic)
			if err := t.out.Validate(generic); err != nil {
				return resultToWire(Result{}, nil, &Error{Code: CodeToolError,
					Message: fmt.Sprintf("tool %q: structured result does not match its output schema: %s", t.spec.Name, schemaErrorText(err))})
			}
		}
		structured = b
		if len(res.Content) == 0 {
			// The one encoding serves both: compact JSON reads as well
			// as indented and costs no second pass over the value.
			text := string(b)
			if res.Summary != "" {
				text = res.Summary + "\n" + text
			}
			res.Content = []Content{TextContent{Text: text}}
		}
	} else if len(res.Content) == 0 && res.Summary != "" {
		res.Content = []Content{TextContent{Text: res.Summary}}
	}
	return resultToWire(res, structured, nil)
}

// asError turns a handler's error into an *Error: a plain error becomes
// TOOL_ERROR (CANCELLED when the call's context ended).
func asError(ctx context.Context, err error) *Error {
	var e *Error
	if errors.As(err, &e) && e != nil {
		return e
	}
	code := CodeToolError
	if ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		code = CodeCancelled
	}
	return &Error{Code: code, Message: err.Error()}
}

// hostLogWriter receives the JSON lines of the SDK's hclog logger and sends
// each to the host's HostLog service, or to stderr when there is no host.
// hclog writes one whole entry per Write and serialises writes.
type hostLogWriter struct{ s *server }

// Keys of hclog's JSON format that are not user fields.
var hclogMeta = []string{"@level", "@message", "@timestamp", "@caller", "@module"}

func (w *hostLogWriter) Write(p []byte) (int, error) {
	conn, err := w.s.hostConn()
	if err != nil {
		return w.s.stderr.Write(p)
	}
	req := &pb.LogRequest{Level: "info", Message: string(bytes.TrimSpace(p))}
	var entry map[string]any
	dec := json.NewDecoder(bytes.NewReader(p))
	dec.UseNumber()
	if dec.Decode(&entry) == nil {
		if lvl, ok := entry["@level"].(string); ok {
			req.Level = lvl
		}
		if msg, ok := entry["@message"].(string); ok {
			req.Message = msg
		}
		keys := make([]string, 0, len(entry))
		for k := range entry {
			if !slices.Contains(hclogMeta, k) {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			req.Fields = append(req.Fields, k, fieldString(entry[k]))
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), hostCallTimeout)
	defer cancel()
	if _, err := pb.NewHostLogClient(conn).Log(ctx, logToWire(req)); err != nil {
		return w.s.stderr.Write(p)
	}
	return len(p), nil
}

func fieldString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// resPaths writes absolute paths inside the project as res:// paths.
func resPaths(projectDir, s string) string {
	root := strings.TrimSuffix(projectDir, "/")
	if root == "" || !strings.Contains(s, root) {
		return s
	}
	s = strings.ReplaceAll(s, root+"/", "res://")
	return strings.ReplaceAll(s, root, "res://")
}
