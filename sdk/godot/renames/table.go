package renames

import "strings"

// table is every rename, one kind after another. Each block is written
// "old new [where]" a line, where is the Godot 4 class (or classes, comma
// separated) a member rename applies to. The facts come from the rename
// lists of Godot's 3-to-4 project converter; renames that converter leaves
// out because they are ambiguous are left out here too.
var table = concat(
	block(KindClass, `
Area Area3D
ARVRAnchor XRAnchor3D
ARVRCamera XRCamera3D
ARVRController XRController3D
ARVRInterface XRInterface
ARVROrigin XROrigin3D
ARVRPositionalTracker XRPositionalTracker
ARVRServer XRServer
AStar AStar3D
AnimatedSprite AnimatedSprite2D
AudioStreamOGGVorbis AudioStreamOggVorbis
AudioStreamRandomPitch AudioStreamRandomizer
AudioStreamSample AudioStreamWAV
BakedLightmap LightmapGI
BakedLightmapData LightmapGIData
BitmapFont FontFile
BoneAttachment BoneAttachment3D
BoxShape BoxShape3D
CPUParticles CPUParticles3D
CSGBox CSGBox3D
CSGCombiner CSGCombiner3D
CSGCylinder CSGCylinder3D
CSGMesh CSGMesh3D
CSGPolygon CSGPolygon3D
CSGPrimitive CSGPrimitive3D
CSGShape CSGShape3D
CSGSphere CSGSphere3D
CSGTorus CSGTorus3D
Camera Camera3D
CapsuleShape CapsuleShape3D
ClippedCamera Camera3D
CollisionObject CollisionObject3D
CollisionPolygon CollisionPolygon3D
CollisionShape CollisionShape3D
ConcavePolygonShape ConcavePolygonShape3D
ConeTwistJoint ConeTwistJoint3D
ConvexPolygonShape ConvexPolygonShape3D
CubeMap Cubemap
CubeMesh BoxMesh
CylinderShape CylinderShape3D
DirectionalLight DirectionalLight3D
Directory DirAccess
DynamicFont FontFile
DynamicFontData FontFile
ExternalTexture ImageTexture
GIProbe VoxelGI
GIProbeData VoxelGIData
Generic6DOFJoint Generic6DOFJoint3D
GeometryInstance GeometryInstance3D
GradientTexture GradientTexture2D
HeightMapShape HeightMapShape3D
HingeJoint HingeJoint3D
ImmediateGeometry ImmediateMesh
InterpolatedCamera Camera3D
JSONParseResult JSON
Joint Joint3D
KinematicBody CharacterBody3D
KinematicBody2D CharacterBody2D
KinematicCollision KinematicCollision3D
LargeTexture ImageTexture
Light Light3D
Light2D PointLight2D
LineShape2D WorldBoundaryShape2D
Listener AudioListener3D
Listener2D AudioListener2D
MeshInstance MeshInstance3D
MultiMeshInstance MultiMeshInstance3D
Navigation2DServer NavigationServer2D
NavigationAgent NavigationAgent3D
NavigationMeshInstance NavigationRegion3D
NavigationObstacle NavigationObstacle3D
NavigationPolygonInstance NavigationRegion2D
NavigationRegion NavigationRegion3D
NavigationServer NavigationServer3D
NetworkedMultiplayerENet ENetMultiplayerPeer
NetworkedMultiplayerPeer MultiplayerPeer
Occluder OccluderInstance3D
OmniLight OmniLight3D
OpenSimplexNoise FastNoiseLite
PanoramaSky Sky
Particles GPUParticles3D
Particles2D GPUParticles2D
ParticlesMaterial ParticleProcessMaterial
Path Path3D
PathFollow PathFollow3D
PhysicalBone PhysicalBone3D
Physics2DDirectBodyState PhysicsDirectBodyState2D
Physics2DDirectSpaceState PhysicsDirectSpaceState2D
Physics2DServer PhysicsServer2D
Physics2DShapeQueryParameters PhysicsShapeQueryParameters2D
Physics2DTestMotionResult PhysicsTestMotionResult2D
PhysicsBody PhysicsBody3D
PhysicsDirectBodyState PhysicsDirectBodyState3D
PhysicsDirectSpaceState PhysicsDirectSpaceState3D
PhysicsServer PhysicsServer3D
PhysicsShapeQueryParameters PhysicsShapeQueryParameters3D
PinJoint PinJoint3D
PlaneShape WorldBoundaryShape3D
PopupDialog Popup
Position2D Marker2D
Position3D Marker3D
ProceduralSky Sky
RayCast RayCast3D
RayShape SeparationRayShape3D
RayShape2D SeparationRayShape2D
Reference RefCounted
RemoteTransform RemoteTransform3D
ResourceInteractiveLoader ResourceLoader
RigidBody RigidBody3D
SceneTreeTween Tween
Shape Shape3D
ShortCut Shortcut
Skeleton Skeleton3D
SkeletonIK SkeletonIK3D
SliderJoint SliderJoint3D
SoftBody SoftBody3D
Spatial Node3D
SpatialMaterial StandardMaterial3D
SphereShape SphereShape3D
SpotLight SpotLight3D
SpringArm SpringArm3D
Sprite Sprite2D
StaticBody StaticBody3D
StreamPeerSSL StreamPeerTLS
StreamTexture CompressedTexture2D
TCP_Server TCPServer
Tabs TabBar
Texture Texture2D
TextureArray Texture2DArray
TextureProgress TextureProgressBar
ToolButton Button
VehicleBody VehicleBody3D
VehicleWheel VehicleWheel3D
VideoPlayer VideoStreamPlayer
ViewportContainer SubViewportContainer
VisibilityEnabler VisibleOnScreenEnabler3D
VisibilityEnabler2D VisibleOnScreenEnabler2D
VisibilityNotifier VisibleOnScreenNotifier3D
VisibilityNotifier2D VisibleOnScreenNotifier2D
VisualInstance VisualInstance3D
VisualServer RenderingServer
WindowDialog Window
World World3D
YSort Node2D
`),
	block(KindProperty, `
bbcode_text text RichTextLabel
caret_blink_speed caret_blink_interval TextEdit,LineEdit
caret_position caret_column LineEdit
cast_to target_position RayCast2D,RayCast3D
contacts_reported max_contacts_reported RigidBody2D,RigidBody3D
drag_margin_bottom drag_bottom_margin Camera2D
drag_margin_h_enabled drag_horizontal_enabled Camera2D
drag_margin_left drag_left_margin Camera2D
drag_margin_right drag_right_margin Camera2D
drag_margin_top drag_top_margin Camera2D
drag_margin_v_enabled drag_vertical_enabled Camera2D
enabled_focus_mode focus_mode BaseButton
extents size RectangleShape2D,BoxShape3D,ReflectionProbe,Decal,FogVolume,VoxelGI
focus_neighbour_bottom focus_neighbor_bottom Control
focus_neighbour_left focus_neighbor_left Control
focus_neighbour_right focus_neighbor_right Control
focus_neighbour_top focus_neighbor_top Control
follow_viewport_enable follow_viewport_enabled CanvasLayer
global_translation global_position Node3D
gravity_vec gravity_direction Area2D,Area3D
hint_tooltip tooltip_text Control
icon_align icon_alignment Button
invert_enable invert_enabled Polygon2D
margin_bottom offset_bottom Control
margin_left offset_left Control
margin_right offset_right Control
margin_top offset_top Control
mid_height height CapsuleMesh
neighbor_dist neighbor_distance NavigationAgent2D,NavigationAgent3D
octaves fractal_octaves FastNoiseLite
offset_h drag_horizontal_offset Camera2D
offset_v drag_vertical_offset Camera2D
oneshot one_shot AnimatedTexture
pause_mode process_mode Node
physical_scancode physical_keycode InputEventKey
popup_exclusive exclusive Window
rect_clip_content clip_contents Control
rect_global_position global_position Control
rect_min_size custom_minimum_size Control
rect_pivot_offset pivot_offset Control
rect_position position Control
rect_rotation rotation Control
rect_scale scale Control
rect_size size Control
region_filter_clip region_filter_clip_enabled Sprite2D
scancode keycode InputEventKey
smoothing_enabled position_smoothing_enabled Camera2D
smoothing_speed position_smoothing_speed Camera2D
ss_reflections_enabled ssr_enabled Environment
ss_reflections_max_steps ssr_max_steps Environment
tab_align tab_alignment TabContainer
toplevel top_level CanvasItem
translation position Node3D
unit_db volume_db AudioStreamPlayer3D
unit_offset progress_ratio PathFollow2D,PathFollow3D
offset progress PathFollow2D,PathFollow3D
filename scene_file_path Node
frames sprite_frames AnimatedSprite2D,AnimatedSprite3D
pressed button_pressed BaseButton
zfar far Camera3D
znear near Camera3D
`),
	[]Rename{
		{Kind: KindProperty, Old: "autowrap", New: "autowrap_mode", Where: "Label", Note: "a bool became an enum: autowrap=true is autowrap_mode=3 (TextServer.AUTOWRAP_WORD_SMART)"},
		{Kind: KindProperty, Old: "rect_rotation", New: "rotation_degrees", Where: "Control", Note: "rotation is in radians; rotation_degrees keeps degrees"},
	},
	block(KindMethod, `
add_child_below_node add_sibling Node
add_color_override add_theme_color_override Control
add_constant_override add_theme_constant_override Control
add_font_override add_theme_font_override Control
add_icon_override add_theme_icon_override Control
add_stylebox_override add_theme_stylebox_override Control
add_force apply_force RigidBody2D,RigidBody3D
add_central_force apply_central_force RigidBody2D,RigidBody3D
add_torque apply_torque RigidBody2D,RigidBody3D
can_instance can_instantiate PackedScene
change_scene change_scene_to_file SceneTree
change_scene_to change_scene_to_packed SceneTree
get_action_list action_get_events InputMap
get_cast_to get_target_position RayCast2D,RayCast3D
get_collision_layer_bit get_collision_layer_value CollisionObject2D,CollisionObject3D
get_collision_mask_bit get_collision_mask_value CollisionObject2D,CollisionObject3D
set_collision_layer_bit set_collision_layer_value CollisionObject2D,CollisionObject3D
set_collision_mask_bit set_collision_mask_value CollisionObject2D,CollisionObject3D
get_network_master get_multiplayer_authority Node
set_network_master set_multiplayer_authority Node
is_network_master is_multiplayer_authority Node
get_shader_param get_shader_parameter ShaderMaterial
set_shader_param set_shader_parameter ShaderMaterial
get_surface_material get_surface_override_material MeshInstance3D
set_surface_material set_surface_override_material MeshInstance3D
get_translation get_position Node3D
set_translation set_position Node3D
get_world get_world_3d Viewport,Node3D
instance instantiate PackedScene
is_a_parent_of is_ancestor_of Node
make_convex_from_brothers make_convex_from_siblings CollisionShape3D
raise move_to_front CanvasItem
set_as_toplevel set_as_top_level CanvasItem
update queue_redraw CanvasItem
world_to_map local_to_map TileMap,GridMap
map_to_world map_to_local TileMap,GridMap
warp_mouse_position warp_mouse Input
clamped limit_length Vector2
linear_interpolate lerp Vector2,Vector3,Color
find_last rfind String,Array
is_valid_integer is_valid_int String
bytes2var bytes_to_var @GlobalScope
db2linear db_to_linear @GlobalScope
deg2rad deg_to_rad @GlobalScope
linear2db linear_to_db @GlobalScope
rad2deg rad_to_deg @GlobalScope
rand_range randf_range @GlobalScope
range_lerp remap @GlobalScope
stepify snapped @GlobalScope
str2var str_to_var @GlobalScope
var2str var_to_str @GlobalScope
var2bytes var_to_bytes @GlobalScope
dict2inst dict_to_inst @GDScript
inst2dict inst_to_dict @GDScript
`),
	block(KindSignal, `
about_to_show about_to_popup Popup
cancelled canceled AcceptDialog
network_peer_connected peer_connected MultiplayerAPI
network_peer_disconnected peer_disconnected MultiplayerAPI
node_unselected node_deselected GraphEdit
offset_changed position_offset_changed GraphNode
tab_close tab_closed TabBar
tab_hover tab_hovered TabBar
text_entered text_submitted LineEdit
`),
	block(KindConstant, `
BUTTON_LEFT MOUSE_BUTTON_LEFT @GlobalScope
BUTTON_RIGHT MOUSE_BUTTON_RIGHT @GlobalScope
BUTTON_MIDDLE MOUSE_BUTTON_MIDDLE @GlobalScope
BUTTON_WHEEL_UP MOUSE_BUTTON_WHEEL_UP @GlobalScope
BUTTON_WHEEL_DOWN MOUSE_BUTTON_WHEEL_DOWN @GlobalScope
BUTTON_MASK_LEFT MOUSE_BUTTON_MASK_LEFT @GlobalScope
BUTTON_MASK_RIGHT MOUSE_BUTTON_MASK_RIGHT @GlobalScope
KEY_CONTROL KEY_CTRL @GlobalScope
TYPE_REAL TYPE_FLOAT @GlobalScope
TYPE_QUAT TYPE_QUATERNION @GlobalScope
TYPE_TRANSFORM TYPE_TRANSFORM3D @GlobalScope
TYPE_RAW_ARRAY TYPE_PACKED_BYTE_ARRAY @GlobalScope
TYPE_INT_ARRAY TYPE_PACKED_INT32_ARRAY @GlobalScope
TYPE_REAL_ARRAY TYPE_PACKED_FLOAT32_ARRAY @GlobalScope
TYPE_STRING_ARRAY TYPE_PACKED_STRING_ARRAY @GlobalScope
TYPE_VECTOR2_ARRAY TYPE_PACKED_VECTOR2_ARRAY @GlobalScope
TYPE_VECTOR3_ARRAY TYPE_PACKED_VECTOR3_ARRAY @GlobalScope
TYPE_COLOR_ARRAY TYPE_PACKED_COLOR_ARRAY @GlobalScope
PAUSE_MODE_INHERIT PROCESS_MODE_INHERIT Node
PAUSE_MODE_PROCESS PROCESS_MODE_ALWAYS Node
PAUSE_MODE_STOP PROCESS_MODE_PAUSABLE Node
PauseMode ProcessMode Node
CONNECT_ONESHOT CONNECT_ONE_SHOT Object
NOTIFICATION_INSTANCED NOTIFICATION_SCENE_INSTANTIATED Node
NOTIFICATION_PATH_CHANGED NOTIFICATION_PATH_RENAMED Node
MODE_STATIC FREEZE_MODE_STATIC RigidBody2D,RigidBody3D
MODE_KINEMATIC FREEZE_MODE_KINEMATIC RigidBody2D,RigidBody3D
MODE_OPEN_FILE FILE_MODE_OPEN_FILE FileDialog
MODE_OPEN_FILES FILE_MODE_OPEN_FILES FileDialog
MODE_OPEN_DIR FILE_MODE_OPEN_DIR FileDialog
MODE_OPEN_ANY FILE_MODE_OPEN_ANY FileDialog
MODE_SAVE_FILE FILE_MODE_SAVE_FILE FileDialog
ALIGN_BEGIN ALIGNMENT_BEGIN AspectRatioContainer
ALIGN_CENTER ALIGNMENT_CENTER AspectRatioContainer
ALIGN_END ALIGNMENT_END AspectRatioContainer
`),
	block(KindSetting, `
application/config/window_title application/config/name
display/window/size/width display/window/size/viewport_width
display/window/size/height display/window/size/viewport_height
display/window/size/test_width display/window/size/window_width_override
display/window/size/test_height display/window/size/window_height_override
display/window/vsync/use_vsync display/window/vsync/vsync_mode
physics/common/physics_fps physics/common/physics_ticks_per_second
rendering/quality/driver/driver_name rendering/renderer/rendering_method
rendering/environment/default_clear_color rendering/environment/defaults/default_clear_color
rendering/environment/default_environment rendering/environment/defaults/default_environment
rendering/quality/2d/use_pixel_snap rendering/2d/snap/snap_2d_vertices_to_pixel
audio/default_bus_layout audio/buses/default_bus_layout
`),
)

