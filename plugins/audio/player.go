package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

var playerTypes = []string{"AudioStreamPlayer", "AudioStreamPlayer2D", "AudioStreamPlayer3D"}

type addPlayerArgs struct {
	ParentPath string         `json:"parent_path" jsonschema:"the parent node, relative to the scene root (\".\" is the root)"`
	PlayerType string         `json:"player_type,omitempty" jsonschema:"AudioStreamPlayer (default), AudioStreamPlayer2D or AudioStreamPlayer3D"`
	Name       string         `json:"name,omitempty" jsonschema:"the node's name (default: player_type; a taken name gets the next free one)"`
	StreamPath string         `json:"stream_path,omitempty" jsonschema:"res:// path of an AudioStream (.wav, .ogg, .mp3 or a .tres)"`
	Properties map[string]any `json:"properties,omitempty" jsonschema:"more properties of the player, e.g. {\"volume_db\": -6, \"bus\": \"SFX\", \"autoplay\": true, \"pitch_scale\": 1.2}"`
	Scene      sdk.ScenePath  `json:"scene,omitempty" jsonschema:"res:// path of the scene; default: the active scene"`
}

type addPlayerResult struct {
	NodePath   string           `json:"node_path"`
	PlayerType string           `json:"player_type"`
	Created    bool             `json:"created"`
	Scene      string           `json:"scene"`
	Stream     string           `json:"stream_path,omitempty"`
	Bus        string           `json:"bus,omitempty"`
	Commit     sdk.CommitResult `json:"commit"`
}

func (in *addPlayerArgs) check() error {
	if in.PlayerType == "" {
		in.PlayerType = "AudioStreamPlayer"
	}
	if !slices.Contains(playerTypes, in.PlayerType) {
		return &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "player_type",
			Message: fmt.Sprintf("player_type %q is not an audio player", in.PlayerType), Hint: "pass " + strings.Join(playerTypes, ", ")}
	}
	db := nodeedit.DB()
	for _, k := range sortedKeys(in.Properties) {
		if _, ok := db.Property(in.PlayerType, k); !ok {
			hint := "see the class's properties with godot_describe_class"
			if s := db.SuggestProperty(in.PlayerType, k); s != "" {
				hint = "did you mean " + s + "?"
			}
			return &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "properties",
				Message: fmt.Sprintf("%s has no property %q", in.PlayerType, k), Hint: hint}
		}
	}
	return nil
}

func addPlayerEditor(ctx context.Context, call *sdk.Call, ed *sdk.Editor, in addPlayerArgs) (sdk.Result, error) {
	if err := in.check(); err != nil {
		return sdk.Result{}, err
	}
	if nodeedit.HasInline(in.Properties) {
		return sdk.HandlerOnSceneFile(ctx, call, ed, &in, &in.Scene, addPlayer)
	}
	if err := ed.OpenScene(ctx, string(in.Scene)); err != nil {
		return sdk.Result{}, err
	}
	name := in.Name
	if name == "" {
		name = in.PlayerType
	}
	props := in.Properties
	if props == nil {
		props = map[string]any{}
	}
	return ed.Forward(ctx, "cmd_add_audio_player", map[string]any{"parent_path": in.ParentPath, "player_type": in.PlayerType,
		"name": name, "stream_path": in.StreamPath, "properties": props})
}

func addPlayer(ctx context.Context, call *sdk.Call, in addPlayerArgs) (sdk.Result, error) {
	if err := in.check(); err != nil {
		return sdk.Result{}, err
	}
	p, err := nodeedit.ScenePath(ctx, call, string(in.Scene))
	if err != nil {
		return sdk.Result{}, err
	}
	s, err := nodeedit.Open(ctx, call, p)
	if err != nil {
		return sdk.Result{}, err
	}
	n, err := s.CreateNode(in.ParentPath, in.Name, in.PlayerType)
	if err != nil {
		return sdk.Result{}, err
	}
	out := addPlayerResult{PlayerType: in.PlayerType, Scene: s.Path}
	if in.StreamPath != "" {
		sp, err := sdk.CleanResPath("stream_path", in.StreamPath)
		if err != nil {
			return sdk.Result{}, err
		}
		if fi, err := call.Workspace().Stat(ctx, sp); err != nil {
			return sdk.Result{}, err
		} else if !fi.Exists {
			return sdk.Result{}, &sdk.Error{Code: sdk.CodeNotFound, Required: "stream_path",
				Message: fmt.Sprintf("no resource at %s", sp), Hint: "check the path with godot_project_search_files (audio files: .wav, .ogg, .mp3)"}
		}
		if _, err := s.Set(n, "stream", sp); err != nil {
			return sdk.Result{}, propErr("stream_path", err)
		}
		out.Stream = sp
	}
	if raw, ok := in.Properties["bus"]; ok {
		name, _ := raw.(string)
		l, err := readLayout(ctx, call)
		if err != nil {
			return sdk.Result{}, err
		}
		if !slices.Contains(l.names(), name) {
			return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "properties",
				Message: fmt.Sprintf("bus %v is not a bus of %s", raw, l.path),
				Hint:    "its buses are " + strings.Join(l.names(), ", ") + "; add one first with godot_audio_add_bus"}
		}
		out.Bus = name
	}
	for _, k := range sortedKeys(in.Properties) {
		if _, err := s.Set(n, k, in.Properties[k]); err != nil {
			return sdk.Result{}, propErr("properties", err)
		}
	}
	cr, err := s.Commit("Add " + in.PlayerType + " " + n.Name())
	if err != nil {
		return sdk.Result{}, err
	}
	out.NodePath, out.Created, out.Commit = n.Path(), !cr.DryRun, cr
	return sdk.JSON(out), nil
}

// propErr names the argument a property's refusal is about.
func propErr(arg string, err error) error {
	if e, ok := err.(*sdk.Error); ok && (e.Required == "" || e.Required == "value") {
		e.Required = arg
		return e
	}
	if nodeedit.UnknownProperty(err) {
		return &sdk.Error{Code: sdk.CodeInvalidArgument, Required: arg, Message: err.Error(), Hint: "see the class's properties with godot_describe_class"}
	}
	return nodeedit.Err(err)
}

// addPlayerDryRun is what a dry run of add_player answers without adding.
func addPlayerDryRun(in addPlayerArgs) map[string]any {
	pt := in.PlayerType
	if pt == "" {
		pt = "AudioStreamPlayer"
	}
	name := in.Name
	if name == "" {
		name = pt
	}
	return map[string]any{"node_path": godot.JoinNodePath(nodeedit.NormalizePath(nodeedit.OrDot(in.ParentPath)), name),
		"player_type": pt, "scene": sdk.EditedScene}
}
