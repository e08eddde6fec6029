package main

import (
	"context"
	"path"
	"slices"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
	"github.com/godot-mcp/godot-mcp/sdk/godot/uid"
)

type createSceneArgs struct {
	ScenePath sdk.ScenePath `json:"scene_path" jsonschema:"res:// path of the new scene, ending in .tscn" godot:"new"`
	RootType  string        `json:"root_type" jsonschema:"engine class of the root node, e.g. Node2D, Node3D or Control"`
}

func createScene(ctx context.Context, call *sdk.Call, in createSceneArgs) (sdk.Result, error) {
	// The addon overwrites an existing file without asking; both modes
	// refuse instead (the godot:"new" tag), since nothing could undo that
	// in the editor.
	sp := string(in.ScenePath)
	if strings.HasSuffix(strings.ToLower(sp), ".scn") {
		return sdk.Result{}, invalid(requiredScenePath, "use a .tscn path, or create binary scenes in the Godot editor",
			"%s is a binary scene; headless editing writes text scenes (.tscn)", sp)
	}
	if err := checkRootType(in.RootType, call.Workspace().GodotVersion(ctx)); err != nil {
		return sdk.Result{}, err
	}
	rootName := strings.TrimSuffix(path.Base(sp), path.Ext(sp))
	if err := nodeedit.ValidName(rootName); err != nil {
		return sdk.Result{}, invalid(requiredScenePath, "use a file name that is a valid node name", "the root would be named %q: %v", rootName, err)
	}
	version := call.Workspace().GodotVersion(ctx) // "4.6"; "" unknown
	f, err := godot.NewScene(sp, uid.New().String(), atLeast(version, 4, 6))
	if err != nil {
		return sdk.Result{}, err
	}
	f.SetFloatStyle(godot.FloatStyleFor(version))
	if _, err := f.AddNode("", rootName, in.RootType); err != nil {
		return sdk.Result{}, editError(err, requiredScenePath)
	}
	res, err := call.Workspace().Begin("Create scene "+path.Base(sp)).Write(sp, f.Bytes(), "").Commit(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	out := map[string]any{"scene_path": sp, "root_type": in.RootType, "created": true}
	if res.DryRun {
		out["dry_run"] = true
		if len(res.Files) > 0 {
			out["diff"] = res.Files[0].Diff
		}
		return sdk.JSON(out), nil
	}
	sc, err := call.Workspace().SetActiveScene(ctx, sp)
	if err != nil {
		return sdk.Result{}, err
	}
	noteActive(sc.Active)
	return sdk.JSON(out), nil
}

// checkRootType refuses a root type that is not an instantiable node class,
// in both modes; the refusal names the project's Godot version ("" when
// unknown: the class database's).
func checkRootType(t, project string) error {
	if err := db().ValidNodeTypeFor(t, project); err != nil {
		return invalid("root_type", "pick an instantiable Node class (the message names the closest)", "%v", err)
	}
	return nil
}

type scenePathArgs struct {
	ScenePath sdk.ScenePath `json:"scene_path" jsonschema:"res:// path of the scene"`
}

func openScene(ctx context.Context, call *sdk.Call, in scenePathArgs) (sdk.Result, error) {
	sp := string(in.ScenePath)
	ws := call.Workspace()
	before, err := ws.Scenes(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	out := map[string]any{"scene_path": sp, "opened": true, "already_open": slices.Contains(before.Open, sp)}
	if call.DryRun {
		fi, err := ws.Stat(ctx, sp)
		if err != nil {
			return sdk.Result{}, err
		}
		if !fi.Exists {
			return sdk.Result{}, notFound("godot_inspection_list_scenes lists the project's scenes", "No scene at %s.", sp)
		}
		out["dry_run"] = true
		return sdk.JSON(out), nil
	}
	sc, err := ws.SetActiveScene(ctx, sp)
	if err != nil {
		return sdk.Result{}, err
	}
	noteActive(sc.Active)
	return sdk.JSON(out), nil
}

type closeSceneArgs struct {
	ScenePath sdk.ScenePath `json:"scene_path,omitempty" jsonschema:"res:// path of an open scene; default: the active scene"`
}

func closeScene(ctx context.Context, call *sdk.Call, in closeSceneArgs) (sdk.Result, error) {
	ws := call.Workspace()
	st, err := ws.Scenes(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	target := string(in.ScenePath)
	if target == "" {
		if target = st.Active; target == "" {
			return sdk.Result{}, &sdk.Error{Code: sdk.CodePreconditionFailed, Required: requiredActiveScene,
				Message: "no scene is open", Hint: "godot_scene_edit_list_open_scenes lists the open scenes"}
		}
	}
	if !slices.Contains(st.Open, target) {
		return sdk.Result{}, &sdk.Error{Code: sdk.CodePreconditionFailed, Required: requiredOpenScene,
			Message: target + " is not open", Hint: "godot_scene_edit_list_open_scenes lists the open scenes"}
	}
	out := map[string]any{"scene_path": target, "closed": true}
	if call.DryRun {
		out["dry_run"] = true
		return sdk.JSON(out), nil
	}
	st, err = ws.CloseScene(ctx, target)
	if err != nil {
		return sdk.Result{}, err
	}
	noteActive(st.Active)
	return sdk.JSON(out), nil
}

func reloadScene(ctx context.Context, call *sdk.Call, in scenePathArgs) (sdk.Result, error) {
	sp := string(in.ScenePath)
	st, err := call.Workspace().Scenes(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	if !slices.Contains(st.Open, sp) {
		return sdk.Result{}, &sdk.Error{Code: sdk.CodePreconditionFailed, Required: requiredOpenScene,
			Message: sp + " is not open", Hint: "open it with godot_scene_edit_open_scene"}
	}
	s, err := loadScene(ctx, call, sp)
	if err != nil {
		return sdk.Result{}, err
	}
	s.keep()
	out := map[string]any{"scene_path": sp, "reloaded": true}
	return unchanged(call, out), nil
}

type saveSceneArgs struct {
	Scene sdk.ScenePath `json:"scene,omitempty" jsonschema:"res:// path of the scene to save; default: the active scene (see godot_scene_edit_open_scene)"`
}

func saveScene(ctx context.Context, call *sdk.Call, in saveSceneArgs) (sdk.Result, error) {
	s, err := loadScene(ctx, call, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	s.keep()
	out := map[string]any{"path": s.path, "saved": true, "pending_changes": false,
		"note": "headless: every edit was written to the file when it was made; nothing was pending"}
	return unchanged(call, out), nil
}

func saveAllScenes(ctx context.Context, call *sdk.Call, _ struct{}) (sdk.Result, error) {
	st, err := call.Workspace().Scenes(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	out := map[string]any{"saved": true, "count": len(st.Open), "pending_changes": false,
		"note": "headless: every edit was written to its file when it was made; nothing was pending"}
	return unchanged(call, out), nil
}

func listOpenScenes(ctx context.Context, call *sdk.Call, _ struct{}) (sdk.Result, error) {
	st, err := call.Workspace().Scenes(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	scenes := make([]map[string]any, len(st.Open))
	for i, p := range st.Open {
		scenes[i] = map[string]any{"path": p}
	}
	return sdk.JSON(map[string]any{"scenes": scenes, "active": st.Active}), nil
}

// unchanged is the answer of a headless call that writes nothing, so a dry
// run answers the same, marked dry_run.
func unchanged(call *sdk.Call, out map[string]any) sdk.Result {
	if call.DryRun {
		out["dry_run"] = true
	}
	return sdk.JSON(out)
}
