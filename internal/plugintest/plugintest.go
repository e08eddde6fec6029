// Package plugintest holds the call wrappers and project set-up that the
// first-party toolset tests share, so each plugin's tests say only what
// they check:
//
//	dir := plugintest.Project(t, map[string]string{"project.godot": "config_version=5\n"})
//	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
//	out := plugintest.Call(t, h, "read_scene", map[string]any{"path": "res://main.tscn"})
//	plugintest.Refused(t, h, "read_scene", map[string]any{"path": "res://no.tscn"}, sdk.CodeNotFound, "no.tscn")
//
// Every call passes sdktest.ConfirmDestructive: these helpers serve tests
// that are not about the confirm rule (that one is tested with h.Call).
// Third-party toolset authors use sdk/sdktest directly; this package is
// ours and may change with our tests.
package plugintest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// Must calls a tool and fails the test unless it succeeds.
func Must(t testing.TB, h *sdktest.Host, tool string, args any, opts ...sdktest.CallOption) *sdktest.Result {
	t.Helper()
	res := h.Call(context.Background(), tool, args, append(opts, sdktest.ConfirmDestructive())...)
	if res.Err != nil || res.IsError {
		t.Fatalf("%s(%v): %v %s", tool, args, res.Err, res.Text())
	}
	return res
}

// CallAs calls a tool, fails the test unless it succeeds, and returns its
// structured result decoded into T.
func CallAs[T any](t testing.TB, h *sdktest.Host, tool string, args any, opts ...sdktest.CallOption) T {
	t.Helper()
	res := Must(t, h, tool, args, opts...)
	var out T
	if err := res.Structured(&out); err != nil {
		t.Fatalf("%s: structured result: %v", tool, err)
	}
	return out
}

// Call is CallAs for a result read as a JSON object.
func Call(t testing.TB, h *sdktest.Host, tool string, args any, opts ...sdktest.CallOption) map[string]any {
	t.Helper()
	return CallAs[map[string]any](t, h, tool, args, opts...)
}

// CallErr calls a tool that must fail and returns the error text.
func CallErr(t testing.TB, h *sdktest.Host, tool string, args any) string {
	t.Helper()
	res := h.Call(context.Background(), tool, args, sdktest.ConfirmDestructive())
	if !res.IsError {
		t.Fatalf("%s succeeded, want an error", tool)
	}
	return res.Text()
}

// Refused calls a tool that must fail with code, a text containing text,
// and a hint; it reports a mismatch with t.Errorf and returns the result.
func Refused(t testing.TB, h *sdktest.Host, tool string, args any, code, text string) *sdktest.Result {
	t.Helper()
	res := h.Call(context.Background(), tool, args, sdktest.ConfirmDestructive())
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if res.ErrorCode != code || !strings.Contains(res.Text(), text) || !strings.Contains(res.Text(), "Hint:") {
		t.Errorf("%s(%v): got %s %q, want %s containing %q and a hint", tool, args, res.ErrorCode, res.Text(), code, text)
	}
	return res
}

// WriteFile writes content to a project file, creating its folders. path
// is relative to dir, with or without "res://".
func WriteFile(t testing.TB, dir, path, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(path, "res://")))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Project writes files (path → content, as for WriteFile) into a new
// temporary directory and returns it.
func Project(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for path, content := range files {
		WriteFile(t, dir, path, content)
	}
	return dir
}

// SameParams reports whether two editor command parameter maps hold the
// same keys with equal scalar values (what sdktest.Editor.Calls records).
func SameParams(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
