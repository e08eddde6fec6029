package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
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
	Type         string `json:"type,omitempty" jsonschema:"a game type, as the godot-mcp addon's scaffold names them: 2d_platformer, top_down_rpg, visual_novel (a 2d main scene, Compatibility renderer) or 3d_fps (3d, Forward+); sets template and renderer unless they are given. With an editor attached it is required: the addon scaffolds by type into the open project"`
	MainScene    string `json:"main_scene,omitempty" jsonschema:"the main scene's name: res://scenes/NAME.tscn with its script res://scripts/NAME.gd" default:"main"`
}

// gameTypes are the addon's scaffold types, with the template and renderer
// each stands for headless (the addon sets the same renderer).
var gameTypes = map[string]struct{ template, renderer string }{
	"2d_platformer": {scaffold.TwoD, scaffold.Compatibility},
	"top_down_rpg":  {scaffold.TwoD, scaffold.Compatibility},
	"visual_novel":  {scaffold.TwoD, scaffold.Compatibility},
	"3d_fps":        {scaffold.ThreeD, scaffold.ForwardPlus},
}

// gameType checks a type argument: "" or one of gameTypes.
func gameType(t string) error {
	if _, ok := gameTypes[t]; t == "" || ok {
		return nil
	}
	return &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "type",
		Message: fmt.Sprintf("type %s is not a scaffold type", sdk.QuoteInput(t)),
		Hint:    "pass 2d_platformer, top_down_rpg, visual_novel or 3d_fps, or leave type out and choose template and renderer"}
}

// options are the scaffold package's options for in: type fills in
// template and renderer where they are not given.
func (in scaffoldArgs) options() (scaffold.Options, error) {
	if err := gameType(in.Type); err != nil {
		return scaffold.Options{}, err
	}
	o := scaffold.Options{Name: in.ProjectName, Godot: in.GodotVersion, Renderer: in.Renderer, Template: in.Template, SceneName: in.MainScene}
	if g, ok := gameTypes[in.Type]; ok {
		o.Template = cmp.Or(o.Template, g.template)
		o.Renderer = cmp.Or(o.Renderer, g.renderer)
	}
	return o, nil
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
	Autoloads    []string         `json:"autoloads_registered,omitempty" jsonschema:"autoloads the editor's scaffold registered"`
	Commit       sdk.CommitResult `json:"commit"`
	Next         string           `json:"next"`
}

// ignored are entries that do not make a folder "not empty": version
// control, and the editor's cache of a project that is gone.
var ignored = map[string]bool{"res://.git": true, "res://.godot": true}

func scaffoldProject(ctx context.Context, call *sdk.Call, in scaffoldArgs) (sdk.Result, error) {
	o, err := in.options()
	if err != nil {
		return sdk.Result{}, err
	}
	p, err := scaffold.New(o)
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

// scaffoldEditor is the editor path: the addon's cmd_scaffold_project, which
// adds a game type's folders, settings, GameState autoload and main scene
// to the project the editor has open (it makes no new project: the editor
// already has one). What only a new project has (a Godot version, a
// renderer of one's choosing, a template without a type) is refused rather
// than ignored.
func scaffoldEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in scaffoldArgs) (sdk.Result, error) {
	if err := gameType(in.Type); err != nil {
		return sdk.Result{}, err
	}
	if in.Type == "" {
		return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "type",
			Message: "with an editor attached the scaffold adds a game type's skeleton to the open project, and type names it",
			Hint:    "pass type: 2d_platformer, top_down_rpg, visual_novel or 3d_fps; to create a new project instead, run godot-mcp serve --project EMPTY_DIR without an editor"}
	}
	for arg, v := range map[string]string{"godot_version": in.GodotVersion, "renderer": in.Renderer, "template": in.Template} {
		if v != "" {
			return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: arg,
				Message: arg + " applies to a new project; the project the editor has open keeps its own",
				Hint:    "leave " + arg + " out (type sets the renderer), or scaffold a new project without an editor"}
		}
	}
	name, project := cmp.Or(in.MainScene, "main"), cmp.Or(in.ProjectName, in.Type)
	var out struct {
		Created   bool     `json:"created"`
		Paths     []string `json:"paths_created"`
		Autoloads []string `json:"autoloads_registered"`
	}
	// confirm: the host has already required it of the caller for this
	// destructive tool; the addon asks for it again.
	params := map[string]any{"type": in.Type, "project_name": project, "main_scene": name, "confirm": true}
	if err := ed.Apply(ctx, "cmd_scaffold_project", params, &out); err != nil {
		return sdk.Result{}, err
	}
	scene := "res://scenes/" + name + ".tscn"
	if out.Paths == nil {
		out.Paths = []string{}
	}
	return sdk.JSON(scaffoldResult{
		ProjectName: project, GodotVersion: call.Workspace().GodotVersion(ctx),
		Renderer: gameTypes[in.Type].renderer, Template: in.Type, MainScene: scene, Files: out.Paths,
		Autoloads: out.Autoloads,
		Next:      "the editor has the skeleton open: enable scene_edit to edit " + scene,
	}), nil
}
