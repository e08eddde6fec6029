package plugintest

import (
	"slices"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// OnSceneFile checks a call that made its edit on the file of a scene the
// editor has open (sdk.Editor.OnSceneFile): its answer says so in
// on_file, the tool sent the editor exactly the commands want since the
// editor's call number before, and the host had the editor save scene
// and reload it.
func OnSceneFile(t testing.TB, out map[string]any, ed *sdktest.Editor, before int, scenes *sdktest.OpenScenes, scene string, want ...string) {
	t.Helper()
	if _, ok := out["on_file"].(string); !ok {
		t.Errorf("the answer does not say the edit was made on the scene's file: %v", out)
	}
	var sent []string
	for _, c := range ed.Calls()[before:] {
		sent = append(sent, c.Command)
	}
	if !slices.Equal(sent, want) {
		t.Errorf("the tool sent %v, want %v", sent, want)
	}
	if !slices.Contains(scenes.Saved(), scene) || !slices.Contains(scenes.Reloaded(), scene) {
		t.Errorf("the host had the editor save %v and reload %v, want %s in both", scenes.Saved(), scenes.Reloaded(), scene)
	}
}
