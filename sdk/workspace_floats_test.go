package sdk_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// Workspace.ParseFile sets up a scene so that edits spell floats as the
// project's Godot version does: the host's version first, else
// config/features of project.godot, else the current spelling.
func TestWorkspaceParseFileFloatStyle(t *testing.T) {
	for _, tt := range []struct {
		name, project, hostVersion, want string
	}{
		{"features 4.2", `config_version=5

[application]

config/features=PackedStringArray("4.2", "Forward Plus")
`, "", "1e+07"},
		{"features 4.7", "config_version=5\n\n[application]\n\nconfig/features=PackedStringArray(\"4.7\")\n", "", "10000000.0"},
		{"host version wins", "config_version=5\n\n[application]\n\nconfig/features=PackedStringArray(\"4.2\")\n", "4.6", "10000000.0"},
		{"Godot 3 project", "config_version=4\n\n[application]\n\nconfig/name=\"old\"\n", "", "1e+07"},
		{"no version", "config_version=5\n", "", "10000000.0"},
		{"no project.godot", "", "", "10000000.0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.project != "" {
				if err := os.WriteFile(filepath.Join(dir, "project.godot"), []byte(tt.project), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(dir, "a.tscn"), []byte("[gd_scene format=3]\n\n[node name=\"A\" type=\"Node2D\"]\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			h := sdktest.New(t, toolset(func(ctx context.Context, call *sdk.Call, _ noArgs) (sdk.Result, error) {
				ws := call.Workspace()
				f, err := ws.Read(ctx, "res://a.tscn")
				if err != nil {
					return sdk.Result{}, err
				}
				doc, err := ws.ParseFile(ctx, f)
				if err != nil {
					return sdk.Result{}, err
				}
				doc.Root().Set("rotation", godot.Float(1e7))
				if _, err := ws.Begin("edit").Write(f.Path, doc.Bytes(), f.Version).Commit(ctx); err != nil {
					return sdk.Result{}, err
				}
				return sdk.Text("%s", doc.FormatValue(godot.Float(1e7))), nil
			}), sdktest.Options{ProjectDir: dir, GodotVersion: tt.hostVersion})
			res := h.Call(context.Background(), "t", nil)
			if res.Err != nil || res.IsError {
				t.Fatalf("call failed: %v %s", res.Err, res.Text())
			}
			if res.Text() != tt.want {
				t.Errorf("FormatValue = %s, want %s", res.Text(), tt.want)
			}
			data, _ := os.ReadFile(filepath.Join(dir, "a.tscn"))
			if want := "rotation = " + tt.want + "\n"; string(data[len(data)-len(want):]) != want {
				t.Errorf("file:\n%s\nwant it to end with %q", data, want)
			}
		})
	}
}
