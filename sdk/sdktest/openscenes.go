package sdktest

import (
	"context"
	"slices"
	"sync"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// OpenScenes plays the attached Godot editor for the host's workspace
// (Options.WorkspaceEditor): the scenes it holds open, each possibly with
// unsaved changes, as the real host's editor reports them. It records the
// scenes it is asked to save and the files it is told to reload.
//
//	scenes := sdktest.NewOpenScenes("res://main.tscn")
//	h := sdktest.New(t, ts, sdktest.Options{ProjectDir: dir, Editor: ed.Serve, WorkspaceEditor: scenes})
type OpenScenes struct {
	mu       sync.Mutex
	open     []string
	saved    []string
	reloaded []string
	onSave   func(scene string)
}

// NewOpenScenes returns an editor holding scenes open (res:// paths).
func NewOpenScenes(scenes ...string) *OpenScenes {
	return &OpenScenes{open: scenes}
}

// Open adds scenes to the ones the editor holds open.
func (o *OpenScenes) Open(scenes ...string) *OpenScenes {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.open = append(o.open, scenes...)
	return o
}

// OnSave sets what a save does to the file, such as writing the user's
// edits the test pretends were unsaved.
func (o *OpenScenes) OnSave(fn func(scene string)) *OpenScenes {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.onSave = fn
	return o
}

// UnsavedScenes implements workspace.Editor: every open scene.
func (o *OpenScenes) UnsavedScenes(context.Context) ([]string, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.open), nil
}

// SaveScene implements workspace.Editor. A scene that is not open cannot
// be saved, as with the addon, which saves its active tab.
func (o *OpenScenes) SaveScene(_ context.Context, scene string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !slices.Contains(o.open, scene) {
		return &sdk.Error{Code: sdk.CodeConflict, Required: "active_scene", Message: scene + " is not open in the editor"}
	}
	o.saved = append(o.saved, scene)
	if o.onSave != nil {
		o.onSave(scene)
	}
	return nil
}

// Reload implements workspace.Editor.
func (o *OpenScenes) Reload(_ context.Context, paths []string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.reloaded = append(o.reloaded, paths...)
	return nil
}

// Saved returns the scenes saved so far, in order.
func (o *OpenScenes) Saved() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.saved)
}

// Reloaded returns the files the editor was told to reload, in order.
func (o *OpenScenes) Reloaded() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.reloaded)
}
