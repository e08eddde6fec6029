package e2e

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// asset_import's write_imported through the real host, headless, on a
// project no editor opened: the texture the editor's import would make
// lands in .godot/imported/ at the path the .import file names (the host's
// workspace lets that one folder of .godot/ be written), a dry run writes
// nothing, and godot_undo takes the asset, its .import file and the
// imported texture out again, leaving no .godot/ behind.
func TestAssetImportWritesTheImportedTextureThroughTheHost(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "project.godot"), []byte("config_version=5\n\n[application]\n\nconfig/name=\"Imports\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	src := image.NewNRGBA(image.Rect(0, 0, 4, 4))
	for i := range src.Pix {
		src.Pix[i] = 200
	}
	src.SetNRGBA(0, 0, color.NRGBA{})
	var b bytes.Buffer
	if err := png.Encode(&b, src); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "hero.png"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	s := stdioHostEnv(t, legacy, []string{"GODOT_MCP_ASSET_IMPORT_FROM=" + outside},
		"--project", dir, "--plugins-dir", projectPluginsDir, "--log-level", "warn")
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"asset_import"}}, nil)

	args := map[string]any{"source": filepath.Join(outside, "hero.png"), "target_path": "res://art/hero.png",
		"options": map[string]any{"write_imported": true}}
	var dry map[string]any
	s.ok(t, "godot_asset_import_asset", merge(args, map[string]any{"dry_run": true}), &dry)
	if _, err := os.Stat(filepath.Join(dir, ".godot")); !os.IsNotExist(err) {
		t.Fatalf("the dry run wrote .godot/ (%v)", err)
	}

	var out struct {
		ImportedFiles []string `json:"imported_files"`
	}
	s.ok(t, "godot_asset_import_asset", args, &out)
	if len(out.ImportedFiles) != 1 || !strings.HasPrefix(out.ImportedFiles[0], "res://.godot/imported/hero.png-") || !strings.HasSuffix(out.ImportedFiles[0], ".ctex") {
		t.Fatalf("imported_files %v", out.ImportedFiles)
	}
	ctex, err := os.ReadFile(filepath.Join(dir, strings.TrimPrefix(out.ImportedFiles[0], "res://")))
	if err != nil || !bytes.HasPrefix(ctex, []byte("GST2")) {
		t.Fatalf("the imported texture: %v %.8q", err, ctex)
	}
	imp, err := os.ReadFile(filepath.Join(dir, "art", "hero.png.import"))
	if err != nil || !strings.Contains(string(imp), `dest_files=["`+out.ImportedFiles[0]+`"]`) {
		t.Errorf("the .import file does not name the written texture: %v\n%s", err, imp)
	}

	var u map[string]any
	s.ok(t, "godot_undo", nil, &u)
	if u["undone"] != 1.0 {
		t.Errorf("undo = %v", u)
	}
	for _, p := range []string{"art", ".godot"} {
		if _, err := os.Stat(filepath.Join(dir, p)); !os.IsNotExist(err) {
			t.Errorf("undo left %s (%v)", p, err)
		}
	}
}

func merge(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}
