package plugintest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/gamesession"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
)

// PlayGame starts the main scene of the project in dir in r, with the
// probe, at fixedFPS (0: the engine's own pace), and publishes the session
// as godot_runtime_play_scene does, so the input, profiling and testing
// tools find it. Both end with the test.
func PlayGame(t testing.TB, r *webgodot.Runner, dir string, fixedFPS int) (*webgodot.Session, *gamesession.Publication) {
	t.Helper()
	pck, err := webgodot.GamePack(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := r.StartGame(ctx, pck, webgodot.GameOptions{FixedFPS: fixedFPS})
	if err != nil {
		t.Fatal(err)
	}
	pub, err := gamesession.Publish(gamesession.Info{Project: dir, Scene: "res://main.tscn", FixedFPS: fixedFPS, Started: time.Now()},
		func(ctx context.Context, cmd string, params json.RawMessage) (json.RawMessage, error) {
			var out json.RawMessage
			err := s.Call(ctx, cmd, params, &out)
			return out, err
		})
	if err != nil {
		s.Stop()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		pub.Close()
		s.Stop()
	})
	return s, pub
}
