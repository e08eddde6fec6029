package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/testenv"
)

// tsStep is one line of testdata/ts-agent.mjs's report.
type tsStep struct {
	Step       string          `json:"step"`
	Tool       string          `json:"tool"`
	IsError    bool            `json:"isError"`
	Text       string          `json:"text"`
	Structured json.RawMessage `json:"structured"`
	Tools      []string        `json:"tools"`
	Exception  string          `json:"exception"`
}

// TestTypeScriptClient runs an agent session with the official TypeScript
// MCP client against the real host and the first-party project toolset:
// enable, list, calls that succeed, calls with a bad glob, a path outside
// the project, arguments of the wrong type and out of range, a call to a
// tool of a toolset disabled meanwhile. Every failure must reach the agent
// as an isError result whose text starts with the code. That client
// validates structuredContent against the tool's output schema even on
// error results and throws when it does not match, so an error that
// carries {code, message, …} as structured content of a tool with an
// output schema never reaches the agent.
func TestTypeScriptClient(t *testing.T) {
	sdkDir := testenv.RequireNodePackage(t, "@modelcontextprotocol/sdk")
	root := testenv.RepoRoot()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", filepath.Join("testdata", "ts-agent.mjs"), sdkDir, bin,
		"--plugins-dir", projectPluginsDir, "--project", filepath.Join(root, "examples", "demo"), "--log-level", "warn")
	cmd.Env = hostEnv("")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node ts-agent.mjs: %v\nstderr:\n%s\nstdout:\n%s", err, &stderr, &stdout)
	}
	steps := map[string]tsStep{}
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var s tsStep
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatalf("report line %q: %v", sc.Text(), err)
		}
		steps[s.Step] = s
	}
	get := func(name string) (tsStep, bool) {
		t.Helper()
		s, ok := steps[name]
		if !ok {
			t.Fatalf("step %s missing from the report\nstdout:\n%s\nstderr:\n%s", name, &stdout, &stderr)
		}
		if s.Exception != "" {
			t.Errorf("step %s (%s): the client threw instead of returning a result: %s", name, s.Tool, s.Exception)
			return s, false
		}
		return s, true
	}
	for _, name := range []string{"enable", "search", "disable"} {
		if s, ok := get(name); ok && s.IsError {
			t.Errorf("step %s (%s) failed: %s", name, s.Tool, s.Text)
		}
	}
	if s, ok := get("list"); ok && !contains(s.Tools, "godot_project_search_files") {
		t.Errorf("tools/list after enabling project lacks godot_project_search_files: %v", s.Tools)
	}
	for name, code := range map[string]string{
		"bad_glob":         "INVALID_ARGUMENT: ",
		"path_outside":     "INVALID_ARGUMENT: ",
		"bad_arguments":    "INVALID_ARGUMENT: ",
		"out_of_range":     "INVALID_ARGUMENT: ",
		"unknown_argument": "INVALID_ARGUMENT: ",
		"gated_off":        "TOOLSET_DISABLED: ",
		"unknown_toolset":  "UNKNOWN_TOOLSET: ",
	} {
		s, ok := get(name)
		if !ok {
			continue
		}
		if !s.IsError {
			t.Errorf("step %s (%s): want an error result, got %s", name, s.Tool, s.Text)
			continue
		}
		if !strings.HasPrefix(s.Text, code) {
			t.Errorf("step %s (%s): text %q does not start with %q", name, s.Tool, s.Text, code)
		}
		if !strings.Contains(s.Text, "\nHint: ") {
			t.Errorf("step %s (%s): text %q has no Hint line", name, s.Tool, s.Text)
		}
	}
	if s, ok := get("out_of_range"); ok && !strings.Contains(s.Text, "depth must be between 1 and 20, got 99") {
		t.Errorf("out-of-range depth: %q does not say the range in words", s.Text)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
