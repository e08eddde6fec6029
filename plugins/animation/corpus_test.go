package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/internal/testenv"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// TestCorpusAnimations reads every animation of the shared demo projects
// (value, method, audio, 3D transform tracks, as the editor saved them):
// re-encoding each track's keys gives the file's exact bytes back, and
// list_animations and get answer for every AnimationPlayer.
func TestCorpusAnimations(t *testing.T) {
	root := filepath.Join(testenv.RepoRoot(), "..", "shared", "fixtures", "projects")
	if _, err := os.Stat(root); err != nil {
		testenv.Missing(t, "the shared project corpus ("+root+")", "check out the shared fixtures beside the repository")
	}
	projects, _ := os.ReadDir(root)
	var tracks, anims, players int
	for _, pr := range projects {
		if !pr.IsDir() {
			continue
		}
		dir := filepath.Join(root, pr.Name())
		var scenes []string
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".tscn") || strings.HasSuffix(p, ".tres")) {
				return err
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			f, err := godot.ParseFile(p, src)
			if err != nil {
				t.Errorf("%s: %v", p, err)
				return nil
			}
			var secs []*godot.Section
			for _, s := range f.SubResources() {
				if s.Type() == "Animation" {
					secs = append(secs, s.Section)
				}
			}
			if f.ResourceType() == "Animation" {
				secs = append(secs, f.Resource())
			}
			for _, sec := range secs {
				anims++
				for i := range trackCount(sec) {
					tr, err := readTrack(sec, i)
					if err != nil {
						t.Errorf("%s: %v", p, err)
						continue
					}
					sec.Set(trackKey(i, "keys"), tr.encodeKeys())
					tracks++
				}
			}
			if !bytes.Equal(f.Bytes(), src) {
				t.Errorf("%s: re-encoding its animation keys changed the file", p)
			}
			if f.IsScene() {
				for _, n := range f.Nodes() {
					if n.Type() == "AnimationPlayer" {
						rel, _ := filepath.Rel(dir, p)
						scenes = append(scenes, "res://"+filepath.ToSlash(rel)+"|"+n.Path())
					}
				}
			}
			return nil
		})
		if len(scenes) == 0 {
			continue
		}
		h := headless(t, plugintest.CorpusProject(t, pr.Name()))
		for _, sp := range scenes {
			scene, node, _ := strings.Cut(sp, "|")
			players++
			ls := plugintest.Call(t, h, "list_animations", map[string]any{"scene": scene, "node_path": node})
			for _, a := range ls["animations"].([]any) {
				g := plugintest.Call(t, h, "get", map[string]any{"scene": scene, "node_path": node, "animation_name": a})
				if g["name"] != a {
					t.Errorf("%s %s: get %s = %v", scene, node, a, g)
				}
			}
		}
	}
	t.Logf("%d animations, %d tracks re-encoded; %d players read", anims, tracks, players)
	if tracks < 100 || players < 10 {
		t.Fatalf("only %d tracks and %d players in the corpus", tracks, players)
	}
}