// syntax are the Godot 3 GDScript constructs Syntax finds. pattern is
// matched against a line without its comment; its first group, when it
// has one, is where the finding starts.
var syntax = []struct{ pattern, old, new, note string }{
	{`^\s*(export)\s*(\(.*\))?\s*var\b`, "export var", "@export var", "an export hint such as export(int, 0, 10) becomes @export_range(0, 10)"},
	{`^\s*(onready)\s+var\b`, "onready var", "@onready var", ""},
	{`^\s*(tool)\s*$`, "tool", "@tool", ""},
	{`\b(yield)\s*\(`, "yield(obj, \"signal\")", "await obj.signal", ""},
	{`\bvar\b[^#]*\b(setget)\b`, "setget", "var x: set = _set_x, get = _get_x", "or a property with set(value): and get: blocks"},
	{`^\s*(remote|master|puppet|remotesync|mastersync|puppetsync)\s+(func|var)\b`, "remote func", "@rpc func", "the network keyword became arguments of @rpc (\"any_peer\", \"call_local\", ...)"},
	{`\b(\.connect)\s*\(\s*"[^"]*"\s*,\s*[A-Za-z_]\w*\s*,\s*"`, "connect(\"signal\", target, \"method\")", "signal_name.connect(method)", "connect takes a Callable in Godot 4"},
	{`^\s*(class_name\s+\w+\s*,)`, "class_name Name, \"res://icon.png\"", "@icon(\"res://icon.png\") class_name Name", ""},
}

// concat joins the blocks in order.
func concat(blocks ...[]Rename) []Rename {
	var out []Rename
	for _, b := range blocks {
		out = append(out, b...)
	}
	return out
}

// block reads "old new [where]" lines into renames of kind k.
func block(k Kind, text string) []Rename {
	var out []Rename
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		switch len(f) {
		case 0:
			continue
		case 2:
			out = append(out, Rename{Kind: k, Old: f[0], New: f[1]})
		case 3:
			out = append(out, Rename{Kind: k, Old: f[0], New: f[1], Where: strings.ReplaceAll(f[2], ",", ", ")})
		default:
			panic("renames: bad table line: " + line) // a bug in this file
		}
	}
	return out
}
