//go:build unix

package main

import (
	"path/filepath"
	"strings"

	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// A named pipe where a UID sidecar or a scene's header is read (x.gd.uid,
// y.png.import, a .tscn) leaves the file without a UID instead of
// hanging the call: uidOf opened them without checking their type, and
// opening a FIFO waits for a writer.
func TestUIDsSurviveNamedPipes(t *testing.T) {
	dir := plugintest.Project(t, map[string]string{
		"project.godot": "config_version=5\n",
		"x.gd":          "extends Node\n",
		"y.png":         "png",
	})
	var fifos []string
	for _, name := range []string{"x.gd.uid", "y.png.import", "z.tscn"} {
		fifos = append(fifos, plugintest.Mkfifo(t, filepath.Join(dir, name)))
	}
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	call := func(tool string, args map[string]any, opts ...sdktest.CallOption) *sdktest.Result {
		t.Helper()
		return plugintest.CallWithin(t, h, fifos, tool, args, opts...)
	}
	for _, res := range []string{"res://x.gd", "res://y.png", "res://z.tscn"} {
		if r := call("path_to_uid", map[string]any{"path": res}); r.ErrorCode != sdk.CodeNotFound || !strings.Contains(r.Text(), "has no UID") {
			t.Errorf("path_to_uid %s: %s, want NOT_FOUND: no UID", res, r.Text())
		}
	}
	// Deleting reads the file's UID first, then every file referring to
	// it; the workspace then refuses to touch the pipe beside it.
	call("delete_resource_file", map[string]any{"path": "res://x.gd"}, sdktest.DryRun())
	call("resolve_uid", map[string]any{"uid": "uid://b2q6g7w3xk1ym"})
}
