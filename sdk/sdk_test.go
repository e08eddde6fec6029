package sdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

type findArgs struct {
	Pattern string   `json:"pattern" jsonschema:"glob to match"`
	Limit   int      `json:"limit,omitempty" jsonschema:"maximum number of results"`
	Tags    []string `json:"tags,omitempty" jsonschema:"tags"`
	Filter  *struct {
		Ext string `json:"ext" jsonschema:"ext"`
	} `json:"filter,omitempty" jsonschema:"filter"`
}

type noArgs struct{}

// toolset builds a one-tool toolset around h.
func toolset[In any](h sdk.Handler[In], opts ...sdk.ToolOption) *sdk.Toolset {
	return &sdk.Toolset{
		Name:        "test",
		Version:     "0.0.1",
		Description: "Tools for testing the SDK.",
		Tools:       []sdk.Tool{sdk.NewTool("t", "A test tool.", sdk.Mutating, h, opts...)},
	}
}

func schemaOf(t *testing.T, ts *sdk.Toolset) (in, out map[string]any) {
	t.Helper()
	m, err := ts.Manifest()
	if err != nil {
		t.Fatalf("Manifest: %v", err)
	}
	if err := json.Unmarshal(m.Tools[0].InputSchema, &in); err != nil {
		t.Fatal(err)
	}
	if len(m.Tools[0].OutputSchema) > 0 {
		if err := json.Unmarshal(m.Tools[0].OutputSchema, &out); err != nil {
			t.Fatal(err)
		}
	}
	return in, out
}

