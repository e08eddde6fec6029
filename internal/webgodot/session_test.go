package webgodot

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// TestGameSession starts the test game (testdata/game) with its probe and
// checks the channel both ways: probe calls answer with live values, the
// engine's lines arrive numbered, a bad call is an error, and a stopped
// session refuses calls with the play_session token.
func TestGameSession(t *testing.T) {
	requireSetup(t)
	r := sharedRunner(t)
	pck, err := GamePack("testdata/game", "")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := r.StartGame(ctx, pck, GameOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()

	var read struct {
		Value struct{ X, Y float64 }
		Error string
	}
	if err := s.Call(ctx, "read_property", map[string]any{"node_path": "Player", "property": "position"}, &read); err != nil {
		t.Fatal(err)
	}
	if read.Error != "" || read.Value.Y != 120 || read.Value.X < 40 {
		t.Errorf("read_property: %+v", read)
	}
	var shot struct {
		Width, Height int
		Base64        string
	}
	if err := s.Call(ctx, "capture", map[string]any{"width": 64}, &shot); err != nil {
		t.Fatal(err)
	}
	if shot.Width != 64 || shot.Height != 48 || !strings.HasPrefix(shot.Base64, "iVBORw0KGgo") {
		t.Errorf("capture: %dx%d %.20q", shot.Width, shot.Height, shot.Base64)
	}
	if err := s.Call(ctx, "no_such_call", nil, nil); err == nil || !strings.Contains(err.Error(), "no_such_call") {
		t.Errorf("unknown call: %v", err)
	}
	lines, last, _ := s.Lines(0)
	if last == 0 || len(lines) == 0 || lines[0].Seq != 1 {
		t.Errorf("lines %+v last %d", lines, last)
	}
	if !s.Running() {
		t.Fatal("the game stopped by itself")
	}
	s.Stop()
	var se *sdk.Error
	if err := s.Call(ctx, "ping", nil, nil); !errors.As(err, &se) || se.Required != "play_session" {
		t.Errorf("call after Stop: %v", err)
	}
}

// TestGamePackScene: the scene to run goes into override.cfg (the web
// build refuses a scene argument), after the user's own overrides, and
// the probe is an autoload there; the user's files are not touched.
func TestGamePackScene(t *testing.T) {
	files, err := ReadGameFiles("testdata/game", "res://quit.tscn")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range files {
		got[f.Path] = string(f.Data)
	}
	ov := got["override.cfg"]
	if !strings.Contains(ov, `run/main_scene="res://quit.tscn"`) || !strings.Contains(ov, ProbeAutoload+`="*res://`+ProbePath+`"`) {
		t.Errorf("override.cfg:\n%s", ov)
	}
	if got[ProbePath] == "" || got["main.gd"] == "" || got[".godot/global_script_class_cache.cfg"] == "" {
		t.Errorf("pack files %v", len(got))
	}
}
