package e2e

import (
	"bytes"
	"encoding/base64"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/internal/fakeaddon"
	"github.com/godot-mcp/godot-mcp/internal/projfixture"
	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
)

// The editor toolset in editor mode through the real host and bridge:
// capture_screenshot polls cmd_capture_editor_screenshot until the addon
// hands over the PNG, which comes back as an MCP image; the headless-only
// arguments are refused without a command sent.
func TestEditorCaptureScreenshotEditorMode(t *testing.T) {
	dir := projfixture.Copy(t, "2d-platformer")
	shot := solidPNG(t, 12, 8, color.NRGBA{B: 220, A: 255})
	url := bridgeURL(t)
	s := stdioHostEnv(t, legacy, []string{"GODOT_MCP_BRIDGE_URL=" + url}, "--project", dir, "--plugins-dir", projectPluginsDir, "--log-level", "warn")
	polls := 0
	ed := attachAddon(t, s, fakeaddon.Options{URL: url, ProjectPath: dir + "/", GodotVersion: "4.6.1-stable",
		Handlers: map[string]fakeaddon.Handler{
			"cmd_capture_editor_screenshot": func(map[string]any) fakeaddon.Reply {
				polls++
				if polls == 1 {
					return fakeaddon.OK(map[string]any{"ready": false})
				}
				return fakeaddon.OK(map[string]any{"ready": true, "format": "png", "width": 12, "height": 8,
					"base64": base64.StdEncoding.EncodeToString(shot)})
			},
		}})
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"editor"}}, nil)

	res := s.call(t, "godot_editor_capture_screenshot", map[string]any{})
	if res.IsError {
		t.Fatalf("%+v", res.Content)
	}
	var img *mcp.ImageContent
	for _, c := range res.Content {
		if ic, ok := c.(*mcp.ImageContent); ok {
			img = ic
		}
	}
	if img == nil || img.MIMEType != "image/png" {
		t.Fatalf("no PNG image in %+v", res.Content)
	}
	decoded, err := png.Decode(bytes.NewReader(img.Data))
	if err != nil || decoded.Bounds().Dx() != 12 {
		t.Fatalf("image: %v %v", err, decoded)
	}
	if r, g, b, _ := decoded.At(6, 4).RGBA(); r != 0 || g != 0 || b>>8 != 220 {
		t.Errorf("pixel %d,%d,%d, want the addon's blue", r>>8, g>>8, b>>8)
	}
	calls := ed.Calls("cmd_capture_editor_screenshot")
	if len(calls) != 2 || len(calls[0].Params) != 0 {
		t.Errorf("commands %+v, want two polls of cmd_capture_editor_screenshot with no params", calls)
	}

	res = s.call(t, "godot_editor_capture_screenshot", map[string]any{"resource": "res://icon.svg"})
	text := ""
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text += tc.Text
		}
	}
	if !res.IsError || !strings.Contains(text, "PRECONDITION_FAILED") || !strings.Contains(text, "headless mode") {
		t.Errorf("resource in editor mode: %s", text)
	}
	if n := len(ed.Calls("cmd_capture_editor_screenshot")); n != 2 {
		t.Errorf("%d polls after a refused call, want still 2", n)
	}
}

// The editor toolset headless through the real host: the plugin process
// renders a StyleBox resource of a small project in the web runtime, and
// the agent gets the panel's colour in the middle of the picture.
func TestEditorCaptureScreenshotHeadless(t *testing.T) {
	if _, err := webgodot.Locate(); err != nil {
		testenv.Missing(t, "the Godot web runtime", err.Error())
	}
	dir := t.TempDir()
	files := map[string]string{
		"project.godot": "config_version=5\n\n[application]\n\nconfig/name=\"render\"\nconfig/features=PackedStringArray(\"4.6\")\n\n" +
			"[display]\n\nwindow/size/viewport_width=200\nwindow/size/viewport_height=100\n",
		"orange.tres": "[gd_resource type=\"StyleBoxFlat\" format=3]\n\n[resource]\nbg_color = Color(1, 0.5, 0, 1)\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := stdioHostEnv(t, sessionless, nil, "--plugins-dir", projectPluginsDir, "--project", dir, "--log-level", "warn")
	s.ok(t, "godot_enable_toolset", map[string]any{"toolsets": []string{"editor"}}, nil)
	res := s.call(t, "godot_editor_capture_screenshot", map[string]any{"resource": "res://orange.tres"})
	if res.IsError {
		t.Fatalf("%+v", res.Content)
	}
	for _, c := range res.Content {
		ic, ok := c.(*mcp.ImageContent)
		if !ok {
			continue
		}
		img, err := png.Decode(bytes.NewReader(ic.Data))
		if err != nil {
			t.Fatal(err)
		}
		if img.Bounds().Dx() != 200 || img.Bounds().Dy() != 100 {
			t.Errorf("picture %v, want the project's 200x100 window", img.Bounds())
		}
		r, g, b, _ := img.At(100, 50).RGBA()
		if r>>8 < 230 || g>>8 < 100 || g>>8 > 160 || b>>8 > 30 {
			t.Errorf("centre %d,%d,%d, want the style box's orange", r>>8, g>>8, b>>8)
		}
		if r, g, b, _ := img.At(2, 2).RGBA(); r>>8 > 200 && b>>8 < 30 {
			t.Errorf("corner %d,%d,%d is orange too, want the margin around the panel", r>>8, g>>8, b>>8)
		}
		return
	}
	t.Fatalf("no image in %+v", res.Content)
}
