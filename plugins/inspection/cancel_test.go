package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// instancingProject writes a project whose huge.tscn instances a 21-node
// scene n times: small files (60 bytes per instance), so reading them
// takes milliseconds, but n×21 nodes to expand. broken.tscn is the same
// with one more instance, last, of itself: the loader finds the cycle only
// at the end of its loop, and without asking the workspace anything.
func instancingProject(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	var sub, main strings.Builder
	sub.WriteString("[gd_scene format=3]\n\n[node name=\"Root\" type=\"Node2D\"]\n")
	for i := range 20 {
		fmt.Fprintf(&sub, "\n[node name=\"S%d\" type=\"Sprite2D\" parent=\".\"]\nposition = Vector2(%d, 0)\n", i, i)
	}
	main.WriteString("[gd_scene format=3]\n\n[ext_resource type=\"PackedScene\" path=\"res://sub.tscn\" id=\"1\"]\n\n[node name=\"Root\" type=\"Node2D\"]\n")
	for i := range n {
		fmt.Fprintf(&main, "\n[node name=\"I%d\" parent=\".\" instance=ExtResource(\"1\")]\n", i)
	}
	broken := strings.Replace(main.String(), "\n\n[node name=\"Root\"", "\n[ext_resource type=\"PackedScene\" path=\"res://broken.tscn\" id=\"2\"]\n\n[node name=\"Root\"", 1) +
		"\n[node name=\"Last\" parent=\".\" instance=ExtResource(\"2\")]\n"
	for name, text := range map[string]string{"project.godot": "config_version=5\n", "sub.tscn": sub.String(), "huge.tscn": main.String(), "broken.tscn": broken} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// get_scene_tree on a large scene stops when its call is cancelled: the
// plugin's own log of how the cancelled call ended says CANCELLED, which
// it says only when the handler noticed and returned the error (a handler
// that ignores the context runs to its end, and the line says so). On
// broken.tscn the loader's loop is the one place that can notice: run to
// its end, it fails with INVALID_ARGUMENT before the answer is built.
//
// A first, whole call parses the scene into the toolset's cache; a second
// measures the cached call; the next is cancelled a third of the way in,
// when its two workspace reads (milliseconds: the files are small) are
// long done, so only the tool's own checks can stop it.
func TestSceneTreeStopsWhenCancelled(t *testing.T) {
	dir := instancingProject(t, 10_000) // 210,001 nodes
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.4"})
	cancelledLines := func() []string {
		var lines []string
		for _, l := range h.Logs() {
			if l.Message == "cancelled call ended" && l.Fields["tool"] == "get_scene_tree" {
				lines = append(lines, l.String())
			}
		}
		return lines
	}
	for _, scene := range []string{"res://huge.tscn", "res://broken.tscn"} {
		args := obj{"scene": scene}
		var whole time.Duration
		for range 2 { // the second call is the cached one, as timed below
			start := time.Now()
			if res := h.Call(t.Context(), "get_scene_tree", args); res.Err != nil || res.IsError != (scene == "res://broken.tscn") {
				t.Fatalf("get_scene_tree %s: %s %v", scene, res.Text(), res.Err)
			}
			whole = time.Since(start)
		}
		// Cancel a third of the way in; on a machine busy enough that the
		// call outran its timer, try again earlier.
		before := len(cancelledLines())
		var res *sdktest.Result
		for attempt := range 5 {
			ctx, cancel := context.WithCancel(t.Context())
			time.AfterFunc(whole/time.Duration(3<<attempt), cancel)
			res = h.Call(ctx, "get_scene_tree", args)
			cancel()
			if res.Err != nil {
				break
			}
		}
		if res.Err == nil {
			t.Fatalf("%s: every call finished before it was cancelled (%.80s); the scene is too small for this machine", scene, res.Text())
		}
		// The plugin logs how each cancelled call ended.
		var lines []string
		deadline := time.Now().Add(60 * time.Second)
		for lines = cancelledLines(); len(lines) <= before && time.Now().Before(deadline); lines = cancelledLines() {
			time.Sleep(20 * time.Millisecond)
		}
		if len(lines) <= before || !strings.Contains(lines[len(lines)-1], "code="+sdk.CodeCancelled) {
			t.Fatalf("%s: the toolset ran the cancelled call on instead of stopping: %q", scene, lines)
		}
	}
	if out := h.Call(t.Context(), "get_scene_tree", obj{"scene": "res://sub.tscn"}); out.IsError || out.Err != nil {
		t.Fatalf("get_scene_tree after cancelled calls: %s %v", out.Text(), out.Err)
	}
}

// The answer's loops (breadth-first build, node count) stop on a
// cancelled context with CANCELLED, whatever the tree.
func TestTreeLoopsStopWhenCancelled(t *testing.T) {
	root := &node{name: "Root", typ: "Node", path: "."}
	for i := range 1000 {
		root.children = append(root.children, &node{name: fmt.Sprint("N", i), typ: "Node", path: fmt.Sprint("N", i)})
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := boundTree(ctx, root, fileTree{}, -1, 5000, maxTreeBytes)
	var e *sdk.Error
	if !errors.As(err, &e) || e.Code != sdk.CodeCancelled {
		t.Errorf("boundTree: %v, want CANCELLED", err)
	}
	if _, err := countTree(ctx, root, fileTree{}); !errors.As(err, &e) || e.Code != sdk.CodeCancelled {
		t.Errorf("countTree: %v, want CANCELLED", err)
	}
}
