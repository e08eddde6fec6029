package engines

import (
	"context"
	"os/exec"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/godotrun"
	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
)

// noGodot is a Finder that finds no binary on PATH.
func noGodot() *godotrun.Finder {
	return &godotrun.Finder{LookPath: func(string) (string, error) { return "", exec.ErrNotFound }}
}

func TestDescribe(t *testing.T) {
	t.Setenv(godotrun.EnvBin, "")

	t.Run("neither engine", func(t *testing.T) {
		t.Setenv(webgodot.EnvRuntime, t.TempDir())
		in := Describe(context.Background(), noGodot(), 4)
		if in.Native.Available || in.Web.Available || in.RunsWith != "" || in.GameSessions != "" {
			t.Fatalf("%+v", in)
		}
		if in.Native.Why == "" || in.Native.Hint == "" || in.Web.Why == "" || in.Web.Hint == "" {
			t.Errorf("a missing engine must say why and how to fix it: %+v", in)
		}
	})

	t.Run("web runtime only", func(t *testing.T) {
		if _, err := webgodot.Locate(); err != nil {
			testenv.Missing(t, "the Godot web runtime (Chromium and the npm package "+webgodot.RuntimePackage+")", err.Error())
		}
		for _, c := range []struct {
			major          int
			runs, sessions string
		}{{4, Web, Web}, {3, "", ""}} {
			in := Describe(context.Background(), noGodot(), c.major)
			if !in.Web.Available || len(in.Web.Cannot) == 0 || in.RunsWith != c.runs || in.GameSessions != c.sessions {
				t.Errorf("Godot %d: %+v", c.major, in)
			}
		}
		// An explicit binary that cannot be used is never replaced by the web runtime.
		t.Setenv(godotrun.EnvBin, "/nonexistent/godot")
		if in := Describe(context.Background(), noGodot(), 4); in.RunsWith != "" || in.Native.Why == "" {
			t.Errorf("with a broken %s: %+v", godotrun.EnvBin, in)
		}
	})
}
