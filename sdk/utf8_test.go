package sdk_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// A handler's strings are not always valid UTF-8 (a user's file name in
// another encoding), and protobuf refuses to marshal such strings. The
// result still arrives, with U+FFFD for the bad bytes, instead of failing
// as an RPC error that blames the toolset.
func TestInvalidUTF8ReachesTheCaller(t *testing.T) {
	type in struct {
		Fail bool `json:"fail,omitempty" jsonschema:"fail"`
	}
	h := sdktest.New(t, toolset(func(_ context.Context, _ *sdk.Call, a in) (sdk.Result, error) {
		if a.Fail {
			return sdk.Result{}, &sdk.Error{Code: sdk.CodeNotFound, Message: "no file caf\xe9.gd", Hint: "list caf\xe9/ first"}
		}
		return sdk.Text("found caf\xe9.gd"), nil
	}), sdktest.Options{})
	res := h.Call(context.Background(), "t", map[string]any{})
	if res.Err != nil || res.IsError || res.Text() != "found caf\uFFFD.gd" {
		t.Errorf("text result: err %v, isError %v, text %q", res.Err, res.IsError, res.Text())
	}
	res = h.Call(context.Background(), "t", map[string]any{"fail": true})
	if res.Err != nil || !res.IsError || res.Error == nil || res.Error.Message != "no file caf\uFFFD.gd" ||
		!strings.HasPrefix(res.Text(), "NOT_FOUND: no file caf\uFFFD.gd\nHint: list caf\uFFFD/ first") {
		t.Errorf("error result: err %v, error %+v, text %q", res.Err, res.Error, res.Text())
	}
}

// A project file whose name is not valid UTF-8 used to fail the whole
// listing (protobuf refuses the string), so every tool that lists the
// project failed with it. It is now listed in its escaped form with a
// warning, and that form names the file for Stat, Read and commits.
func TestInvalidUTF8FileNameIsListedAndUsable(t *testing.T) {
	dir := t.TempDir()
	raw := "caf\xe9.tscn"
	if err := os.WriteFile(filepath.Join(dir, raw), []byte("old"), 0o644); err != nil {
		t.Skipf("this file system refuses a non-UTF-8 name: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.tscn"), []byte("main"), 0o644); err != nil {
		t.Fatal(err)
	}
	const wire = "res://caf\uFFFDe9.tscn"
	h := sdktest.New(t, toolset(func(ctx context.Context, call *sdk.Call, _ struct{}) (sdk.Result, error) {
		ws := call.Workspace()
		ents, err := ws.List(ctx, "res://")
		if err != nil {
			return sdk.Result{}, err
		}
		var got []string
		for _, e := range ents {
			got = append(got, e.Path)
			if e.Path == wire && !strings.Contains(e.Warning, "not valid UTF-8") {
				t.Errorf("entry %q has warning %q", e.Path, e.Warning)
			}
			if e.Path != wire && e.Warning != "" {
				t.Errorf("plain entry %q has warning %q", e.Path, e.Warning)
			}
		}
		if !slices.Equal(got, []string{wire, "res://main.tscn"}) {
			t.Errorf("listing = %q", got)
		}
		if fi, err := ws.Stat(ctx, wire); err != nil || !fi.Exists || fi.Path != wire || fi.Size != 3 {
			t.Errorf("Stat(%q) = %+v, %v", wire, fi, err)
		}
		f, err := ws.Read(ctx, wire)
		if err != nil {
			return sdk.Result{}, err
		}
		if string(f.Data) != "old" || f.Path != wire {
			t.Errorf("Read(%q) = %q at %q", wire, f.Data, f.Path)
		}
		// A handler that builds the raw name itself reaches the same file.
		if f2, err := ws.Read(ctx, "res://"+raw); err != nil || string(f2.Data) != "old" {
			t.Errorf("Read(raw) = %q, %v", f2.Data, err)
		}
		res, err := ws.Begin("edit").Write(wire, []byte("new"), f.Version).Commit(ctx)
		if err != nil {
			return sdk.Result{}, err
		}
		if len(res.Files) != 1 || res.Files[0].Path != wire {
			t.Errorf("commit files = %+v", res.Files)
		}
		return sdk.Text("ok"), nil
	}), sdktest.Options{ProjectDir: dir})
	if res := h.Call(context.Background(), "t", map[string]any{}); res.Err != nil || res.IsError {
		t.Fatalf("call: err %v, text %q", res.Err, res.Text())
	}
	if b, err := os.ReadFile(filepath.Join(dir, raw)); err != nil || string(b) != "new" {
		t.Errorf("the raw-named file holds %q (%v), want the commit's bytes", b, err)
	}
}

func TestPathWireFormRoundTrips(t *testing.T) {
	for _, tc := range []struct{ in, wire string }{
		{"res://main.tscn", "res://main.tscn"},
		{"res://caf\xe9.gd", "res://caf\uFFFDe9.gd"},
		{"res://\xff\xfe/x", "res://\uFFFDff\uFFFDfe/x"},
		{"res://lit\uFFFD.gd", "res://lit\uFFFDef\uFFFDbf\uFFFDbd.gd"},
		{"res://ünïcode.gd", "res://ünïcode.gd"},
		{"res://trunc\xe2\x82", "res://trunc\uFFFDe2\uFFFD82"},
	} {
		w := sdk.PathToWire(tc.in)
		if w != tc.wire || !utf8.ValidString(w) {
			t.Errorf("PathToWire(%q) = %q, want %q", tc.in, w, tc.wire)
		}
		if back := sdk.PathFromWire(w); back != tc.in {
			t.Errorf("PathFromWire(%q) = %q, want %q", w, back, tc.in)
		}
		if sdk.PathEscaped(w) != (w != tc.in) {
			t.Errorf("PathEscaped(%q) = %v", w, sdk.PathEscaped(w))
		}
	}
}

func FuzzPathWireForm(f *testing.F) {
	for _, s := range []string{"res://a", "caf\xe9", "\uFFFD", "\uFFFDzz", "\xef\xbf", "%e9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		w := sdk.PathToWire(s)
		if !utf8.ValidString(w) {
			t.Fatalf("PathToWire(%q) = %q is not valid UTF-8", s, w)
		}
		if back := sdk.PathFromWire(w); back != s {
			t.Fatalf("PathFromWire(PathToWire(%q)) = %q", s, back)
		}
	})
}

// Progress and log lines with bytes that are not UTF-8 arrive with U+FFFD
// instead of ending the call's stream or losing the line.
func TestInvalidUTF8ProgressAndLogs(t *testing.T) {
	h := sdktest.New(t, toolset(func(_ context.Context, call *sdk.Call, _ struct{}) (sdk.Result, error) {
		call.Progress(1, 2, "reading caf\xe9.gd")
		call.Logger().Info("read caf\xe9.gd", "file", "caf\xe9.gd")
		return sdk.Text("ok"), nil
	}), sdktest.Options{})
	res := h.Call(context.Background(), "t", map[string]any{})
	if res.Err != nil || res.IsError || res.Text() != "ok" {
		t.Fatalf("call: %v %s", res.Err, res.Text())
	}
	if len(res.Progress) != 1 || res.Progress[0].Message != "reading caf\uFFFD.gd" {
		t.Errorf("progress %+v", res.Progress)
	}
	var found bool
	for _, l := range h.Logs() {
		if strings.Contains(l.String(), "read caf\uFFFD.gd") && strings.Contains(l.String(), "file=caf\uFFFD.gd") {
			found = true
		}
	}
	if !found {
		t.Errorf("log line missing: %v", h.Logs())
	}
}
