package workspace

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"slices"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// Addon commands the workspace sends to an attached editor
// (ADDON-PROTOCOL.md §5.2).
const (
	CmdListOpenScenes   = "cmd_list_open_scenes"  // {} → {scenes:[{path}]}
	CmdRescanFilesystem = "cmd_rescan_filesystem" // {} → {scanned:true, scanning}
	CmdReloadScene      = "cmd_reload_scene"      // {scene_path, confirm:true} → {scene_path, reloaded:true}
	CmdGetActiveScene   = "cmd_get_active_scene"  // {} → {is_open, path, …}
	CmdSaveScene        = "cmd_save_scene"        // {} → {path, saved:true}; saves the active tab
)

// AddonEditor implements Editor over the godot-mcp addon's commands; Send
// is the bridge's command function (the lead wires host/bridge to it).
//
// The addon reports which scenes are open but not whether one has unsaved
// changes, so every scene open in the editor counts as possibly unsaved:
// the workspace never writes a scene the editor has open (the toolset's
// editor-mode path edits it through the editor instead). Reload asks the
// editor to rescan the file system, which picks up new, changed and
// deleted files, and reloads changed scenes that are open (none, under
// the rule above, unless the addon learns to report a dirty flag).
type AddonEditor struct {
	Send func(ctx context.Context, command string, params any) (json.RawMessage, error)
}

func (a *AddonEditor) openScenes(ctx context.Context) ([]string, error) {
	raw, err := a.Send(ctx, CmdListOpenScenes, map[string]any{})
	if err != nil {
		return nil, err
	}
	var out struct {
		Scenes []struct {
			Path string `json:"path"`
		} `json:"scenes"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("%s: unexpected reply %.200s: %w", CmdListOpenScenes, raw, err)
	}
	paths := make([]string, 0, len(out.Scenes))
	for _, s := range out.Scenes {
		if s.Path != "" {
			paths = append(paths, s.Path)
		}
	}
	return paths, nil
}

// SaveScene implements Editor: the addon saves the active tab only, so
// scene must be the active one; a tab the user switched in the meantime is
// refused rather than saved by mistake.
func (a *AddonEditor) SaveScene(ctx context.Context, scene string) error {
	raw, err := a.Send(ctx, CmdGetActiveScene, map[string]any{})
	if err != nil {
		return err
	}
	var act struct {
		IsOpen bool   `json:"is_open"`
		Path   string `json:"path"`
	}
	if err := json.Unmarshal(raw, &act); err != nil {
		return fmt.Errorf("%s: unexpected reply %.200s: %w", CmdGetActiveScene, raw, err)
	}
	if !act.IsOpen || act.Path != scene {
		now := "no scene is active"
		if act.IsOpen {
			now = "the active scene is " + act.Path
		}
		return &sdk.Error{Code: sdk.CodeConflict, Required: "active_scene",
			Message: "the edit was made to " + scene + " as the editor's active scene, but " + now + " (the tab was switched); nothing was written",
			Hint:    "call the tool again: it acts on the editor's active scene, or pass scene to name one"}
	}
	_, err = a.Send(ctx, CmdSaveScene, map[string]any{})
	return err
}

// UnsavedScenes implements Editor: every open scene (see the type doc).
func (a *AddonEditor) UnsavedScenes(ctx context.Context) ([]string, error) {
	return a.openScenes(ctx)
}

// Reload implements Editor: rescan, then reload the changed scenes that
// are open.
func (a *AddonEditor) Reload(ctx context.Context, paths []string) error {
	if _, err := a.Send(ctx, CmdRescanFilesystem, map[string]any{}); err != nil {
		return err
	}
	open, err := a.openScenes(ctx)
	if err != nil {
		return err
	}
	for _, p := range paths {
		if ext := path.Ext(p); (ext == ".tscn" || ext == ".scn") && slices.Contains(open, p) {
			if _, err := a.Send(ctx, CmdReloadScene, map[string]any{"scene_path": p, "confirm": true}); err != nil {
				return err
			}
		}
	}
	return nil
}
