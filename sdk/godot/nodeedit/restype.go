package nodeedit

import (
	"context"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// ResourceType is the ext_resource type Godot records for a file, and its
// uid when the project has one for it (in the file itself, its .import or
// its .uid sidecar).
func ResourceType(ctx context.Context, call *sdk.Call, p string) (typ, uid string) {
	ws := call.Workspace()
	ext := strings.ToLower(p[strings.LastIndex(p, ".")+1:])
	sidecar := func(suffix string) string {
		f, err := ws.Read(ctx, p+suffix)
		if err != nil {
			return ""
		}
		if suffix == ".uid" {
			return strings.TrimSpace(string(f.Data))
		}
		c, err := godot.ParseConfig(p+suffix, f.Data)
		if err != nil {
			return ""
		}
		if v, ok := c.Get("remap", "uid"); ok {
			if s, ok := v.(godot.String); ok {
				return string(s)
			}
		}
		return ""
	}
	switch ext {
	case "tscn", "scn":
		typ = "PackedScene"
	case "gd", "cs":
		return "Script", sidecar(".uid")
	case "gdshader":
		return "Shader", sidecar(".uid")
	case "png", "jpg", "jpeg", "webp", "svg", "bmp", "tga", "exr", "hdr", "dds", "ktx":
		return "Texture2D", sidecar(".import")
	case "wav":
		return "AudioStreamWAV", sidecar(".import")
	case "ogg":
		return "AudioStreamOggVorbis", sidecar(".import")
	case "mp3":
		return "AudioStreamMP3", sidecar(".import")
	case "ttf", "otf", "woff", "woff2":
		return "FontFile", sidecar(".import")
	case "tres":
	default:
		return "", sidecar(".import")
	}
	f, err := ws.Read(ctx, p)
	if err != nil {
		return typ, ""
	}
	if rf, err := godot.ParseFile(p, f.Data); err == nil {
		if typ == "" {
			typ = rf.ResourceType()
		}
		return typ, rf.UID()
	}
	return typ, ""
}
