package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/internal/syncbuf"
	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
	"github.com/godot-mcp/godot-mcp/sdk/wire"
)

// nodeHost is a `godot-mcp serve` over stdio whose plugins directory holds
// only the Node toolset of examples/node-toolset, behind a launcher script
// named as the host requires.
type nodeHost struct {
	*session
	cmd     *exec.Cmd
	stderr  *syncbuf.Buffer
	project string
}

// nodeLauncher writes, into dir, the launcher script the host runs for the
// Node toolset, and returns its path.
func nodeLauncher(t *testing.T, dir string) string {
	t.Helper()
	testenv.RequireNodePackage(t, "@grpc/grpc-js")
	testenv.RequireNodePackage(t, "@grpc/proto-loader")
	node := testenv.RequireBinary(t, "node", "nodejs")
	script := filepath.Join(testenv.RepoRoot(), "examples", "node-toolset", "toolset.js")
	launcher := "#!/bin/sh\n" +
		"NODE_PATH='" + testenv.NodeModules() + "' exec '" + node + "' '" + script + "' \"$@\"\n"
	path := filepath.Join(dir, "godot-mcp-toolset-node_example")
	if err := os.WriteFile(path, []byte(launcher), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func startNodeHost(t *testing.T) *nodeHost {
	t.Helper()
	plugins := t.TempDir()
	nodeLauncher(t, plugins)
	project := t.TempDir()
	for name, content := range map[string]string{
		"project.godot":       "config_version=5\n",
		"scripts/player.gd":   "extends Node\n\nfunc _ready():\n\tpass\n",
		"scripts/enemy.gd":    "extends Node\n",
		"scripts/ui/hud.gd":   "extends Control\n# two\n# three\n",
		"scripts/notes.txt":   "not a script\n",
		".godot/cache/out.gd": "hidden\n",
	} {
		p := filepath.Join(project, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	cmd := exec.Command(bin, "serve", "--plugins-dir", plugins, "--project", project, "--godot-version", "4.4")
	cmd.Env = hostEnv("")
	stderr := &syncbuf.Buffer{}
	cmd.Stderr = stderr
	n := newNotes()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := newClient(n).Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: legacy})
	if err != nil {
		t.Fatalf("connecting over stdio: %v\nstderr:\n%s", err, stderr)
	}
	t.Cleanup(func() {
		cs.Close()
		if t.Failed() {
			t.Logf("host stderr:\n%s", stderr)
		}
	})
	return &nodeHost{session: &session{ClientSession: cs, notes: n}, cmd: cmd, stderr: stderr, project: project}
}

// TestNodeToolset drives the toolset written in Node (examples/node-toolset,
// built from docs/plugin-protocol.md alone) through the real host with the
// go-sdk client: catalog, enable, list, a call with progress, error results,
// dry_run, both host services over the broker (HostLog, HostEditor),
// disable, and the lifeline.
func TestNodeToolset(t *testing.T) {
	h := startNodeHost(t)
	s := h.session

	// Cataloged from --describe, gated off like every new toolset.
	var toolsets struct {
		Toolsets []struct {
			Name    string `json:"name"`
			Enabled bool   `json:"enabled"`
		} `json:"toolsets"`
	}
	s.ok(t, "godot_list_toolsets", map[string]any{}, &toolsets)
	if i := slices.IndexFunc(toolsets.Toolsets, func(ts struct {
		Name    string `json:"name"`
		Enabled bool   `json:"enabled"`
	}) bool {
		return ts.Name == "node_example"
	}); i < 0 || toolsets.Toolsets[i].Enabled {
		t.Fatalf("node_example not listed, or enabled before anyone asked: %+v", toolsets)
	}

	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"node_example"}}, nil)
	waitListChanged(t, s, "enable node_example")
	res, err := s.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var tools []*mcp.Tool
	for _, tl := range res.Tools {
		if strings.HasPrefix(tl.Name, "godot_node_example_") {
			tools = append(tools, tl)
		}
	}
	if len(tools) != 3 || tools[0].Name != "godot_node_example_count_lines" || tools[1].Name != "godot_node_example_editor_info" || tools[2].Name != "godot_node_example_write_note" {
		t.Fatalf("node tools = %v", tools)
	}
	if tools[0].Annotations == nil || !tools[0].Annotations.ReadOnlyHint || tools[0].OutputSchema == nil {
		t.Errorf("count_lines lacks its read-only annotation or output schema: %+v", tools[0])
	}

	// A call with progress: one event per file, then the result.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cr, err := s.CallTool(ctx, &mcp.CallToolParams{
		Name: "godot_node_example_count_lines", Arguments: map[string]any{"extension": "gd", "dir": "res://scripts"},
		Meta: mcp.Meta{"progressToken": "node"},
	})
	if err != nil || cr.IsError {
		t.Fatalf("count_lines: %v %s", err, text(cr))
	}
	var counted struct {
		Files []struct {
			Path  string `json:"path"`
			Lines int    `json:"lines"`
		} `json:"files"`
		TotalLines int `json:"total_lines"`
	}
	decode(t, cr, &counted)
	if counted.TotalLines != 8 || len(counted.Files) != 3 || counted.Files[0].Path != "res://scripts/enemy.gd" || counted.Files[2].Path != "res://scripts/ui/hud.gd" {
		t.Errorf("count_lines = %+v", counted)
	}
	for i := range 3 {
		select {
		case p := <-s.progress:
			if p.ProgressToken != "node" || p.Total != 3 || p.Progress != float64(i+1) {
				t.Errorf("progress %d = %+v", i, p)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("progress event %d missing", i)
		}
	}

	// Failures are results with the plugin's code and hint; the host's own
	// schema check runs before the plugin sees anything.
	for _, tc := range []struct {
		args map[string]any
		code string
	}{
		{map[string]any{"extension": "gd", "dir": "res://missing"}, "NOT_FOUND"},
		{map[string]any{"extension": "gd", "dir": "res://../elsewhere"}, "INVALID_ARGUMENT"},
		{map[string]any{"extension": "g d"}, "INVALID_ARGUMENT"},
	} {
		te := toolError(t, s.call(t, "godot_node_example_count_lines", tc.args))
		if te.Code != tc.code || te.Hint == "" {
			t.Errorf("%v = %+v, want code %s with a hint", tc.args, te, tc.code)
		}
	}

	// HostEditor over the broker: with no Godot peer attached the host's
	// answer comes back through the plugin with its code and requirement.
	if te := toolError(t, s.call(t, "godot_node_example_editor_info", map[string]any{})); te.Code != "BRIDGE_DISCONNECTED" || te.Required != "godot_peer" || te.Toolset != "node_example" {
		t.Errorf("editor_info without an editor = %+v", te)
	}

	// dry_run reaches the plugin as the call's flag: nothing is written.
	var note struct {
		Path    string `json:"path"`
		DryRun  bool   `json:"dry_run"`
		Written bool   `json:"written"`
	}
	noteFile := filepath.Join(h.project, "scripts", "todo.md")
	s.ok(t, "godot_node_example_write_note", map[string]any{"path": "res://scripts/todo.md", "text": "ship it", "dry_run": true}, &note)
	if !note.DryRun || note.Written || note.Path != "res://scripts/todo.md" {
		t.Errorf("dry run = %+v", note)
	}
	if _, err := os.Stat(noteFile); !os.IsNotExist(err) {
		t.Errorf("the dry run wrote %s", noteFile)
	}
	s.ok(t, "godot_node_example_write_note", map[string]any{"path": "res://scripts/todo.md", "text": "ship it"}, &note)
	if got, _ := os.ReadFile(noteFile); string(got) != "ship it" || !note.Written {
		t.Errorf("write_note = %+v, file %q", note, got)
	}

	// HostLog over the broker: the plugin's lines are in the host's log,
	// under the toolset's name, with its fields.
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(h.stderr.String(), "counted lines: tool=count_lines") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if log := h.stderr.String(); !strings.Contains(log, "node_example: counted lines: tool=count_lines") || !strings.Contains(log, "total_lines=8") {
		t.Errorf("the plugin's HostLog line is not in the host log:\n%s", log)
	}

	// Disable: the tools go, and so does the node process.
	pid := s.pluginPID(t, "node_example")
	if pid == 0 {
		t.Fatal("node_example has no pid while enabled")
	}
	drain(s.listChanged)
	s.ok(t, "godot_disable_toolset", map[string]any{"toolsets": []string{"node_example"}}, nil)
	waitListChanged(t, s, "disable node_example")
	if got := s.names(t); slices.Contains(got, "godot_node_example_count_lines") {
		t.Errorf("after disable: %v", got)
	}
	waitGone(t, pid)

	// The lifeline: enabled again, then the host dies without a word; the
	// node process follows it.
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"node_example"}}, nil)
	pid = s.pluginPID(t, "node_example")
	if pid == 0 {
		t.Fatal("node_example has no pid after the second enable")
	}
	if err := h.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pid)
}

