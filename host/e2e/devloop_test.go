package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/internal/testenv"
)

// devMain is a toolset under development; {{ANSWER}} and {{EXTRA}} are
// what the test edits between builds.
const devMain = `package main

import (
	"context"

	"github.com/godot-mcp/godot-mcp/sdk"
)

func main() {
	reply := func(s string) func(context.Context, *sdk.Call, struct{}) (sdk.Result, error) {
		return func(context.Context, *sdk.Call, struct{}) (sdk.Result, error) { return sdk.Text("%s", s), nil }
	}
	sdk.Serve(&sdk.Toolset{Name: "devtool", Version: "0.1.0", Description: "A toolset under development.",
		Tools: []sdk.Tool{
			sdk.NewTool("which", "Report which build serves.", sdk.ReadOnly, reply("{{ANSWER}}")),
			{{EXTRA}}
		}})
}
`

// TestDevLoop runs `godot-mcp serve --dev-plugin DIR` on a toolset module
// outside the plugins directory, as the guide's dev loop does: the host
// builds it, serves it, and after an edit of its source rebuilds it and
// swaps it in between calls; the client stays connected, gets
// list_changed, and its next call runs the new code.
func TestDevLoop(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a toolset twice; skipped with -short")
	}
	testenv.RequireBinary(t, "go", "golang-go")
	root := testenv.RepoRoot()
	dir := t.TempDir()
	write := func(answer, extra string) {
		src := strings.NewReplacer("{{ANSWER}}", answer, "{{EXTRA}}", extra).Replace(devMain)
		if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("first", "")
	gomod := "module example.com/devtool\n\ngo 1.26.0\n\nrequire github.com/godot-mcp/godot-mcp/sdk v0.0.0\n\nreplace github.com/godot-mcp/godot-mcp/sdk => " + filepath.Join(root, "sdk") + "\n"
	sum, err := os.ReadFile(filepath.Join(root, "sdk", "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}

	// Warm the build cache, so that the host's own build at start fits in
	// the client's connect timeout on a loaded machine.
	warm := exec.Command("go", "build", "-o", filepath.Join(t.TempDir(), "warm"), ".")
	warm.Dir = dir
	warm.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := warm.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// The host runs go build with its own environment; the tests give it
	// a private XDG_CACHE_HOME, so name the machine's build cache.
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	s := stdioHostEnv(t, "2025-11-25", []string{"GOWORK=off", "GOFLAGS=-mod=mod", "GOCACHE=" + strings.TrimSpace(string(gocache))}, "--dev-plugin", dir)
	ctx := context.Background()
	which := func() string {
		t.Helper()
		res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "godot_devtool_which", Arguments: map[string]any{}})
		if err != nil || res.IsError {
			t.Fatalf("which: %v %+v", err, res)
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	if got := which(); got != "first" {
		t.Fatalf("first build answered %q", got)
	}

	write("second", `sdk.NewTool("added", "A tool added while the host ran.", sdk.ReadOnly, reply("added")),`)
	select {
	case <-s.listChanged:
	case <-time.After(2 * time.Minute):
		t.Fatal("no tools/list_changed after editing the source")
	}
	if got := which(); got != "second" {
		t.Errorf("after the rebuild %q answered", got)
	}
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "godot_devtool_added", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Errorf("the added tool: %v %+v", err, res)
	}
}
