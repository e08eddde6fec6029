package webgodot

import "fmt"

// ScriptProject returns the files of a minimal project whose main scene
// runs script (GDScript source of a class extending Node) in _ready:
// project.godot, the scene and the script, under res://webgodot/. The
// script must print its results and end with get_tree().quit(). Add more
// files (the ones the script reads) to the returned slice.
//
// project.godot is written as plain text; the engine accepts it as well
// as the binary form an export writes.
func ScriptProject(script string) []PackFile {
	project := fmt.Sprintf(`config_version=5

[application]

config/name="godot-mcp engine run"
run/main_scene="res://%s"
`, mainScene)
	scene := fmt.Sprintf(`[gd_scene load_steps=2 format=3]

[ext_resource type="Script" path="res://%s" id="1"]

[node name="Main" type="Node"]
script = ExtResource("1")
`, mainScript)
	return []PackFile{
		{Path: "project.godot", Data: []byte(project)},
		// Without a class cache the engine logs "Could not load global
		// script cache" on every start.
		{Path: ".godot/global_script_class_cache.cfg", Data: []byte("list = []\n")},
		{Path: mainScene, Data: []byte(scene)},
		{Path: mainScript, Data: []byte(script)},
	}
}

// Where ScriptProject puts its scene and script, out of the way of a
// user's files.
const (
	mainScene  = "webgodot/main.tscn"
	mainScript = "webgodot/main.gd"
)

// CheckerScene returns the scene and script files of a main scene that
// runs script, for packs whose project.godot is the user's own: pair it
// with an override.cfg from MainSceneOverride.
func CheckerScene(script string) []PackFile {
	files := ScriptProject(script)
	return files[2:] // the scene and the script
}

// MainSceneOverride is an override.cfg that makes the CheckerScene the
// main scene, whatever the project.godot next to it says.
func MainSceneOverride() string {
	return fmt.Sprintf("[application]\n\nrun/main_scene=\"res://%s\"\n", mainScene)
}

// MinimalProject is the project.godot of ScriptProject.
func MinimalProject() string { return string(ScriptProject("")[0].Data) }
