package sdktest_test

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

type pathArgs struct {
	Path string `json:"path" jsonschema:"the node path"`
}

// rulesToolset has one tool of each class that matters and counts the
// calls that reached the plugin.
func rulesToolset(runs *atomic.Int32, dry *atomic.Bool) *sdk.Toolset {
	h := func(_ context.Context, c *sdk.Call, _ pathArgs) (sdk.Result, error) {
		runs.Add(1)
		dry.Store(c.DryRun)
		return sdk.Text("ok"), nil
	}
	return &sdk.Toolset{Name: "rules", Version: "1.0.0", Description: "Rules.", Godot: ">= 4.0, < 5.0", Tools: []sdk.Tool{
		sdk.NewTool("read", "Read a node.", sdk.ReadOnly, h),
		sdk.NewTool("edit", "Edit a node.", sdk.Mutating, h),
		sdk.NewTool("delete", "Delete a node.", sdk.Destructive, h),
	}}
}

func TestCallsMeetTheHostsChecks(t *testing.T) {
	var runs atomic.Int32
	var dry atomic.Bool
	h := sdktest.New(t, rulesToolset(&runs, &dry), sdktest.Options{GodotVersion: "4.4"})
	ctx := context.Background()
	a := map[string]any{"path": "Player"}

	res := h.Call(ctx, "delete", a)
	if res.ErrorCode != sdk.CodePreconditionFailed || res.Error.Required != sdk.RequiredConfirm || runs.Load() != 0 {
		t.Fatalf("destructive without confirm: %+v (runs %d)", res, runs.Load())
	}
	if res := h.Call(ctx, "delete", a, sdktest.Confirm()); res.IsError || runs.Load() != 1 || dry.Load() {
		t.Fatalf("destructive with confirm: %+v", res)
	}
	if res := h.Call(ctx, "delete", a, sdktest.DryRun()); res.IsError || runs.Load() != 2 || !dry.Load() {
		t.Fatalf("destructive dry run (no confirm needed): %+v", res)
	}
	// confirm and dry_run in the arguments, as an agent sends them.
	if res := h.Call(ctx, "delete", map[string]any{"path": "P", "confirm": true}); res.IsError || runs.Load() != 3 {
		t.Fatalf("confirm as an argument: %+v", res)
	}
	if res := h.Call(ctx, "edit", a, sdktest.DryRun()); res.IsError || !dry.Load() {
		t.Fatalf("mutating dry run: %+v", res)
	}

	res = h.Call(ctx, "read", a, sdktest.DryRun())
	if res.ErrorCode != sdk.CodeInvalidArgument || !strings.Contains(res.Error.Hint, "only mutating and destructive tools accept dry_run") {
		t.Fatalf("dry run of a read-only tool: %+v", res.Error)
	}
	before := runs.Load()
	res = h.Call(ctx, "read", map[string]any{"path": 3})
	if res.ErrorCode != sdk.CodeInvalidArgument || runs.Load() != before || !strings.Contains(res.Error.Message, "path") {
		t.Fatalf("bad argument type: %+v", res.Error)
	}
	if res := h.Call(ctx, "read", map[string]any{"path": "P", "confirm": true}); res.ErrorCode != sdk.CodeInvalidArgument {
		t.Fatalf("confirm on a read-only tool: %+v", res)
	}
}

// fatalTB records a Fatalf and ends the goroutine, so a test can check
// that New refuses.
type fatalTB struct {
	testing.TB
	msg string
}

func (f *fatalTB) Helper() {}
func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func refusal(t *testing.T, ts *sdk.Toolset, o sdktest.Options) string {
	f := &fatalTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		sdktest.New(f, ts, o)
	}()
	<-done
	return f.msg
}

func TestNewRefusesWhatTheHostRefuses(t *testing.T) {
	var runs atomic.Int32
	var dry atomic.Bool
	msg := refusal(t, rulesToolset(&runs, &dry), sdktest.Options{GodotVersion: "3.6"})
	if !strings.Contains(msg, `the host refuses to enable toolset "rules" on Godot 3.6: it requires Godot >= 4.0, < 5.0`) {
		t.Errorf("Godot 3.6 against >= 4.0, < 5.0: %q", msg)
	}
	if msg := refusal(t, rulesToolset(&runs, &dry), sdktest.Options{GodotVersion: "4.6-stable"}); msg != "" {
		t.Errorf("Godot 4.6-stable refused: %q", msg)
	}
	clash := &sdk.Toolset{Name: "list", Version: "1.0.0", Description: "Clash.", Tools: []sdk.Tool{
		sdk.NewTool("toolsets", "Shadow a core tool.", sdk.ReadOnly, func(context.Context, *sdk.Call, struct{}) (sdk.Result, error) {
			return sdk.Text("x"), nil
		}),
	}}
	if msg := refusal(t, clash, sdktest.Options{}); !strings.Contains(msg, "godot_list_toolsets, the name of a core tool") {
		t.Errorf("core name clash: %q", msg)
	}
	bad := &sdk.Toolset{Name: "bad", Version: "1", Description: "Bad.", Godot: "4.x"}
	if msg := refusal(t, bad, sdktest.Options{}); !strings.Contains(msg, `godot constraint "4.x"`) || !strings.Contains(msg, `version "1"`) {
		t.Errorf("invalid manifest: %q", msg)
	}
}

func TestQuietByDefault(t *testing.T) {
	if hclog.DefaultOutput != io.Discard {
		t.Errorf("go-plugin's connection logs are not discarded (set %s=1 to see them)", sdktest.DebugEnv)
	}
}
