package sdk_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// The code from here to Example is the package documentation's example,
// line for line (TestPackageDocExampleIsCompiled checks it): it must
// compile and work as the documentation says.

type SetArgs struct {
	Name  string `json:"name" jsonschema:"setting name, such as application/config/name"`
	Value any    `json:"value" jsonschema:"the new value, as JSON: a number, a string, {\"x\":1,\"y\":2} for a Vector2, ..."`
}

type ReadArgs struct {
	Path sdk.ResPath `json:"path" jsonschema:"res:// path of a text file" godot:"exists"`
}

// setSetting is the headless path: it edits project.godot through the
// workspace, the only way to change project files.
func setSetting(ctx context.Context, call *sdk.Call, in SetArgs) (sdk.Result, error) {
	ws := call.Workspace()
	call.Progress(0, 1, "reading project.godot")
	proj, file, err := ws.ReadProject(ctx) // the settings and the file's version
	if err != nil {
		return sdk.Result{}, err // NOT_FOUND without a project.godot
	}
	typ := ""
	if old, ok := proj.Setting(in.Name); ok {
		typ = old.Kind().String() // keep the setting's type, such as "Vector2"
	}
	v, err := godot.FromJSON(in.Value, typ) // JSON to a Godot value
	if err != nil {
		return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "pass the value in the setting's type", "value: %v", err)
	}
	proj.SetSetting(in.Name, v)
	// Commit honours dry_run, and the whole call is one godot_undo step.
	res, err := ws.Begin("Set "+in.Name).
		Write(file.Path, proj.Bytes(), file.Version). // compare-and-swap
		Commit(ctx)
	if err != nil {
		return sdk.Result{}, err // CONFLICT if the file changed since the read
	}
	call.Logger().Info("setting written", "name", in.Name, "dry_run", res.DryRun)
	call.Progress(1, 1, "done")
	return sdk.JSON(map[string]any{"name": in.Name, "value": godot.ToJSON(v), "set": !res.DryRun}), nil
}

// readText serves both modes: it only reads, through the workspace.
func readText(ctx context.Context, call *sdk.Call, in ReadArgs) (sdk.Result, error) {
	f, err := call.Workspace().Read(ctx, in.Path.String()) // in.Path is checked and cleaned
	if err != nil {
		return sdk.Result{}, err
	}
	return sdk.Text("%s", f.Data), nil
}

func settingsToolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name:        "settings",
		Version:     "1.0.0",
		Description: "Reads project files and edits project settings.",
		Godot:       ">= 4.2",
		Tools: []sdk.Tool{
			sdk.NewTool("read_text", "Read a text file of the project.", sdk.ReadOnly, readText,
				sdk.AnyMode()),
			sdk.NewTool("set_setting", "Set a project setting. Supports dry_run.", sdk.Mutating, setSetting,
				// With an editor attached: the addon's command, so the
				// editor's ProjectSettings change too.
				sdk.EditorCommand("cmd_set_setting", func(in SetArgs) (any, error) {
					return map[string]any{"name": in.Name, "value": in.Value}, nil
				})),
		},
	}
}

// Example prints what the manifest says of each tool's modes.
func Example() {
	m, err := settingsToolset().Manifest()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, tool := range m.Tools {
		fmt.Println(tool.Name, tool.Modes, tool.EditorPath)
	}
	// Output:
	// read_text [headless editor] files
	// set_setting [headless editor] cmd_set_setting
}

// TestPackageDocExampleIsCompiled keeps the package documentation's example
// true: every line of its code block, but package main's own lines (the
// package clause, the imports and main, which a test file cannot have),
// is a line of this file's copy, in the same order.
func TestPackageDocExampleIsCompiled(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	var code []string
	for _, l := range strings.Split(string(doc), "\n") {
		if rest, ok := strings.CutPrefix(l, "//\t"); ok {
			code = append(code, rest)
		} else if l == "//" && len(code) > 0 {
			code = append(code, "")
		}
	}
	text := strings.Join(code, "\n")
	start, end := strings.Index(text, "type SetArgs struct"), strings.Index(text, "func main() {")
	if start < 0 || end < start {
		t.Fatalf("the package doc's example lost its shape:\n%s", text)
	}
	example := strings.TrimSpace(text[start:end])
	if !strings.Contains(string(self), example) {
		t.Errorf("the package doc's example differs from example_test.go's copy; make them the same:\n%s", example)
	}
	for _, want := range []string{"package main", "sdk.Serve(settingsToolset())"} {
		if !strings.Contains(text, want) {
			t.Errorf("the package doc's example lacks %q", want)
		}
	}
}

// The documented toolset works as the documentation says, in both modes,
// dry runs included.
func TestPackageDocExample(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	const project = "config_version=5\n\n[display]\n\nwindow/size/viewport_width=1152\n"
	if err := os.WriteFile(filepath.Join(dir, "project.godot"), []byte(project), 0o644); err != nil {
		t.Fatal(err)
	}
	args := map[string]any{"name": "display/window/size/viewport_width", "value": 1280}

	headless := sdktest.New(t, settingsToolset(), sdktest.Options{ProjectDir: dir})
	res := headless.Call(ctx, "set_setting", args, sdktest.DryRun())
	var p struct {
		Set     bool `json:"set"`
		DryRun  bool `json:"dry_run"`
		Preview struct {
			Mode  string           `json:"mode"`
			Files []sdk.FileChange `json:"files"`
		} `json:"preview"`
	}
	if err := res.Structured(&p); err != nil || !p.DryRun || p.Set || p.Preview.Mode != "headless" || len(p.Preview.Files) != 1 ||
		!strings.Contains(p.Preview.Files[0].Diff, "+window/size/viewport_width=1280") {
		t.Fatalf("headless dry run %+v %v: %s", p, err, res.Text())
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "project.godot")); string(b) != project {
		t.Fatalf("the dry run wrote project.godot:\n%s", b)
	}
	if res := headless.Call(ctx, "set_setting", args); res.IsError {
		t.Fatalf("set_setting: %s", res.Text())
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "project.godot")); !strings.Contains(string(b), "window/size/viewport_width=1280\n") {
		t.Fatalf("project.godot after set_setting:\n%s", b)
	}
	if res := headless.Call(ctx, "read_text", map[string]any{"path": "project.godot"}); !strings.Contains(res.Text(), "1280") {
		t.Fatalf("read_text: %s", res.Text())
	}

	ed := sdktest.NewEditor().On("cmd_set_setting", func(p map[string]any) (any, *sdk.Error) {
		return map[string]any{"name": p["name"], "value": p["value"], "set": true}, nil
	})
	inEditor := sdktest.New(t, settingsToolset(), sdktest.Options{ProjectDir: dir, Editor: ed.Serve})
	res = inEditor.Call(ctx, "set_setting", args, sdktest.DryRun())
	if !strings.Contains(res.Text(), `"command":"cmd_set_setting"`) || len(ed.Calls()) != 0 {
		t.Fatalf("editor dry run: %s; the editor received %v", res.Text(), ed.Calls())
	}
	if res := inEditor.Call(ctx, "set_setting", args); res.IsError || len(ed.Calls("cmd_set_setting")) != 1 {
		t.Fatalf("editor set_setting: %s; calls %v", res.Text(), ed.Calls())
	}
}
