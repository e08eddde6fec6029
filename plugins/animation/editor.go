package main

import (
	"context"
	"errors"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

// Editor mode. A call the addon's command can carry (ADDON-PROTOCOL
// §5.12: cmd_create_animation, cmd_add_animation_track, ...) is forwarded
// with exactly the addon's params, on the scene's tab, and lands in the
// editor's undo history; its answer passes through. A dry run records
// the command and, like the reference server, asks the addon for the
// persistence verdict (cmd_node_persistence; for animation edits with
// the animation, which follows the library chain).
//
// The addon's commands take fewer arguments than the tools: no library,
// loop_mode or step on create, no interpolation or update mode on
// add_track, no position on states, no properties or connections on
// blend tree nodes, nothing for .tres animations or transitions. A call
// that uses them is carried out on the scene's file through the
// workspace, as headless; the workspace reloads the file in the editor,
// and refuses (CONFLICT) while the editor holds unsaved changes to it, so
// nothing typed in the editor is overwritten.

// forward opens scene and runs cmd; in a dry run probe is the
// cmd_node_persistence query whose verdict the answer carries.
func forward(ctx context.Context, ed *sdk.Editor, scene sdk.ScenePath, cmd string, params, probe map[string]any) (sdk.Result, error) {
	if err := ed.OpenScene(ctx, string(scene)); err != nil {
		return sdk.Result{}, err
	}
	if !ed.DryRun() || probe == nil {
		return ed.Forward(ctx, cmd, params)
	}
	var verdict map[string]any
	if err := ed.Query(ctx, "cmd_node_persistence", probe, &verdict); err != nil {
		return sdk.Result{}, err
	}
	out := map[string]any{}
	if err := ed.Apply(ctx, cmd, params, &out); err != nil {
		return sdk.Result{}, err
	}
	for _, k := range []string{"persisted", "reason", "hint"} {
		if v, ok := verdict[k]; ok {
			out[k] = v
		}
	}
	return sdk.JSON(out), nil
}

func createEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in createArgs) (sdk.Result, error) {
	if in.ResourcePath != "" || in.Library != "" || in.LoopMode != "" || in.Step != nil || containsSlash(in.Name) {
		return createAnimation(ctx, call, in)
	}
	if err := validAnimationName("name", in.Name); err != nil {
		return sdk.Result{}, err
	}
	length := 1.0
	if in.Length != nil {
		length = *in.Length
	}
	return forward(ctx, ed, in.Scene, "cmd_create_animation",
		map[string]any{"node_path": in.NodePath, "name": in.Name, "length": length},
		map[string]any{"node_path": in.NodePath})
}

func containsSlash(s string) bool {
	for _, r := range s {
		if r == '/' {
			return true
		}
	}
	return false
}

func addTrackEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in addTrackArgs) (sdk.Result, error) {
	if in.ResourcePath != "" || in.Interp != "" || in.UpdateMode != "" {
		return addTrack(ctx, call, in)
	}
	typ := in.TrackType
	if typ == "" {
		typ = "value"
	}
	// Checked against the scene as saved: a wrong class or property is
	// refused before the editor sees it; a node the file does not have
	// yet (added in the editor, unsaved) is left to the addon.
	saved := in
	saved.Scene = editorScene(ctx, ed, in.Scene)
	if err := checkSavedTrack(ctx, call, saved, typ); err != nil {
		return sdk.Result{}, err
	}
	return forward(ctx, ed, in.Scene, "cmd_add_animation_track",
		map[string]any{"node_path": in.NodePath, "animation": in.Animation, "track_path": in.TrackPath, "track_type": typ},
		map[string]any{"node_path": in.NodePath, "animation": in.Animation})
}

// editorScene is scene, or else the scene of the editor's active tab
// (cmd_get_active_scene; "" when it has none or it was never saved), the
// file whose saved text the checks before sending read.
func editorScene(ctx context.Context, ed *sdk.Editor, scene sdk.ScenePath) sdk.ScenePath {
	if scene != "" {
		return scene
	}
	var active struct {
		IsOpen bool   `json:"is_open"`
		Path   string `json:"path"`
	}
	if err := ed.Query(ctx, "cmd_get_active_scene", nil, &active); err != nil || !active.IsOpen || !strings.HasSuffix(active.Path, ".tscn") {
		return ""
	}
	return sdk.ScenePath(active.Path)
}

func checkSavedTrack(ctx context.Context, call *sdk.Call, in addTrackArgs, typ string) error {
	if in.Scene == "" {
		return nil
	}
	e := newEdit(ctx, call)
	if _, err := e.openScene(in.Scene); err != nil {
		return nil
	}
	p, err := e.openPlayer(in.NodePath)
	if err != nil {
		return nil
	}
	if _, err := p.checkTrack(typ, in.TrackPath); err != nil {
		var se *sdk.Error
		if errors.As(err, &se) && se.Code == sdk.CodeInvalidArgument {
			return err
		}
	}
	return nil
}

func insertKeyframeEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in insertKeyArgs) (sdk.Result, error) {
	if in.ResourcePath != "" {
		return insertKeyframe(ctx, call, in)
	}
	if in.Track == nil {
		return sdk.Result{}, invalid("track", "pass the track's index (godot_animation_get lists the tracks)", "track is required")
	}
	saved := in
	saved.Scene = editorScene(ctx, ed, in.Scene)
	easing := 1.0
	if in.Easing != nil {
		easing = *in.Easing
	} else if in.Transition != nil {
		easing = *in.Transition
	}
	return forward(ctx, ed, in.Scene, "cmd_insert_keyframe",
		map[string]any{"node_path": in.NodePath, "animation": in.Animation, "track": *in.Track, "time": in.Time,
			"value": editorValue(ctx, call, saved, in.Value), "easing": easing},
		map[string]any{"node_path": in.NodePath, "animation": in.Animation})
}

