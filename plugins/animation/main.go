// Command animation is the first-party "animation" toolset: the
// animations of AnimationPlayers (their libraries, tracks and keys) and
// the graphs of AnimationTrees (state machines and blend trees).
//
// Every tool works in two modes with the same arguments:
//
//   - With a Godot editor attached it forwards to the godot-mcp addon's
//     animation commands (cmd_create_animation, cmd_add_animation_track,
//     cmd_insert_keyframe, cmd_get_animation, cmd_list_animations,
//     cmd_create_animation_tree, cmd_add_state_machine_state,
//     cmd_set_blend_tree_node) with exactly the addon's params, so the edit
//     lands in the open scene and its undo history. What the addon's
//     commands cannot carry (see editor.go) is written to the files.
//   - Headless it edits the scene (and the .tres files its libraries and
//     animations may be saved in) through the workspace: atomic,
//     compare-and-swap, one undoable action per call, dry_run previews.
//     Animations, tracks and keys are written exactly as Godot 4.6's
//     ResourceSaver writes them, and keys stay sorted by time; track paths
//     are checked against the scene's nodes (relative to the player's
//     root_node) and properties against the class database, and key values
//     are converted to the property's type.
//
// See docs/toolsets/animation.md.
//
// Install it as godot-mcp-toolset-animation in the plugins directory.
package main

import (
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

func main() {
	sdk.Serve(Toolset())
}

// Toolset returns the animation toolset.
func Toolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name:    "animation",
		Version: "0.1.0",
		Description: "AnimationPlayer animations (libraries, tracks, keyframes) and AnimationTree state machines and blend trees, " +
			"in the attached Godot editor or headless on the scene files.",
		Godot: ">= 4.0, < 5.0",
		Warm:  classdb.Warm,
		Tools: []sdk.Tool{
			sdk.NewTool("create",
				"Create an empty animation name (length seconds, default 1; loop_mode none/linear/pingpong; step) in the AnimationPlayer at node_path: "+
					"in its default library \"\" (created when missing) or in library (the animation is then called library/name); or as a .tres with resource_path. "+
					"Next: godot_animation_add_track, then godot_animation_insert_keyframe.",
				sdk.Mutating, createAnimation, sdk.EditorFunc(createEditor), sdk.WithTitle("Create an animation")),
			sdk.NewTool("add_track",
				"Add a track to an animation: track_type value (default), position_3d, rotation_3d, scale_3d, method, bezier, audio or animation, "+
					"targeting track_path (\"Sprite2D:position\" for value and bezier tracks; the node alone for the others), relative to the player's root_node. "+
					"Headless the node must exist and the property must be its class's (or its script's). Answers the track's index for godot_animation_insert_keyframe.",
				sdk.Mutating, addTrack, sdk.EditorFunc(addTrackEditor), sdk.WithTitle("Add an animation track")),
			sdk.NewTool("insert_keyframe",
				"Insert a key on track at time with value (converted to the animated property's type: Vector2 as [x, y], Color as \"#ff0000\", ...; "+
					"method keys as {\"method\", \"args\"}) and easing (the key's transition, default 1). A key at the same time is replaced; keys stay sorted by time. "+
					"Read the result with godot_animation_get.",
				sdk.Mutating, insertKeyframe, sdk.EditorFunc(insertKeyframeEditor), sdk.WithTitle("Insert a keyframe")),
			sdk.NewTool("get",
				"Read an animation of the AnimationPlayer at node_path (animation_name; or a .tres with resource_path): length, loop_mode, step and each track "+
					"(index, type, path, interpolation, keys with time, value and transition).",
				sdk.ReadOnly, getAnimation, sdk.EditorFunc(getEditor), sdk.WithTitle("Read an animation")),
			sdk.NewTool("list_animations",
				"List the animations of the AnimationPlayer at node_path, by the names the player gives them (\"walk\", \"library/walk\"), and its libraries. "+
					"Read one with godot_animation_get.",
				sdk.ReadOnly, listAnimations, sdk.EditorFunc(listEditor), sdk.WithTitle("List animations")),
			sdk.NewTool("create_tree",
				"Add an AnimationTree under parent_path with a root_type root (AnimationNodeStateMachine, the default, or AnimationNodeBlendTree), "+
					"playing the animations of anim_player (a path from the new tree, e.g. \"../AnimationPlayer\"). "+
					"Next: godot_animation_add_state_machine_state or godot_animation_set_blend_tree_node.",
				sdk.Mutating, createTree, sdk.EditorFunc(createTreeEditor), sdk.DryRunAnswer(createTreeDryRun), sdk.WithTitle("Create an AnimationTree")),
			sdk.NewTool("add_state_machine_state",
				"Add a state state_name playing animation to the state machine root of the AnimationTree at tree_path. "+
					"Connect states with godot_animation_add_state_machine_transition (from \"Start\" for the first state).",
				sdk.Mutating, addState, sdk.EditorFunc(addStateEditor), sdk.WithTitle("Add a state machine state")),
			sdk.NewTool("add_state_machine_transition",
				"Add a transition from one state to another (\"Start\" and \"End\" included) to the state machine root of the AnimationTree at tree_path, "+
					"with switch_mode, advance_mode (auto from Start), advance_condition (a parameters/conditions/<name> boolean) and xfade_time. "+
					"Edits the scene's file in both modes (the addon has no transition command); with an editor attached, save the scene first.",
				sdk.Mutating, addTransition, sdk.AnyMode(), sdk.WithTitle("Add a state machine transition")),
			sdk.NewTool("set_blend_tree_node",
				"Add an AnimationNode (node_type, e.g. AnimationNodeAnimation with animation, AnimationNodeBlend2) named node_name to the blend tree root "+
					"of the AnimationTree at tree_path, optionally connected into connect_to's input to_port (\"output\" is the tree's output).",
				sdk.Mutating, setBlendTreeNode, sdk.EditorFunc(setBlendTreeNodeEditor), sdk.WithTitle("Add a blend tree node")),
		},
	}
}
