package main

import (
	"context"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// keptCounts returns how many kept scenes were taken without asking the
// host and how many calls ran again, since the last call.
func keptCounts() func() (taken, reruns int64) {
	t0, r0 := keptStats.taken.Load(), keptStats.reruns.Load()
	return func() (int64, int64) { return keptStats.taken.Load() - t0, keptStats.reruns.Load() - r0 }
}

// A scene changed on disk behind the plugin's back (the user's editor, a
// script) between two edits: the second edit starts from the kept File,
// the host refuses its commit, and the call runs again on the new bytes,
// so the result holds both changes and nothing of the stale File.
func TestKeptSceneChangedOnDisk(t *testing.T) {
	dir, h := openPong(t)
	plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Left", "property": "position", "value": []any{1, 2}})
	// Outside the workspace: another tool renames a node in the file.
	edited := strings.Replace(read(t, dir, pong), `[node name="Right"`, `[node name="RightPaddle"`, 1)
	plugintest.WriteFile(t, dir, pong, edited)

	count := keptCounts()
	plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Left", "property": "position", "value": []any{5, 6}})
	if taken, reruns := count(); taken != 1 || reruns != 1 {
		t.Fatalf("kept taken %d, reruns %d; want the kept File tried and the call run again", taken, reruns)
	}
	got := read(t, dir, pong)
	if !strings.Contains(got, `[node name="RightPaddle"`) || !strings.Contains(got, "position = Vector2(5, 6)") {
		t.Fatalf("the edit lost the change on disk or was not made:\n%s", got)
	}
	if want := strings.Replace(edited, "position = Vector2(1, 2)", "position = Vector2(5, 6)", 1); got != want {
		t.Fatalf("wrote\n%s\nwant the disk's bytes with one line changed\n%s", got, want)
	}
	// One undo step restores exactly the bytes the other tool wrote.
	undo(t, h)
	if read(t, dir, pong) != edited {
		t.Fatal("undo did not restore the bytes written behind the plugin's back")
	}

	// After that undo the kept File is stale again; a node that exists
	// only on disk is found, not refused from the kept tree.
	plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "RightPaddle", "property": "position", "value": []any{7, 8}})
	if !strings.Contains(read(t, dir, pong), "position = Vector2(7, 8)") {
		t.Fatal("edit of a node that only the disk has was not made")
	}
}

// An edit that changes nothing in the kept File (the value it sets is the
// one kept) must still be checked against the disk: there the value may
// differ, and then the edit writes it.
func TestKeptSceneNoOpIsChecked(t *testing.T) {
	dir, h := openPong(t)
	set := map[string]any{"node_path": "Left", "property": "position", "value": []any{1, 2}}
	plugintest.Call(t, h, "set_node_property", set)
	plugintest.WriteFile(t, dir, pong, strings.Replace(read(t, dir, pong), "position = Vector2(1, 2)", "position = Vector2(9, 9)", 1))
	count := keptCounts()
	plugintest.Call(t, h, "set_node_property", set)
	if _, reruns := count(); reruns != 1 {
		t.Fatalf("reruns %d, want 1", reruns)
	}
	if got := read(t, dir, pong); !strings.Contains(got, "position = Vector2(1, 2)") {
		t.Fatalf("the value on disk was not set back:\n%s", got)
	}
	// A no-op that really is one: nothing written, no undo step.
	depth := h.Workspace().History().Depth
	count = keptCounts()
	plugintest.Call(t, h, "set_node_property", set)
	if taken, reruns := count(); taken != 1 || reruns != 0 {
		t.Fatalf("kept taken %d, reruns %d", taken, reruns)
	}
	if h.Workspace().History().Depth != depth {
		t.Fatal("a no-op made an undo step")
	}
}

