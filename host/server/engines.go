package server

import (
	"context"
	"strconv"
	"strings"

	"github.com/godot-mcp/godot-mcp/internal/engines"
	"github.com/godot-mcp/godot-mcp/internal/godotrun"
)

// engineFinder caches `godot --version` per binary for the life of the
// host, as the runtime toolset's finder does in its plugin.
var engineFinder = &godotrun.Finder{}

// enginesInfo is the "engines" entry of godot_get_server_info: which
// engine runs the project's game (a native Godot binary, else the
// embedded web runtime for a Godot 4 project), their versions and what
// the web runtime cannot do. Paths are shown to callers who see the
// host's details only.
func (s *Server) enginesInfo(ctx context.Context, view diagView) engines.Info {
	godot, _ := s.opts.Gate.GodotVersion()
	major, _ := strconv.Atoi(strings.SplitN(godot, ".", 2)[0])
	in := engines.Describe(ctx, engineFinder, major)
	if !view.full {
		in.Native.Path = ""
		in.Native.Why, in.Native.Hint = view.scrub(in.Native.Why), view.scrub(in.Native.Hint)
		in.Web.Why, in.Web.Hint = view.scrub(in.Web.Why), view.scrub(in.Web.Hint)
	}
	return in
}