// editorValue is the key's value as the addon takes it. The addon passes
// JSON to the engine as it is, except strings, which it parses as Godot
// text (str_to_var): so a value whose type the saved scene tells (the
// track's property, a 3D transform track's Vector3 or Quaternion, a
// bezier track's point) is sent as its Godot text, "Vector2(10, 20)",
// and anything else as given.
func editorValue(ctx context.Context, call *sdk.Call, in insertKeyArgs, raw any) any {
	switch raw.(type) {
	case map[string]any, []any:
	default:
		return raw
	}
	if in.Scene == "" {
		return raw
	}
	e := newEdit(ctx, call)
	a, p, err := openAnimation(e, in.where, in.Animation)
	if err != nil || *in.Track < 0 || *in.Track >= trackCount(a.sec) {
		return raw
	}
	t, err := readTrack(a.sec, *in.Track)
	if err != nil {
		return raw
	}
	switch t.typ {
	case "method", "audio", "animation":
		return raw
	case "bezier":
		k, err := e.makeKey(a, p, t, raw)
		if err != nil {
			return raw
		}
		return []float64{float64(k.bezier), float64(k.in[0]), float64(k.in[1]), float64(k.out[0]), float64(k.out[1])}
	}
	k, err := e.makeKey(a, p, t, raw)
	if err != nil || k.value == nil || k.value.Kind() == godot.KindObject {
		return raw
	}
	return godot.FormatValue(k.value)
}

func getEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in getArgs) (sdk.Result, error) {
	if in.ResourcePath != "" {
		return getAnimation(ctx, call, in)
	}
	if err := ed.OpenScene(ctx, string(in.Scene)); err != nil {
		return sdk.Result{}, err
	}
	return ed.Forward(ctx, "cmd_get_animation", map[string]any{"node_path": in.NodePath, "animation_name": in.AnimationName})
}

func listEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in listArgs) (sdk.Result, error) {
	if err := ed.OpenScene(ctx, string(in.Scene)); err != nil {
		return sdk.Result{}, err
	}
	return ed.Forward(ctx, "cmd_list_animations", map[string]any{"node_path": in.NodePath})
}

func createTreeEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in createTreeArgs) (sdk.Result, error) {
	rootType := in.RootType
	if rootType == "" {
		rootType = "AnimationNodeStateMachine"
	}
	if err := checkClass("root_type", rootType, "AnimationRootNode", "pass AnimationNodeStateMachine or AnimationNodeBlendTree"); err != nil {
		return sdk.Result{}, err
	}
	name := in.Name
	if name == "" {
		name = "AnimationTree"
	}
	params := map[string]any{"parent_path": in.ParentPath, "name": name, "root_type": rootType}
	if in.AnimPlayer != "" {
		params["anim_player"] = in.AnimPlayer
	}
	return forward(ctx, ed, in.Scene, "cmd_create_animation_tree", params,
		map[string]any{"node_path": in.ParentPath, "probe_parent": true})
}

func addStateEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in stateArgs) (sdk.Result, error) {
	if in.Position != nil {
		return addState(ctx, call, in)
	}
	if in.StateName == "" {
		return sdk.Result{}, invalid("state_name", "pass the state's name, e.g. \"idle\"", "'state_name' must be a non-empty string.")
	}
	params := map[string]any{"tree_path": in.TreePath, "state_name": in.StateName}
	if in.Animation != "" {
		params["animation"] = in.Animation
	}
	return forward(ctx, ed, in.Scene, "cmd_add_state_machine_state", params, map[string]any{"node_path": in.TreePath})
}

func setBlendTreeNodeEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in blendNodeArgs) (sdk.Result, error) {
	if in.Animation != "" || len(in.Properties) > 0 || in.Position != nil || in.ConnectTo != "" {
		return setBlendTreeNode(ctx, call, in)
	}
	if in.NodeName == "" {
		return sdk.Result{}, invalid("node_name", "pass the node's name, e.g. \"walk\"", "'node_name' must be a non-empty string.")
	}
	if err := checkClass("node_type", in.NodeType, "AnimationNode", "pass an AnimationNode class such as AnimationNodeAnimation or AnimationNodeBlend2"); err != nil {
		return sdk.Result{}, err
	}
	return forward(ctx, ed, in.Scene, "cmd_set_blend_tree_node",
		map[string]any{"tree_path": in.TreePath, "node_name": in.NodeName, "node_type": in.NodeType},
		map[string]any{"node_path": in.TreePath})
}

// createTreeDryRun is what a dry run of create_tree answers without adding.
func createTreeDryRun(in createTreeArgs) map[string]any {
	name, rootType := in.Name, in.RootType
	if name == "" {
		name = "AnimationTree"
	}
	if rootType == "" {
		rootType = "AnimationNodeStateMachine"
	}
	return map[string]any{"node_path": godot.JoinNodePath(nodeedit.NormalizePath(nodeedit.OrDot(in.ParentPath)), name),
		"root_type": rootType, "scene_path": sdk.EditedScene}
}
