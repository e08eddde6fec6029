package main

import (
	"context"
	"errors"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/scaffold"
)

type scaffoldArgs struct {
	ProjectName  string `json:"project_name,omitempty" jsonschema:"the project's name (config/name)" default:"New Game Project"`
	GodotVersion string `json:"godot_version,omitempty" jsonschema:"Godot version the project is for: 4.0 to 4.7" default:"4.7"`
	Renderer     string `json:"renderer,omitempty" jsonschema:"forward_plus (Forward+, desktop), mobile, or gl_compatibility (Compatibility, web and old GPUs)" default:"forward_plus"`
	Template     string `json:"template,omitempty" jsonschema:"main scene: empty (none), 2d (Node2D + Camera2D), 3d (Node3D + Camera3D + DirectionalLight3D + WorldEnvironment), ui (full-rect Control)" default:"empty"`
	Overwrite    bool   `json:"overwrite,omitempty" jsonschema:"scaffold into a folder that is not empty, replacing the files it writes"`
	Force        bool   `json:"force,omitempty" jsonschema:"the same as overwrite"`
}

type scaffoldResult struct {
	ProjectName  string           `json:"project_name"`
	GodotVersion string           `json:"godot_version"`
	Renderer     string           `json:"renderer"`
	Template     string           `json:"template"`
	MainScene    string           `json:"main_scene,omitempty"`
	MainSceneUID string           `json:"main_scene_uid,omitempty"`
	Files        []string         `json:"files"`
	Overwritten  []string         `json:"overwritten,omitempty"`
	Commit       sdk.CommitResult `json:"commit"`
	Next         string           `json:"next"`
}

// ignored are entries that do not make a folder "not empty": version
// control, and the editor's cache of a project that is gone.
var ignored = map[string]bool{"res://.git": true, "res://.godot": true}

func scaffoldProject(ctx context.Context, call *sdk.Call, in scaffoldArgs) (sdk.Result, error) {
	p, err := scaffold.New(scaffold.Options{Name: in.ProjectName, Godot: in.GodotVersion, Renderer: in.Renderer, Template: in.Template})
	if err != nil {
		if errors.Is(err, scaffold.ErrInvalid) {
			msg := strings.TrimPrefix(err.Error(), scaffold.ErrInvalid.Error()+": ")
			return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "pass one of the listed values, or leave the argument out for the default", "%s", msg)
		}
		return sdk.Result{}, sdk.Errorf(sdk.CodeInternalError, "report this bug", "scaffolding: %v", err)
	}
	ws := call.Workspace()
	entries, err := ws.List(ctx, "res://")
	if err != nil {
		return sdk.Result{}, err
	}
	var present []string
	for _, e := range entries {
		if !ignored[e.Path] {
			present = append(present, e.Path)
		}
	}
	overwrite := in.Overwrite || in.Force
	if len(present) > 0 && !overwrite {
		shown := present
		if len(shown) > 10 {
			shown = append(shown[:10:10], "…")
		}
		return sdk.Result{}, &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "empty_folder",
			Message: "the project folder is not empty: " + strings.Join(shown, ", "),
			Hint:    "scaffold into an empty folder (godot-mcp serve --project EMPTY_DIR), or pass overwrite: true to replace the files the scaffold writes"}
	}
	tx := ws.Begin("Scaffold project " + p.Name)
	var overwritten []string
	for _, f := range p.Files {
		st, err := ws.Stat(ctx, f.Path)
		if err != nil {
			return sdk.Result{}, err
		}
		if st.Exists {
			if st.IsDir {
				return sdk.Result{}, sdk.Errorf(sdk.CodePreconditionFailed, "move or delete that folder, then scaffold again",
					"%s is a folder; the scaffold writes a file there", f.Path)
			}
			overwritten = append(overwritten, f.Path)
		}
		tx.Write(f.Path, f.Data, st.Version)
	}
	cr, err := tx.Commit(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	next := "the project is ready: godot_inspection_get_project_info reads it; enable scene_edit to edit " + p.MainScene
	if p.MainScene == "" {
		next = "the project is ready: godot_inspection_get_project_info reads it; enable scene_edit and create a main scene with godot_scene_edit_create_scene"
	}
	return sdk.JSON(scaffoldResult{
		ProjectName: p.Name, GodotVersion: p.Godot, Renderer: p.Renderer, Template: p.Template,
		MainScene: p.MainScene, MainSceneUID: p.MainSceneUID, Files: p.Paths(), Overwritten: overwritten,
		Commit: cr, Next: next,
	}), nil
}
