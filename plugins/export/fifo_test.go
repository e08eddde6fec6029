//go:build unix

package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/godotrun/godottest"
	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// A named pipe planted as export_presets.cfg is refused at once, naming
// what it is, by every tool that reads the presets: opening a FIFO waits
// for a writer, so the presets used to hang list_presets, get_info and
// project for good.
func TestPresetsAsANamedPipeAreRefused(t *testing.T) {
	dir := godottest.Godot3Project(t, "extends Node\n", nil)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "3"})
	fifo := plugintest.Mkfifo(t, filepath.Join(dir, presetsFile))

	for _, tool := range []string{"list_presets", "get_info"} {
		res := plugintest.CallWithin(t, h, []string{fifo}, tool, map[string]any{})
		if res.ErrorCode != sdk.CodePreconditionFailed || !strings.Contains(res.Text(), "named pipe") || !strings.Contains(res.Text(), "Hint:") {
			t.Errorf("%s with a FIFO as export_presets.cfg: %s, want PRECONDITION_FAILED naming the pipe, with a hint", tool, res.Text())
		}
	}
}
