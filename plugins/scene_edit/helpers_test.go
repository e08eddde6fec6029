package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/projfixture"

	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
	"github.com/godot-mcp/godot-mcp/sdk/workspace"
)

// fixture copies a project of the shared Godot 4 corpus into a temporary
// directory.
func fixture(t testing.TB, name string) string { return projfixture.Copy(t, name) }

// headless starts the toolset on dir with the real workspace and an
// in-memory journal.
func headless(t testing.TB, dir string) *sdktest.Host {
	t.Helper()
	return sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, Workspace: workspace.Options{}})
}

// openPong starts the toolset headless on a copy of the 2d-pong project
// with its main scene (pong) open, where most tests begin.
func openPong(t testing.TB) (string, *sdktest.Host) {
	t.Helper()
	dir := fixture(t, "2d-pong")
	h := headless(t, dir)
	plugintest.Call(t, h, "open_scene", map[string]any{"scene_path": pong})
	return dir, h
}

// refused runs a tool that must fail with code, and returns the text.
func refused(t testing.TB, h *sdktest.Host, tool string, args any, code string) string {
	t.Helper()
	r := h.Call(context.Background(), tool, args, sdktest.ConfirmDestructive())
	if r.Err != nil {
		t.Fatalf("%s: %v", tool, r.Err)
	}
	if !r.IsError || r.ErrorCode != code {
		t.Fatalf("%s(%v): want %s, got error=%v %s", tool, args, code, r.IsError, r.Text())
	}
	return r.Text()
}

// undo reverts the last journaled action, as godot_undo does.
func undo(t testing.TB, h *sdktest.Host) {
	t.Helper()
	if _, err := h.Workspace().Undo(context.Background(), 1, false); err != nil {
		t.Fatal(err)
	}
}

func read(t testing.TB, dir, res string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, strings.TrimPrefix(res, "res://")))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// roundTrips is what `godot-mcp check --roundtrip` checks: the file parses
// and writing it back reproduces it byte for byte.
func roundTrips(t testing.TB, name, data string) {
	t.Helper()
	f, err := godot.ParseFile(name, []byte(data))
	if err != nil {
		t.Fatalf("%s does not parse: %v\n%s", name, err, data)
	}
	if got := f.Bytes(); !bytes.Equal(got, []byte(data)) {
		t.Fatalf("%s does not round-trip", name)
	}
}

// diffLines returns the lines of b that are not in a and those of a not
// in b: what an edit changed.
func diffLines(a, b string) (added, removed []string) {
	count := map[string]int{}
	for _, l := range strings.Split(a, "\n") {
		count[l]++
	}
	for _, l := range strings.Split(b, "\n") {
		if count[l] > 0 {
			count[l]--
		} else {
			added = append(added, l)
		}
	}
	for l, n := range count {
		for ; n > 0; n-- {
			removed = append(removed, l)
		}
	}
	return added, removed
}
