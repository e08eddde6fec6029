package sdk_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// testProject builds a project directory with scenes/main.tscn, icon.svg,
// a link to scenes (inside) and a link to a directory outside the project.
// The project itself is reached through a symbolic link, so the root must
// come back resolved.
func testProject(t *testing.T) (linkedRoot, realRoot string) {
	t.Helper()
	base := t.TempDir()
	realRoot = filepath.Join(base, "game")
	outside := filepath.Join(base, "secrets")
	for _, d := range []string{filepath.Join(realRoot, "scenes"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(realRoot, "scenes", "main.tscn"), filepath.Join(realRoot, "icon.svg"), filepath.Join(outside, "key")} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	linkedRoot = filepath.Join(base, "link-to-game")
	for _, l := range [][2]string{
		{realRoot, linkedRoot},
		{outside, filepath.Join(realRoot, "escape")},
		{filepath.Join(realRoot, "scenes"), filepath.Join(realRoot, "levels")},
	} {
		if err := os.Symlink(l[0], l[1]); err != nil {
			t.Skipf("symlinks unavailable: %v", err)
		}
	}
	// EvalSymlinks: TempDir itself may sit behind a link (macOS /var).
	realRoot, err := filepath.EvalSymlinks(realRoot)
	if err != nil {
		t.Fatal(err)
	}
	return linkedRoot, realRoot
}

func TestProjectResolve(t *testing.T) {
	dir, root := testProject(t)
	call := &sdk.Call{Env: sdk.Env{ProjectDir: dir}}
	p, err := call.Project()
	if err != nil {
		t.Fatal(err)
	}
	if p.Root() != root {
		t.Fatalf("Root() = %q, want %q", p.Root(), root)
	}
	if again, _ := call.Project(); again != p {
		t.Errorf("second Project() opened the project again")
	}

	tests := []struct {
		arg  string
		want string // path under root when the call succeeds
		code string // error code when it fails
		msg  string // part of the error message
	}{
		{arg: "", want: "."},
		{arg: "res://", want: "."},
		{arg: ".", want: "."},
		{arg: "res://scenes", want: "scenes"},
		{arg: "scenes/", want: "scenes"},
		{arg: "res://scenes/main.tscn", want: "scenes/main.tscn"},
		{arg: "res://levels/main.tscn", want: "scenes/main.tscn"}, // link inside: resolved
		{arg: "res://scenes/../icon.svg", want: "icon.svg"},
		{arg: "../secrets", code: sdk.CodeInvalidArgument, msg: `path "../secrets" leaves the project`},
		{arg: "res://scenes/../../secrets", code: sdk.CodeInvalidArgument, msg: "leaves the project"},
		{arg: "res://..", code: sdk.CodeInvalidArgument, msg: "leaves the project"},
		{arg: "/etc", code: sdk.CodeInvalidArgument, msg: "leaves the project"},
		{arg: "res:///etc", code: sdk.CodeInvalidArgument, msg: "leaves the project"},
		{arg: "user://saves", code: sdk.CodeInvalidArgument, msg: `path "user://saves" is not a res:// path`},
		{arg: "res://escape", code: sdk.CodeInvalidArgument, msg: "leads out of the project through a symbolic link"},
		{arg: "res://escape/key", code: sdk.CodeInvalidArgument, msg: "symbolic link"},
		{arg: "res://nope", code: sdk.CodeNotFound, msg: `path "res://nope" does not exist`},
	}
	for _, tt := range tests {
		t.Run(tt.arg, func(t *testing.T) {
			got, err := p.Resolve(tt.arg)
			if tt.code == "" {
				if err != nil {
					t.Fatalf("Resolve(%q): %v", tt.arg, err)
				}
				if want := filepath.Join(root, filepath.FromSlash(tt.want)); got != want {
					t.Errorf("Resolve(%q) = %q, want %q", tt.arg, got, want)
				}
				return
			}
			var e *sdk.Error
			if !errors.As(err, &e) {
				t.Fatalf("Resolve(%q) = %q, %v; want an *sdk.Error", tt.arg, got, err)
			}
			if e.Code != tt.code || !strings.Contains(e.Message, tt.msg) || e.Hint == "" {
				t.Errorf("Resolve(%q): %s; want code %s, message containing %q and a hint", tt.arg, e, tt.code, tt.msg)
			}
			if tt.code == sdk.CodeInvalidArgument && !strings.Contains(e.Hint, "res:// path inside") {
				t.Errorf("hint %q does not point at res:// paths", e.Hint)
			}
		})
	}
}

func TestProjectResPathContains(t *testing.T) {
	dir, root := testProject(t)
	p, err := (&sdk.Call{Env: sdk.Env{ProjectDir: dir}}).Project()
	if err != nil {
		t.Fatal(err)
	}
	for abs, want := range map[string]string{
		root:                                  "res://",
		filepath.Join(root, "icon.svg"):       "res://icon.svg",
		filepath.Join(root, "scenes", "main"): "res://scenes/main",
	} {
		if got := p.ResPath(abs); got != want {
			t.Errorf("ResPath(%q) = %q, want %q", abs, got, want)
		}
	}
	for path, want := range map[string]bool{
		root:                            true,
		filepath.Join(root, "scenes"):   true,
		root + "-other":                 false, // a sibling sharing the prefix
		filepath.Dir(root):              false,
		filepath.Join(root, "..", "x"):  false,
		filepath.Join(root, "icon.svg"): true,
	} {
		if got := p.Contains(path); got != want {
			t.Errorf("Contains(%q) = %v, want %v", path, got, want)
		}
	}
}

func TestProjectMissing(t *testing.T) {
	for name, call := range map[string]*sdk.Call{
		"no project": {},
		"nil call":   nil,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := call.Project()
			var e *sdk.Error
			if !errors.As(err, &e) || e.Code != sdk.CodePreconditionFailed || e.Required != "project_dir" || e.Hint == "" {
				t.Fatalf("got %v", err)
			}
		})
	}
	t.Run("inaccessible", func(t *testing.T) {
		call := &sdk.Call{Env: sdk.Env{ProjectDir: filepath.Join(t.TempDir(), "gone")}}
		_, err := call.Project()
		var e *sdk.Error
		if !errors.As(err, &e) || e.Code != sdk.CodePreconditionFailed || e.Hint == "" {
			t.Fatalf("got %v", err)
		}
	})
}