func TestSchemaDerivation(t *testing.T) {
	noop := func(context.Context, *sdk.Call, findArgs) (sdk.Result, error) { return sdk.Result{}, nil }
	in, _ := schemaOf(t, toolset(noop))

	tests := []struct {
		name string
		got  any
		want string
	}{
		{"type", in["type"], `"object"`},
		{"required", in["required"], `["pattern"]`},
		{"no extra arguments", in["additionalProperties"], `false`},
		{"description", prop(in, "pattern")["description"], `"glob to match"`},
		{"integer", prop(in, "limit")["type"], `"integer"`},
		{"optional array is a plain array", prop(in, "tags")["type"], `"array"`},
		{"nested required", prop(in, "filter")["required"], `["ext"]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, _ := json.Marshal(tt.got)
			if string(b) != tt.want {
				t.Errorf("got %s, want %s\nschema: %v", b, tt.want, in)
			}
		})
	}

	t.Run("no arguments", func(t *testing.T) {
		in, _ := schemaOf(t, toolset(func(context.Context, *sdk.Call, noArgs) (sdk.Result, error) { return sdk.Result{}, nil }))
		if in["type"] != "object" || in["required"] != nil {
			t.Errorf("schema for struct{}: %v", in)
		}
	})
	t.Run("output schema", func(t *testing.T) {
		_, out := schemaOf(t, toolset(noop, sdk.WithOutputSchema[findResult]()))
		if out["type"] != "object" || prop(out, "files")["items"] == nil {
			t.Errorf("output schema: %v", out)
		}
	})
	t.Run("title and scope", func(t *testing.T) {
		m, err := toolset(noop, sdk.WithTitle("Find things"), sdk.CLIOnly()).Manifest()
		if err != nil {
			t.Fatal(err)
		}
		if m.Tools[0].Title != "Find things" || m.Tools[0].Scope != "cli" {
			t.Errorf("title %q scope %q", m.Tools[0].Title, m.Tools[0].Scope)
		}
	})
}

func prop(schema map[string]any, name string) map[string]any {
	props, _ := schema["properties"].(map[string]any)
	p, _ := props[name].(map[string]any)
	return p
}

type findResult struct {
	Files []string `json:"files" jsonschema:"files"`
	Total int      `json:"total" jsonschema:"total"`
}

func TestArgumentValidation(t *testing.T) {
	var got findArgs
	h := sdktest.New(t, toolset(func(_ context.Context, _ *sdk.Call, in findArgs) (sdk.Result, error) {
		got = in
		return sdk.Text("ok"), nil
	}), sdktest.Options{})

	tests := []struct {
		name string
		args any
		want string // substring of the error message; "" means success
	}{
		{"valid", map[string]any{"pattern": "*.gd", "limit": 3}, ""},
		{"missing required", map[string]any{"limit": 3}, `"pattern"`},
		{"wrong type", map[string]any{"pattern": "*.gd", "limit": "three"}, "limit"},
		{"fraction for integer", map[string]any{"pattern": "*.gd", "limit": 1.5}, "limit"},
		{"unknown argument", map[string]any{"pattern": "*.gd", "colour": "red"}, "colour"},
		{"nested field", map[string]any{"pattern": "*.gd", "filter": map[string]any{"ext": 3}}, "filter.ext"},
		{"array item", map[string]any{"pattern": "*.gd", "tags": []any{"a", 2}}, "tags"},
		{"not an object", json.RawMessage(`["*.gd"]`), "JSON object"},
		{"not JSON", json.RawMessage(`{"pattern":`), "not valid JSON"},
		{"trailing data", json.RawMessage(`{"pattern":"a"} {}`), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := h.Call(context.Background(), "t", tt.args)
			if res.Err != nil {
				t.Fatalf("rpc error: %v", res.Err)
			}
			if tt.want == "" {
				if tt.name == "trailing data" {
					if !res.IsError || res.ErrorCode != sdk.CodeInvalidArgument {
						t.Fatalf("trailing data accepted: %+v", res)
					}
					return
				}
				if res.IsError {
					t.Fatalf("unexpected error: %s", res.Text())
				}
				if got.Pattern != "*.gd" || got.Limit != 3 {
					t.Errorf("handler got %+v", got)
				}
				return
			}
			if !res.IsError || res.ErrorCode != sdk.CodeInvalidArgument {
				t.Fatalf("want INVALID_ARGUMENT, got isError=%v code=%q text=%q", res.IsError, res.ErrorCode, res.Text())
			}
			if !strings.Contains(res.Error.Message, tt.want) {
				t.Errorf("message %q does not name %q", res.Error.Message, tt.want)
			}
			if res.Error.Hint == "" {
				t.Error("no hint")
			}
		})
	}
}

func TestErrorMapping(t *testing.T) {
	type mode struct {
		Mode string `json:"mode" jsonschema:"mode"`
	}
	h := sdktest.New(t, toolset(func(_ context.Context, _ *sdk.Call, in mode) (sdk.Result, error) {
		switch in.Mode {
		case "sdk":
			return sdk.Result{}, &sdk.Error{Code: "PRECONDITION_FAILED", Message: "scene not open", Hint: "open it first", Required: "scene"}
		case "wrapped":
			return sdk.Result{}, fmt.Errorf("loading: %w", sdk.Errorf(sdk.CodeNotFound, "check the path", "no file %q", "a.tscn"))
		case "plain":
			return sdk.Result{}, errors.New("disk on fire")
		case "result":
			r := sdk.Text("partly failed")
			r.IsError = true
			return r, nil
		case "array":
			return sdk.JSON([]int{1, 2}), nil
		case "unencodable":
			return sdk.JSON(map[string]any{"f": func() {}}), nil
		case "schema":
			return sdk.JSON(map[string]any{"files": "not a list", "total": 1}), nil
		case "structured only":
			return sdk.Result{Structured: findResult{Files: []string{"a"}, Total: 1}}, nil
		}
		return sdk.JSON(findResult{Files: []string{"a.gd"}, Total: 1}), nil
	}, sdk.WithOutputSchema[findResult]()), sdktest.Options{})

	tests := []struct {
		mode      string
		isError   bool
		code      string
		text      string // substring of the text content
		hint      string
		required  string
		structure bool
	}{
		{mode: "ok", text: `"a.gd"`, structure: true},
		{mode: "structured only", text: `"files"`, structure: true},
		{mode: "sdk", isError: true, code: "PRECONDITION_FAILED", text: "scene not open\nHint: open it first", hint: "open it first", required: "scene"},
		{mode: "wrapped", isError: true, code: sdk.CodeNotFound, text: `no file "a.tscn"`, hint: "check the path"},
		{mode: "plain", isError: true, code: sdk.CodeToolError, text: "disk on fire"},
		{mode: "result", isError: true, text: "partly failed"},
		{mode: "array", isError: true, code: sdk.CodeToolError, text: "must be a JSON object", hint: "return a struct or a map with sdk.JSON"},
		{mode: "unencodable", isError: true, code: sdk.CodeToolError, text: "cannot be encoded"},
		{mode: "schema", isError: true, code: sdk.CodeToolError, text: "files"},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			res := h.Call(context.Background(), "t", mode{tt.mode})
			if res.Err != nil {
				t.Fatal(res.Err)
			}
			if res.IsError != tt.isError || res.ErrorCode != tt.code {
				t.Fatalf("isError=%v code=%q, want %v %q (text %q)", res.IsError, res.ErrorCode, tt.isError, tt.code, res.Text())
			}
			if !strings.Contains(res.Text(), tt.text) {
				t.Errorf("text %q does not contain %q", res.Text(), tt.text)
			}
			if res.Error != nil && (res.Error.Hint != tt.hint || res.Error.Required != tt.required) {
				t.Errorf("hint %q required %q, want %q %q", res.Error.Hint, res.Error.Required, tt.hint, tt.required)
			}
			if (res.StructuredJSON != nil) != tt.structure {
				t.Errorf("structured content %s, want present=%v", res.StructuredJSON, tt.structure)
			}
		})
	}

	t.Run("unknown tool", func(t *testing.T) {
		res := h.Call(context.Background(), "nope", nil)
		if status.Code(res.Err) != codes.NotFound {
			t.Fatalf("want NotFound, got %v", res.Err)
		}
	})
}

func TestProgressDryRunEnvAndLogs(t *testing.T) {
	var mu sync.Mutex
	var seen *sdk.Call
	h := sdktest.New(t, toolset(func(_ context.Context, call *sdk.Call, _ noArgs) (sdk.Result, error) {
		mu.Lock()
		seen = call
		mu.Unlock()
		call.Progress(0, 3, "start")
		var wg sync.WaitGroup
		for range 2 { // progress from other goroutines is allowed
			wg.Go(func() { call.Progress(1, 3, "worker") })
		}
		wg.Wait()
		call.Progress(3, 3, "done")
		call.Logger().Info("walked", "files", 3)
		call.Logger().Debug("detail")
		return sdk.Text("dry_run=%v", call.DryRun), nil
	}), sdktest.Options{ProjectDir: "/p", GodotVersion: "4.4.1", HostVersion: "9.9"})

	res := h.Call(context.Background(), "t", nil, sdktest.DryRun(), sdktest.CallID("c-1"))
	if res.Err != nil || res.IsError {
		t.Fatalf("call failed: %v %s", res.Err, res.Text())
	}
	if res.Text() != "dry_run=true" {
		t.Errorf("text %q", res.Text())
	}
	if n := len(res.Progress); n != 4 || res.Progress[0].Message != "start" || res.Progress[3] != (sdktest.Progress{Done: 3, Total: 3, Message: "done"}) {
		t.Errorf("progress %+v", res.Progress)
	}
	want := sdk.Env{HostVersion: "9.9", ProjectDir: "/p", GodotVersion: "4.4.1"}
	if seen.Env != want || seen.CallID != "c-1" || seen.Tool != "t" {
		t.Errorf("call %+v", seen)
	}
	// Progress after the handler returned is dropped, not a crash.
	seen.Progress(9, 9, "late")

	if res := h.Call(context.Background(), "t", nil); res.Text() != "dry_run=false" {
		t.Errorf("without DryRun: %q", res.Text())
	}

	logs := h.Logs()
	if len(logs) != 4 {
		t.Fatalf("logs: %v", logs)
	}
	if got := logs[0].String(); got != "info walked call_id=c-1 files=3 tool=t" {
		t.Errorf("log line %q", got)
	}
	if logs[1].Level != "debug" {
		t.Errorf("log level %q", logs[1].Level)
	}
}

func TestEditor(t *testing.T) {
	type nodeInfo struct {
		Path string `json:"path" jsonschema:"path"`
	}
	edTool := func() *sdk.Toolset {
		return &sdk.Toolset{Name: "test", Version: "0.0.1", Description: "Tools for testing the SDK.",
			Tools: []sdk.Tool{sdk.NewEditorTool("t", "A test tool.", sdk.Mutating,
				func(ctx context.Context, call *sdk.Call, ed *sdk.Editor, _ noArgs) (sdk.Result, error) {
					var out nodeInfo
					if err := ed.Apply(ctx, "get_node", map[string]string{"path": "/root/Main"}, &out); err != nil {
						return sdk.Result{}, err
					}
					return sdk.Text("%s", out.Path), nil
				})}}
	}

	t.Run("no peer", func(t *testing.T) {
		// Headless, an editor-only tool is refused before it runs, with
		// the way to attach an editor.
		h := sdktest.New(t, edTool(), sdktest.Options{})
		res := h.Call(context.Background(), "t", nil)
		if res.ErrorCode != sdk.CodePreconditionFailed || res.Error.Required != "editor" || res.Error.Hint == "" {
			t.Fatalf("got %q %+v", res.ErrorCode, res.Error)
		}
	})
	t.Run("peer answers", func(t *testing.T) {
		var gotCmd, gotParams string
		h := sdktest.New(t, edTool(), sdktest.Options{Editor: func(cmd string, params json.RawMessage) (json.RawMessage, *sdk.Error) {
			gotCmd, gotParams = cmd, string(params)
			return json.RawMessage(`{"path":"/root/Main"}`), nil
		}})
		res := h.Call(context.Background(), "t", nil)
		if res.IsError || res.Text() != "/root/Main" {
			t.Fatalf("got %+v", res)
		}
		if gotCmd != "get_node" || gotParams != `{"path":"/root/Main"}` {
			t.Errorf("editor saw %q %s", gotCmd, gotParams)
		}
	})
	t.Run("peer fails", func(t *testing.T) {
		// The peer speaks the addon's codes; the handler gets the host's
		// mapping of them (sdk/addonerr), and returns it unchanged.
		h := sdktest.New(t, edTool(), sdktest.Options{Editor: func(string, json.RawMessage) (json.RawMessage, *sdk.Error) {
			return nil, &sdk.Error{Code: "RESOURCE_NOT_FOUND", Hint: "No node at '/root/Main'."}
		}})
		res := h.Call(context.Background(), "t", nil)
		if res.ErrorCode != sdk.CodeNotFound || res.Error.Message != "the Godot editor refused get_node: No node at '/root/Main'." || res.Error.Hint == "" {
			t.Fatalf("got %+v", res.Error)
		}
	})
}

func TestCancellationReachesHandler(t *testing.T) {
	started := make(chan struct{})
	stopped := make(chan error, 1)
	h := sdktest.New(t, toolset(func(ctx context.Context, call *sdk.Call, _ noArgs) (sdk.Result, error) {
		close(started)
		<-ctx.Done()
		stopped <- ctx.Err()
		return sdk.Result{}, ctx.Err()
	}), sdktest.Options{})

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan *sdktest.Result)
	go func() { done <- h.Call(ctx, "t", nil) }()
	<-started
	cancel()
	if err := <-stopped; !errors.Is(err, context.Canceled) {
		t.Errorf("handler saw %v", err)
	}
	if res := <-done; status.Code(res.Err) != codes.Canceled {
		t.Errorf("caller got %v", res.Err)
	}
}

func TestManifestValidation(t *testing.T) {
	ok := func(context.Context, *sdk.Call, noArgs) (sdk.Result, error) { return sdk.Result{}, nil }
	reserved := func(context.Context, *sdk.Call, struct {
		DryRun bool `json:"dry_run" jsonschema:"dry run"`
	}) (sdk.Result, error) {
		return sdk.Result{}, nil
	}
	bad := func(context.Context, *sdk.Call, struct {
		F func() `json:"f" jsonschema:"f"`
	}) (sdk.Result, error) {
		return sdk.Result{}, nil
	}
	ptr := func(context.Context, *sdk.Call, *noArgs) (sdk.Result, error) { return sdk.Result{}, nil }
	scalar := func(context.Context, *sdk.Call, string) (sdk.Result, error) { return sdk.Result{}, nil }

	valid := func() *sdk.Toolset {
		return &sdk.Toolset{Name: "ok", Version: "1.0.0", Description: "Fine.", Tools: []sdk.Tool{sdk.NewTool("a", "A.", sdk.ReadOnly, ok)}}
	}
	tests := []struct {
		name   string
		change func(*sdk.Toolset)
		want   string
	}{
		{"valid", func(*sdk.Toolset) {}, ""},
		{"bad name", func(ts *sdk.Toolset) { ts.Name = "Scene-Edit" }, "toolset name"},
		{"reserved name", func(ts *sdk.Toolset) { ts.Name = "core" }, "reserved"},
		{"no version", func(ts *sdk.Toolset) { ts.Version = "" }, "no version"},
		{"no description", func(ts *sdk.Toolset) { ts.Description = " " }, "no description"},
		{"duplicate tool", func(ts *sdk.Toolset) { ts.Tools = append(ts.Tools, ts.Tools[0]) }, "declared twice"},
		{"bad tool name", func(ts *sdk.Toolset) { ts.Tools[0] = sdk.NewTool("Add Node", "A.", sdk.ReadOnly, ok) }, "name is invalid"},
		{"no tool description", func(ts *sdk.Toolset) { ts.Tools[0] = sdk.NewTool("a", "", sdk.ReadOnly, ok) }, "no description"},
		{"no safety class", func(ts *sdk.Toolset) { ts.Tools[0] = sdk.NewTool("a", "A.", "", ok) }, "safety class"},
		{"reserved argument", func(ts *sdk.Toolset) { ts.Tools[0] = sdk.NewTool("a", "A.", sdk.Mutating, reserved) }, `"dry_run"`},
		{"argument without schema", func(ts *sdk.Toolset) { ts.Tools[0] = sdk.NewTool("a", "A.", sdk.ReadOnly, bad) }, "input schema"},
		{"pointer arguments", func(ts *sdk.Toolset) { ts.Tools[0] = sdk.NewTool("a", "A.", sdk.ReadOnly, ptr) }, "not a pointer"},
		{"scalar arguments", func(ts *sdk.Toolset) { ts.Tools[0] = sdk.NewTool("a", "A.", sdk.ReadOnly, scalar) }, "JSON object"},
		{"nil handler", func(ts *sdk.Toolset) { ts.Tools[0] = sdk.NewTool[noArgs]("a", "A.", sdk.ReadOnly, nil) }, "handler is nil"},
		{"output not an object", func(ts *sdk.Toolset) {
			ts.Tools[0] = sdk.NewTool("a", "A.", sdk.ReadOnly, ok, sdk.WithOutputSchema[[]string]())
		}, "output schema"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := valid()
			tt.change(ts)
			m, err := ts.Manifest()
			if tt.want == "" {
				if err != nil || m.SDK == "" {
					t.Fatalf("err %v, sdk %q", err, m.SDK)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want it to mention %q", err, tt.want)
			}
		})
	}
}

// An OS error names the absolute path of the file; the agent gets the
// res:// path instead (and no caller learns where the project lives).
func TestErrorsNameResPaths(t *testing.T) {
	dir := t.TempDir()
	h := func(_ context.Context, call *sdk.Call, _ noArgs) (sdk.Result, error) {
		_, err := os.ReadFile(filepath.Join(call.Env.ProjectDir, "scenes", "missing.tscn"))
		return sdk.Result{}, err
	}
	host := sdktest.New(t, toolset(h), sdktest.Options{ProjectDir: dir})
	res := host.Call(context.Background(), "t", nil)
	if !res.IsError {
		t.Fatal("want an error")
	}
	if msg := res.Error.Message; strings.Contains(msg, dir) || !strings.Contains(msg, "res://scenes/missing.tscn") {
		t.Fatalf("message %q should name res://scenes/missing.tscn, not %s", msg, dir)
	}
}
