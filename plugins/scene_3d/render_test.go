package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/png"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
)

// render has the Godot 4.6 web runtime show scene of the project dir
// (scripts off, as godot_runtime_render_scene does) and returns the
// picture.
func render(t *testing.T, dir, scene string, width int) image.Image {
	t.Helper()
	r := enginecheck.Runner(t)
	files, err := webgodot.RenderFiles(dir, scene)
	if err != nil {
		t.Fatal(err)
	}
	pck, err := webgodot.BuildPCK(webgodot.RuntimeVersion, files)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := r.StartGame(ctx, pck, webgodot.GameOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	var shot struct {
		Width, Height int
		Base64        string
	}
	if err := s.Call(ctx, "capture", map[string]any{"width": width}, &shot); err != nil {
		t.Fatal(err)
	}
	b, err := base64.StdEncoding.DecodeString(shot.Base64)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func rgb(img image.Image, x, y int) (r, g, b int) {
	cr, cg, cb, _ := img.At(x, y).RGBA()
	return int(cr >> 8), int(cg >> 8), int(cb >> 8)
}
