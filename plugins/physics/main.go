// Command physics is the first-party "physics" toolset: it makes and
// configures physics bodies and areas (StaticBody, RigidBody,
// CharacterBody, AnimatableBody, Area in 2D and 3D), gives them collision
// shapes (sized to a sibling Sprite2D or MeshInstance3D on request), sets
// their collision layers and masks (by 1-based index or by the project's
// layer names) and adds raycasts.
//
// Every tool works in both modes with the reference server's names and
// arguments: with a Godot editor attached it sends the godot-mcp addon's
// cmd_setup_physics_body, cmd_setup_collision, cmd_set_physics_layers and
// cmd_add_raycast; headless it edits the scene file through the workspace
// (one undoable action per call, dry runs), with the class database
// checking every property (Godot 3 names get their Godot 4 spelling as the
// hint) and shapes and physics materials written as inline sub-resources,
// as the editor saves them. See docs/toolsets/physics.md.
//
// Install it as godot-mcp-toolset-physics in the plugins directory.
package main

import (
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

func main() {
	sdk.Serve(Toolset())
}

// Toolset returns the physics toolset.
func Toolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name:    "physics",
		Version: "0.1.0",
		Description: "Physics bodies and areas in 2D and 3D: configure or create a body (mass, gravity scale, friction and bounce), " +
			"add collision shapes (sized to a sprite or mesh), set collision layers and masks by index or layer name, add raycasts. " +
			"Works in the Godot editor when one is attached, and on the scene files (undoable with godot_undo) when none is.",
		Godot: ">= 4.0, < 5.0",
		Warm:  classdb.Warm,
		Tools: []sdk.Tool{
			sdk.NewTool("setup_body",
				"Set physics properties (mass, gravity_scale, linear_damp, freeze, motion_mode, monitoring, ...) on the body or area at node_path "+
					"(a CollisionObject2D/3D), in one undoable step; friction and bounce set its physics_material_override (an inline PhysicsMaterial). "+
					"With body_type (StaticBody2D, RigidBody3D, CharacterBody2D, Area3D, ...) the body is created first, node_path naming the new node. "+
					"Unknown properties are refused with the closest name (Godot 3 names get their Godot 4 spelling). "+
					"Next: godot_physics_setup_collision to give it a shape, godot_physics_set_layers for its layers.",
				sdk.Mutating, setupBody, sdk.EditorFunc(setupBodyEditor), sdk.WithTitle("Set up a physics body")),
			sdk.NewTool("setup_collision",
				"Add a collision shape under the body or area at node_path: a collision_node_type (CollisionShape2D/3D; default the shape's dimension) "+
					"holding a shape_type shape (RectangleShape2D, CircleShape2D, CapsuleShape2D, BoxShape3D, SphereShape3D, CapsuleShape3D, ...) with properties (size, radius, height, ...). "+
					"fit_to names a sibling Sprite2D or MeshInstance3D (path from the scene root) to size the shape to its texture size x scale or mesh AABB, and place it there. "+
					"The shape's dimension must match the body's. Next: godot_physics_set_layers.",
				sdk.Mutating, setupCollision, sdk.EditorFunc(setupCollisionEditor), sdk.WithTitle("Add a collision shape")),
			sdk.NewTool("set_layers",
				"Set the collision layer and/or mask of the body or area at node_path from 1-based layer indices (layers=[1,3] is bitmask 5) "+
					"or from the project's layer names (layer_names / mask_names, as named in Project Settings > Layer Names > 2D/3D Physics). "+
					"Omit one to leave it unchanged; [] clears it.",
				sdk.Mutating, setLayers, sdk.EditorFunc(setLayersEditor), sdk.WithTitle("Set collision layers")),
			sdk.NewTool("add_raycast",
				"Add a RayCast2D or RayCast3D (raycast_type) named name under parent_path, with properties such as target_position, collision_mask, "+
					"enabled, collide_with_areas, exclude_parent.",
				sdk.Mutating, addRaycast, sdk.EditorFunc(addRaycastEditor), sdk.DryRunAnswer(addRaycastDryRun, "created"), sdk.WithTitle("Add a raycast")),
		},
	}
}
