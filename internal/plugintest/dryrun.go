package plugintest

import (
	"context"
	"slices"
	"sort"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/editorcmd"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// EditorDryRuns calls every mutating and destructive tool of h's toolset
// with dry_run against the scripted editor ed, with the arguments in calls
// (tool name → arguments that pass validation, so the dry run reaches the
// editor path). It fails the test when a tool of that kind has no entry in
// calls (so a new tool must be added), when a dry run fails or answers
// without the editor preview, or when a command that changes the editor
// reached ed (sdktest reports that too, naming the tool).
func EditorDryRuns(t *testing.T, h *sdktest.Host, ed *sdktest.Editor, calls map[string]any) {
	t.Helper()
	ctx := context.Background()
	m, err := h.Manifest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var tools []string
	for _, tl := range m.Tools {
		if tl.SafetyClass == manifest.Mutating || tl.SafetyClass == manifest.Destructive {
			tools = append(tools, tl.Name)
		}
	}
	sort.Strings(tools)
	for name := range calls {
		if !slices.Contains(tools, name) {
			t.Errorf("%s is not a mutating or destructive tool of %s", name, m.Name)
		}
	}
	for _, tool := range tools {
		args, ok := calls[tool]
		if !ok {
			t.Errorf("%s: no arguments for its editor dry run; add them to the test", tool)
			continue
		}
		before := len(ed.Calls())
		res := h.Call(ctx, tool, args, sdktest.DryRun())
		if res.Err != nil || res.IsError {
			t.Errorf("%s dry run: %v %s", tool, res.Err, res.Text())
			continue
		}
		var out struct {
			DryRun  bool `json:"dry_run"`
			Preview struct {
				Mode string `json:"mode"`
			} `json:"preview"`
		}
		if err := res.Structured(&out); err != nil || !out.DryRun || out.Preview.Mode != "editor" {
			t.Errorf("%s dry run: not an editor preview (%v): %s", tool, err, res.Text())
		}
		for _, c := range ed.Calls()[before:] {
			info := editorcmd.Lookup(c.Command)
			if info.Kind == editorcmd.Mutating || (info.Kind == editorcmd.Preview && c.Params[info.Flag] != true) {
				t.Errorf("%s dry run sent %s %v to the editor", tool, c.Command, c.Params)
			}
		}
	}
}

// DryRunIn calls tool as a dry run on h, which runs in mode, and fails the
// test unless the answer is a preview of that mode in the SDK's one shape
// (dry_run true, preview.mode). It returns the answer's fields, for checks
// of the tool's own.
func DryRunIn(t testing.TB, h *sdktest.Host, mode sdk.Mode, tool string, args any) map[string]any {
	t.Helper()
	res := h.Call(context.Background(), tool, args, sdktest.DryRun())
	if res.IsError {
		t.Fatalf("%s (%s) dry run: %s", tool, mode, res.Text())
	}
	var out map[string]any
	if err := res.Structured(&out); err != nil {
		t.Fatalf("%s (%s) dry run: %v", tool, mode, err)
	}
	preview, _ := out["preview"].(map[string]any)
	if out["dry_run"] != true || preview == nil || preview["mode"] != string(mode) {
		t.Errorf("%s (%s): not a %s preview: %s", tool, mode, mode, res.Text())
	}
	return out
}