// The active scene switched by another toolset or process between two
// calls: an edit without a scene argument goes to the scene active now,
// never to the kept one.
func TestKeptSceneActiveSwitched(t *testing.T) {
	dir := fixture(t, "2d-pong")
	h := headless(t, dir)
	plugintest.Call(t, h, "create_scene", map[string]any{"scene_path": "res://other.tscn", "root_type": "Node2D"})
	plugintest.Call(t, h, "open_scene", map[string]any{"scene_path": pong})
	plugintest.Call(t, h, "create_node", map[string]any{"node_type": "Node2D", "node_name": "First"})
	pongBytes := read(t, dir, pong)
	// Not through this plugin: the host's workspace itself.
	if _, err := h.Workspace().SetActiveScene(context.Background(), "res://other.tscn"); err != nil {
		t.Fatal(err)
	}
	count := keptCounts()
	out := plugintest.Call(t, h, "create_node", map[string]any{"node_type": "Node2D", "node_name": "Second"})
	if taken, reruns := count(); taken != 1 || reruns != 1 {
		t.Fatalf("kept taken %d, reruns %d", taken, reruns)
	}
	if out["scene_path"] != "res://other.tscn" || !strings.Contains(read(t, dir, "res://other.tscn"), `[node name="Second"`) {
		t.Fatalf("created in %v:\n%s", out["scene_path"], read(t, dir, "res://other.tscn"))
	}
	if read(t, dir, pong) != pongBytes {
		t.Fatal("the scene that is no longer active was written")
	}
	// A dry run on a kept scene is checked by the host and writes nothing.
	plugintest.Call(t, h, "create_node", map[string]any{"node_type": "Node2D", "node_name": "Third"})
	before := read(t, dir, "res://other.tscn")
	out = plugintest.Call(t, h, "create_node", map[string]any{"node_type": "Node2D", "node_name": "Dry"}, sdktest.DryRun())
	if out["dry_run"] != true || read(t, dir, "res://other.tscn") != before {
		t.Fatal("dry run wrote")
	}
	plugintest.Call(t, h, "create_node", map[string]any{"node_type": "Node2D", "node_name": "Fourth"})
	if got := read(t, dir, "res://other.tscn"); strings.Contains(got, `"Dry"`) || !strings.Contains(got, `[node name="Fourth"`) {
		t.Fatalf("the dry run's node leaked into a later edit:\n%s", got)
	}
}

// A refusal computed from a kept File is confirmed before it is returned.
func TestKeptSceneRefusalIsChecked(t *testing.T) {
	dir, h := openPong(t)
	plugintest.Call(t, h, "create_node", map[string]any{"node_type": "Node2D", "node_name": "Kept"})
	// Still true on disk: the refusal stands, after one confirmation.
	count := keptCounts()
	refused(t, h, "delete_node", map[string]any{"node_path": "Missing"}, "NOT_FOUND")
	if taken, reruns := count(); taken != 1 || reruns != 0 {
		t.Fatalf("kept taken %d, reruns %d", taken, reruns)
	}
	plugintest.Call(t, h, "create_node", map[string]any{"node_type": "Node2D", "node_name": "Kept2"})
	// The node appears on disk behind the plugin's back.
	plugintest.WriteFile(t, dir, pong, read(t, dir, pong)+"\n[node name=\"Missing\" type=\"Node2D\" parent=\".\"]\n")
	count = keptCounts()
	plugintest.Call(t, h, "delete_node", map[string]any{"node_path": "Missing"})
	if _, reruns := count(); reruns != 1 {
		t.Fatalf("reruns %d, want 1", reruns)
	}
	if strings.Contains(read(t, dir, pong), `"Missing"`) {
		t.Fatal("node not deleted")
	}
}

// A call that only reads the scene leaves it kept: the edit after it starts
// from the parsed File without reading the file again, and writes what a
// fresh read would.
func TestReadOnlyCallKeepsScene(t *testing.T) {
	for _, r := range []struct {
		tool string
		args map[string]any
	}{
		{"list_signal_connections", map[string]any{"node_path": "Left"}},
		{"select_nodes", map[string]any{"node_paths": []string{"Left"}}},
		{"save_scene", nil},
		{"reload_scene", map[string]any{"scene_path": pong}},
	} {
		t.Run(r.tool, func(t *testing.T) {
			dropCached() // what the previous project's calls kept (same res:// path)
			dir, h := openPong(t)
			plugintest.Call(t, h, r.tool, r.args)
			count := keptCounts()
			plugintest.Call(t, h, "set_node_property", map[string]any{"node_path": "Left", "property": "position", "value": []any{5, 6}})
			if taken, reruns := count(); taken != 1 || reruns != 0 {
				t.Fatalf("kept taken %d, reruns %d; want the scene %s read taken", taken, reruns, r.tool)
			}
			if !strings.Contains(read(t, dir, pong), "position = Vector2(5, 6)") {
				t.Fatal("the edit was not written")
			}
		})
	}
}
