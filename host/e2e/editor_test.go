package e2e

import (
	"bytes"
	"encoding/base64"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/internal/fakeaddon"
	"github.com/godot-mcp/godot-mcp/internal/projfixture"
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
