package workspace

import (
	"context"
	"io/fs"
	"sync"

	"github.com/godot-mcp/godot-mcp/sdk"
	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
)

// CallInfo is a tool call in flight, as the host started it.
type CallInfo struct {
	Toolset string
	Tool    string
	DryRun  bool
}

// Calls tracks the tool calls in flight, so the service knows which call a
// commit belongs to, and that it is one: a commit must name a call the host
// is running for the same toolset, and a dry-run call can only commit dry.
// The zero value is ready to use.
type Calls struct {
	mu sync.Mutex
	m  map[string]CallInfo
}

// Begin records a call; the returned func ends it.
func (c *Calls) Begin(callID string, info CallInfo) (end func()) {
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]CallInfo{}
	}
	c.m[callID] = info
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		delete(c.m, callID)
		c.mu.Unlock()
	}
}

// Lookup returns the call in flight with this id.
func (c *Calls) Lookup(callID string) (CallInfo, bool) { return c.lookup(callID) }

func (c *Calls) lookup(callID string) (CallInfo, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	info, ok := c.m[callID]
	return info, ok
}

// Service is the HostWorkspace gRPC service for one plugin.
type Service struct {
	pb.UnimplementedHostWorkspaceServer
	ws      *Workspace
	toolset string
	calls   *Calls
}

// NewService serves ws to the plugin of toolset. calls must be the tracker
// the host records that toolset's calls in. ws may be nil (the host has no
// project): then every request fails with PRECONDITION_FAILED.
func NewService(ws *Workspace, toolset string, calls *Calls) *Service {
	return &Service{ws: ws, toolset: toolset, calls: calls}
}

func (s *Service) ready() error {
	if s.ws == nil {
		return errNoProject()
	}
	return nil
}

// Read implements pb.HostWorkspaceServer.
func (s *Service) Read(ctx context.Context, req *pb.WorkspaceReadRequest) (*pb.WorkspaceReadResponse, error) {
	if err := s.ready(); err != nil {
		return &pb.WorkspaceReadResponse{Error: sdk.ErrorToWire(err)}, nil
	}
	read := s.ws.Read
	if req.GetForAgent() {
		read = s.ws.ReadForAgent
	}
	f, err := read(ctx, sdk.PathFromWire(req.GetPath()))
	if err != nil {
		return &pb.WorkspaceReadResponse{Path: sdk.PathToWire(f.Path), Error: sdk.ErrorToWire(err)}, nil
	}
	return sdk.FileToWire(f), nil
}

// Stat implements pb.HostWorkspaceServer.
func (s *Service) Stat(ctx context.Context, req *pb.WorkspaceStatRequest) (*pb.WorkspaceStatResponse, error) {
	if err := s.ready(); err != nil {
		return &pb.WorkspaceStatResponse{Error: sdk.ErrorToWire(err)}, nil
	}
	fi, err := s.ws.Stat(ctx, sdk.PathFromWire(req.GetPath()))
	if err != nil {
		return &pb.WorkspaceStatResponse{Error: sdk.ErrorToWire(err)}, nil
	}
	return sdk.FileInfoToWire(fi), nil
}

// List implements pb.HostWorkspaceServer.
func (s *Service) List(ctx context.Context, req *pb.WorkspaceListRequest) (*pb.WorkspaceListResponse, error) {
	if err := s.ready(); err != nil {
		return &pb.WorkspaceListResponse{Error: sdk.ErrorToWire(err)}, nil
	}
	ents, err := s.ws.List(ctx, sdk.PathFromWire(req.GetPath()))
	if err != nil {
		return &pb.WorkspaceListResponse{Error: sdk.ErrorToWire(err)}, nil
	}
	return sdk.DirEntriesToWire(ents), nil
}

// Commit implements pb.HostWorkspaceServer. The commit must belong to a
// call of this toolset in flight; a dry-run call commits dry whatever the
// plugin asks (the host enforces dry_run, a plugin cannot skip it).
func (s *Service) Commit(ctx context.Context, req *pb.WorkspaceCommitRequest) (*pb.WorkspaceCommitResponse, error) {
	if err := s.ready(); err != nil {
		return &pb.WorkspaceCommitResponse{Error: sdk.ErrorToWire(err)}, nil
	}
	dry := req.GetDryRun()
	if s.calls != nil {
		info, ok := s.calls.lookup(req.GetCallId())
		if !ok || info.Toolset != s.toolset {
			return &pb.WorkspaceCommitResponse{Error: (&sdk.Error{Code: sdk.CodePreconditionFailed, Required: "tool_call",
				Message: "workspace commit outside a tool call (call id " + quote(req.GetCallId()) + " is not running for toolset " + s.toolset + "); nothing was written",
				Hint:    "commit from inside the tool's handler with call.Workspace(), before the handler returns"}).Wire()}, nil
		}
		dry = dry || info.DryRun
	}
	ch := Change{Name: req.GetName(), Toolset: s.toolset, CallID: req.GetCallId(), DryRun: dry,
		ExpectActiveScene: sdk.PathFromWire(req.GetExpectActiveScene()), SaveInEditor: sdk.PathFromWire(req.GetSaveInEditor()),
		Ops: make([]Op, len(req.GetOps()))}
	for i, op := range req.GetOps() {
		ch.Ops[i] = Op{Path: sdk.PathFromWire(op.GetPath()), Delete: op.GetDelete(), Data: op.GetData(),
			Base: sdk.FileVersion(op.GetBaseVersion()), Mode: fs.FileMode(op.GetMode()).Perm(), BaseSeen: op.GetBaseSeen()}
	}
	res, err := s.ws.Commit(ctx, ch)
	if err != nil {
		return &pb.WorkspaceCommitResponse{DryRun: dry, Error: sdk.ErrorToWire(err)}, nil
	}
	return sdk.CommitResultToWire(res), nil
}

func quote(s string) string {
	if s == "" {
		return `""`
	}
	return `"` + s + `"`
}

// Scenes implements pb.HostWorkspaceServer.
func (s *Service) Scenes(ctx context.Context, _ *pb.WorkspaceScenesRequest) (*pb.WorkspaceScenesResponse, error) {
	if err := s.ready(); err != nil {
		return sdk.ScenesToWire(sdk.Scenes{}, err), nil
	}
	return sdk.ScenesToWire(s.ws.ScenesContext(ctx)), nil
}

// SetActiveScene implements pb.HostWorkspaceServer.
func (s *Service) SetActiveScene(ctx context.Context, req *pb.WorkspaceSceneRequest) (*pb.WorkspaceScenesResponse, error) {
	if err := s.ready(); err != nil {
		return sdk.ScenesToWire(sdk.Scenes{}, err), nil
	}
	return sdk.ScenesToWire(s.ws.SetActiveScene(ctx, sdk.PathFromWire(req.GetPath()))), nil
}

// CloseScene implements pb.HostWorkspaceServer.
func (s *Service) CloseScene(ctx context.Context, req *pb.WorkspaceSceneRequest) (*pb.WorkspaceScenesResponse, error) {
	if err := s.ready(); err != nil {
		return sdk.ScenesToWire(sdk.Scenes{}, err), nil
	}
	return sdk.ScenesToWire(s.ws.CloseScene(ctx, sdk.PathFromWire(req.GetPath()))), nil
}
