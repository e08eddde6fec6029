package e2e

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/fakeaddon"
	"github.com/godot-mcp/godot-mcp/internal/projfixture"
	"github.com/godot-mcp/godot-mcp/sdk"
)

func tinyPNG(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewNRGBA(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Through the real host: the operator's allow-list set in godot-mcp's
// environment reaches the plugin, an allowed file is imported with its
// .import file, anything else is refused with the way to allow it, and
// godot_undo takes the import back out.
func TestAssetImportThroughTheHost(t *testing.T) {
	dir := projfixture.Copy(t, "2d-platformer")
	allowed, elsewhere := t.TempDir(), t.TempDir()
	for _, p := range []string{filepath.Join(allowed, "coin.png"), filepath.Join(elsewhere, "coin.png")} {
		if err := os.WriteFile(p, tinyPNG(t), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := stdioHostEnv(t, legacy, []string{"GODOT_MCP_ASSET_IMPORT_FROM=" + allowed},
		"--project", dir, "--plugins-dir", projectPluginsDir, "--log-level", "warn")
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"asset_import"}}, nil)

	var out struct {
		Imported bool   `json:"imported"`
		UID      string `json:"uid"`
	}
	s.ok(t, "godot_asset_import_asset", map[string]any{"source": filepath.Join(allowed, "coin.png"), "target_path": "res://art/coin.png"}, &out)
	imp, err := os.ReadFile(filepath.Join(dir, "art", "coin.png.import"))
	if err != nil || !out.Imported || !strings.Contains(string(imp), `importer="texture"`) || !strings.Contains(string(imp), out.UID) {
		t.Fatalf("import %+v, .import %q (%v)", out, imp, err)
	}

	te := toolError(t, s.call(t, "godot_asset_import_asset", map[string]any{"source": filepath.Join(elsewhere, "coin.png"), "target_path": "res://art/other.png"}))
	if te.Code != sdk.CodePreconditionFailed || te.Required != "import_allowed" || !strings.Contains(te.Hint, "GODOT_MCP_ASSET_IMPORT_FROM") {
		t.Errorf("outside the allow-list: %+v", te)
	}

	var st struct {
		Counts map[string]int `json:"counts"`
	}
	s.ok(t, "godot_asset_import_get_status", map[string]any{"target_path": "res://art/coin.png"}, &st)
	if st.Counts["pending"] != 1 {
		t.Errorf("status %+v", st)
	}

	s.ok(t, "godot_undo", map[string]any{}, nil)
	for _, p := range []string{"coin.png", "coin.png.import"} {
		if _, err := os.Stat(filepath.Join(dir, "art", p)); err == nil {
			t.Errorf("art/%s is still there after godot_undo", p)
		}
	}
}

// Editor mode through the real bridge: the material is the addon's
// command and the flag it leaves out; the placeholder image is written to
// the files, and the editor is told to rescan (which imports it).
func TestAssetImportEditorMode(t *testing.T) {
	dir := projfixture.Copy(t, "2d-platformer")
	if err := os.WriteFile(filepath.Join(dir, "wall_normal.png"), tinyPNG(t), 0o644); err != nil {
		t.Fatal(err)
	}
	url := bridgeURL(t)
	s := stdioHostEnv(t, legacy, []string{"GODOT_MCP_BRIDGE_URL=" + url}, "--project", dir, "--plugins-dir", projectPluginsDir, "--log-level", "warn")
	ed := attachAddon(t, s, fakeaddon.Options{URL: url, ProjectPath: dir + "/", GodotVersion: "4.6.1-stable",
		Handlers: map[string]fakeaddon.Handler{
			"cmd_create_material_from_textures": func(p map[string]any) fakeaddon.Reply {
				return fakeaddon.OK(map[string]any{"material_path": p["path"], "created": true, "channels_set": []any{"normal"}})
			},
			"cmd_set_resource_property": func(p map[string]any) fakeaddon.Reply {
				return fakeaddon.OK(map[string]any{"resource_path": p["resource_path"], "property": p["property"]})
			},
			"cmd_list_open_scenes": func(map[string]any) fakeaddon.Reply {
				return fakeaddon.OK(map[string]any{"scenes": []any{}})
			},
			"cmd_rescan_filesystem": func(map[string]any) fakeaddon.Reply {
				return fakeaddon.OK(map[string]any{"scanned": true, "scanning": false})
			},
		}})
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"asset_import"}}, nil)

	s.ok(t, "godot_asset_import_create_material_from_textures", map[string]any{"normal": "res://wall_normal.png"}, nil)
	mat := ed.Calls("cmd_create_material_from_textures")
	if len(mat) != 1 || mat[0].Params["normal"] != "res://wall_normal.png" || mat[0].Params["path"] != "res://materials/wall.tres" || mat[0].Params["albedo"] != "" {
		t.Errorf("cmd_create_material_from_textures: %+v", mat)
	}
	set := ed.Calls("cmd_set_resource_property")
	if len(set) != 1 || set[0].Params["property"] != "normal_enabled" || set[0].Params["value"] != true || set[0].Params["resource_path"] != "res://materials/wall.tres" {
		t.Errorf("cmd_set_resource_property: %+v", set)
	}
	if _, err := os.Stat(filepath.Join(dir, "materials")); err == nil {
		t.Error("editor mode wrote the material itself")
	}

	before := len(ed.Calls("cmd_rescan_filesystem"))
	var img struct {
		Next string `json:"next"`
	}
	s.ok(t, "godot_asset_import_create_placeholder_image", map[string]any{"path": "res://art/dot.png", "shape": "circle"}, &img)
	if _, err := os.Stat(filepath.Join(dir, "art", "dot.png.import")); err != nil || !strings.Contains(img.Next, "attached editor") {
		t.Errorf("placeholder image: %+v (%v)", img, err)
	}
	if len(ed.Calls("cmd_rescan_filesystem")) == before {
		t.Error("the editor was not told to rescan the new image")
	}
}