// TestNodeToolsetDescribeAgrees checks the Node toolset's Describe RPC,
// before any Configure, against its --describe JSON (the protocol says the
// two must agree; the host reads only the JSON), and that go-plugin's
// graceful stop (GRPCController.Shutdown) ends the process.
func TestNodeToolsetDescribeAgrees(t *testing.T) {
	launcher := nodeLauncher(t, t.TempDir())
	out, err := exec.Command(launcher, "--describe").Output()
	if err != nil {
		t.Fatalf("--describe: %v", err)
	}
	var want manifest.Manifest
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	if err := want.Validate(); err != nil {
		t.Fatalf("--describe manifest is invalid: %v", err)
	}

	stderr := &syncbuf.Buffer{}
	client := plugin.NewClient(&plugin.ClientConfig{
		Stderr:           stderr,
		HandshakeConfig:  wire.Handshake,
		VersionedPlugins: wire.PluginSets(nil),
		Cmd:              exec.Command(launcher),
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		GRPCDialOptions:  wire.GRPCDialOptions(),
		Logger:           hclog.NewNullLogger(),
	})
	defer client.Kill()
	rpc, err := client.Client()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := rpc.Dispense(wire.PluginName)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	pm, err := raw.(*wire.Client).Toolset.Describe(ctx, &pb.DescribeRequest{})
	if err != nil {
		t.Fatalf("Describe before Configure: %v", err)
	}
	got := manifest.FromProto(pm)
	if got.Name != want.Name || got.Version != want.Version || got.Description != want.Description ||
		got.Godot != want.Godot || got.SDK != want.SDK || len(got.Tools) != len(want.Tools) {
		t.Fatalf("Describe = %+v\n--describe = %+v", got, want)
	}
	sameJSON := func(a, b json.RawMessage) bool {
		if len(a) == 0 || len(b) == 0 {
			return len(a) == len(b)
		}
		var x, y any
		return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
	}
	for i, g := range got.Tools {
		w := want.Tools[i]
		if g.Name != w.Name || g.Title != w.Title || g.Description != w.Description || g.SafetyClass != w.SafetyClass ||
			g.EffectiveScope() != w.EffectiveScope() || !sameJSON(g.InputSchema, w.InputSchema) || !sameJSON(g.OutputSchema, w.OutputSchema) {
			t.Errorf("tool %d: Describe = %+v\n--describe = %+v", i, g, w)
		}
	}

	client.Kill() // Shutdown over GRPCController, then wait for the exit
	if !client.Exited() || !strings.Contains(stderr.String(), "shutdown requested by the host") {
		t.Errorf("the node process did not stop through Shutdown; its stderr:\n%s", stderr)
	}
}
