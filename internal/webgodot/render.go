package webgodot

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"regexp"
)

//go:embed render.gd
var renderScript []byte

// Where RenderFiles puts the renderer, next to the probe.
const (
	renderScene      = ".godot/godot-mcp/render.tscn"
	renderScriptPath = ".godot/godot-mcp/render.gd"
	renderConfig     = ".godot/godot-mcp/render.json"
)

// RenderFiles returns the files of a pack that shows scene (a res://
// path) without running its scripts, for StartGame and a "capture" call:
// the project's files and the probe as in ReadGameFiles, a main scene
// that instantiates scene with every script taken off, and the project's
// autoloads commented out of project.godot (they are scripts too; line
// numbers are kept).
func RenderFiles(dir, scene string) ([]PackFile, error) {
	files, err := ReadGameFiles(dir, "res://"+renderScene)
	if err != nil {
		return nil, err
	}
	for i, f := range files {
		if f.Path == "project.godot" {
			files[i].Data = WithoutAutoloads(f.Data)
		}
	}
	cfg, _ := json.Marshal(map[string]string{"scene": scene})
	tscn := "[gd_scene load_steps=2 format=3]\n\n[ext_resource type=\"Script\" path=\"res://" + renderScriptPath + "\" id=\"1\"]\n\n" +
		"[node name=\"GodotMcpRender\" type=\"Node\"]\nscript = ExtResource(\"1\")\n"
	return append(files,
		PackFile{Path: renderScriptPath, Data: renderScript},
		PackFile{Path: renderScene, Data: []byte(tscn)},
		PackFile{Path: renderConfig, Data: cfg}), nil
}

// sectionRe matches a named section header; an empty "[]" opens none.
var sectionRe = regexp.MustCompile(`^\s*\[([^\]]+)\]`)

// WithoutAutoloads blanks the [autoload] section of project.godot: a
// render or a load check must not run the project's singletons, and an
// override cannot remove them. Lines are commented out, not removed, so
// line numbers in engine errors still match the user's file.
func WithoutAutoloads(src []byte) []byte {
	lines := bytes.SplitAfter(src, []byte("\n"))
	in := false
	for i, l := range lines {
		if m := sectionRe.FindSubmatch(l); m != nil {
			in = string(m[1]) == "autoload"
		}
		if in && len(bytes.TrimSpace(l)) > 0 {
			lines[i] = append([]byte("; "), l...)
		}
	}
	return bytes.Join(lines, nil)
}
