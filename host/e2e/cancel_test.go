package e2e

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// hugeProject writes a project with one generated scene: a chain of depth
// nested nodes under the root, and wide more Node2D siblings beside it.
func hugeProject(t testing.TB, depth, wide int) (dir string, scene []byte) {
	t.Helper()
	dir = t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "project.godot"), []byte("config_version=5\n\n[application]\n\nconfig/name=\"huge\"\nconfig/features=PackedStringArray(\"4.4\")\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("[gd_scene format=3]\n\n[node name=\"Root\" type=\"Node2D\"]\n")
	parent := "."
	for i := range depth {
		// One-letter names: the parent paths alone grow with the square
		// of the depth (25 MB at 5,000 levels).
		fmt.Fprintf(&b, "\n[node name=\"a\" type=\"Node2D\" parent=%q]\n", parent)
		if i == 0 {
			parent = "a"
		} else {
			parent += "/a"
		}
	}
	for i := range wide {
		fmt.Fprintf(&b, "\n[node name=\"W%d\" type=\"Node2D\" parent=\".\"]\nposition = Vector2(%d, 0)\n", i, i)
	}
	scene = []byte(b.String())
	if err := os.WriteFile(filepath.Join(dir, "huge.tscn"), scene, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, scene
}

// Large-scene tools ignored cancellation: batch set_property over 305k
// nodes ran on for over a minute after notifications/cancelled. Through a
// real MCP client the call is cancelled mid-run; the plugin's own report
// of how the cancelled call ended (its log line, which says CANCELLED only
// when the handler noticed and stopped) proves it stopped, the scene is
// untouched, and the next calls work. get_scene_tree on the same
// 4,000-deep scene answers bounded, with a truncation marker.
func TestLargeSceneCallsStopWhenCancelled(t *testing.T) {
	dir, orig := hugeProject(t, 4000, 120_000)
	s := stdioHost(t, legacy, "--plugins-dir", projectPluginsDir, "--project", dir, "--log-level", "info")
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"batch"}}, nil)

	ctx, cancel := context.WithCancel(t.Context())
	// The call runs for seconds on this scene; cancelling it shortly after
	// it starts lands in its loop over the nodes.
	time.AfterFunc(300*time.Millisecond, cancel)
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "godot_batch_set_property", Arguments: map[string]any{
		"scene": "res://huge.tscn", "type": "Node2D", "property": "visible", "value": false}})
	if err == nil {
		t.Fatalf("the call finished before it was cancelled (%s); the scene is too small for this machine", text(res))
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call: %v, want context.Canceled", err)
	}
	var line string
	waitUntil(t, "the batch plugin to report how the cancelled call ended", func() bool {
		for l := range strings.SplitSeq(s.stderr.String(), "\n") {
			if strings.Contains(l, "cancelled call ended") && strings.Contains(l, "set_property") {
				line = l
				return true
			}
		}
		return false
	})
	if !strings.Contains(line, "code=CANCELLED") {
		t.Fatalf("the plugin ran the cancelled call to its end instead of stopping: %s", line)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "huge.tscn")); string(got) != string(orig) {
		t.Fatal("the cancelled call changed the scene")
	}

	// The plugin is free again, and get_scene_tree is bounded by default.
	var tree struct {
		Truncated  bool     `json:"truncated"`
		Nodes      int      `json:"nodes"`
		TotalNodes int      `json:"total_nodes"`
		Hint       string   `json:"hint"`
		Tree       treeNode `json:"tree"`
	}
	res2 := s.call(t, "godot_inspection_get_scene_tree", map[string]any{"scene": "res://huge.tscn"})
	if res2.IsError {
		t.Fatalf("get_scene_tree: %s", text(res2))
	}
	decode(t, res2, &tree)
	if !tree.Truncated || tree.Nodes == 0 || tree.Nodes > 200 || tree.TotalNodes != 1+4000+120_000 || tree.Tree.count() != tree.Nodes ||
		!strings.Contains(tree.Hint, "max_nodes") {
		t.Errorf("get_scene_tree: truncated %v, %d of %d nodes (tree has %d), hint %q", tree.Truncated, tree.Nodes, tree.TotalNodes, tree.Tree.count(), tree.Hint)
	}
	if n := len(text(res2)); n > maxAnswerBytes {
		t.Errorf("default get_scene_tree answer is %d bytes, want about 20 KB", n)
	}
	s.ok(t, "godot_batch_set_property", map[string]any{"scene": "res://huge.tscn", "node_paths": []string{"W1"}, "property": "visible", "value": false}, nil)
}
