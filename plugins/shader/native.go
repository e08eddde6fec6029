package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
)

// finder finds a native Godot 4 binary the way the runtime toolset does
// (GODOT_MCP_GODOT_BIN, else godot, godot4 … on PATH); a found one
// compiles instead of the web runtime. It runs once per validation (no
// warm process), with the same handler script.
var finder = &godotrun.Finder{}

// nativeRunner is the script a native run executes: the warm engine's
// handler, given the request from a file.
const nativeRunner = `extends SceneTree

func _init() -> void:
	var h = load("res://handler.gd").new()
	h.handle(FileAccess.get_file_as_string("res://request.json"))
	h.free()
	quit()
`

// nativeCompile compiles with a native Godot 4 when one is found; ok is
// false when none is.
func nativeCompile(ctx context.Context, body string) (lines []webgodot.Line, name string, ok bool, err error) {
	bin, ferr := finder.Find(ctx, 4)
	if ferr != nil {
		return nil, "", false, nil
	}
	dir, err := os.MkdirTemp("", "godot-mcp-shader-")
	if err != nil {
		return nil, "", true, err
	}
	defer os.RemoveAll(dir)
	for name, data := range map[string]string{
		"project.godot": webgodot.MinimalProject(),
		"handler.gd":    compileHandler,
		"check.gd":      nativeRunner,
		"request.json":  body,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			return nil, "", true, err
		}
	}
	out, err := godotrun.Run(ctx, godotrun.Spec{Bin: bin, Args: []string{"--path", dir, "--script", "res://check.gd"}, Dir: dir, Timeout: time.Minute})
	if err != nil {
		return nil, "", true, err
	}
	for _, l := range strings.Split(out.Output, "\n") {
		s := webgodot.Stderr
		if strings.HasPrefix(l, "@@") {
			s = webgodot.Stdout
		}
		lines = append(lines, webgodot.Line{Stream: s, Text: strings.TrimRight(l, "\r")})
	}
	return lines, "Godot " + bin.Version + " (native)", true, nil
}
