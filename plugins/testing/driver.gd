extends Node
# The godot-mcp test driver: an autoload added to a one-shot run of the
# game. It reads its plan (JSON) from the pack, plays it frame by frame
# against the running game, prints one "GODOT_MCP_STEP {json}" line per
# step and one "GODOT_MCP_DONE {json}" line, and quits.
#
# Plan: {"spawn_scene", "instances", "seed", "frames", "random_events",
# "actions", "steps": [{"type": "wait"|"key"|"action"|"mouse"|"motion"|
# "assert"|"screenshot", ...}], "max_frames"}.

const PLAN_PATH := "res://.godot/godot-mcp/test_plan.json"

var _plan: Dictionary = {}
var _rng := RandomNumberGenerator.new()
var _frame := 0
var _tick := 0
var _last_us := 0
var _frame_us: Array = []
var _process_ms: Array = []
var _physics_ms: Array = []
var _peak := {}
var _step := 0
var _wait_frames := 0
var _wait_until_ms := 0
var _busy := false
var _events_sent := 0
var _fuzz_at: Array = []
var _spawned := 0
var _done := false


func _ready() -> void:
	process_mode = Node.PROCESS_MODE_ALWAYS
	process_priority = -1000000
	process_physics_priority = -1000000
	var text := FileAccess.get_file_as_string(PLAN_PATH)
	var parsed = JSON.parse_string(text)
	if typeof(parsed) != TYPE_DICTIONARY:
		printerr("godot-mcp driver: no plan at " + PLAN_PATH)
		get_tree().quit(3)
		return
	_plan = parsed
	_rng.seed = int(_plan.get("seed", 0))
	var frames := int(_plan.get("frames", 0))
	var n := int(_plan.get("random_events", 0))
	for i in n:
		_fuzz_at.append(1 + int(floor(float(i) * maxi(frames, 1) / maxi(n, 1))))


func _process(_delta: float) -> void:
	if _done:
		return
	_frame += 1
	var now := Time.get_ticks_usec()
	if _last_us > 0:
		_frame_us.append(now - _last_us)
	_last_us = now
	if _frame > 1:
		_process_ms.append(Performance.get_monitor(Performance.TIME_PROCESS) * 1000.0)
		_physics_ms.append(Performance.get_monitor(Performance.TIME_PHYSICS_PROCESS) * 1000.0)
	_sample_peaks()
	if _frame == 1:
		_spawn()
	while _fuzz_at.size() > 0 and _fuzz_at[0] <= _frame:
		_fuzz_at.pop_front()
		_random_event()
	var steps: Array = _plan.get("steps", [])
	if steps.is_empty() and _frame >= int(_plan.get("frames", 0)) + 1:
		_finish()


# Steps run on physics ticks, before the game's own _physics_process (the
# driver's priority is the lowest): a tick is a fixed step of game time,
# so the same steps give the same game state every run, however fast the
# frames are drawn.
func _physics_process(_delta: float) -> void:
	if _done or _busy:
		return
	_tick += 1
	var steps: Array = _plan.get("steps", [])
	if steps.is_empty():
		return
	if _step < steps.size():
		_run_steps(steps)
	if _step >= steps.size() and not _busy and _wait_frames == 0 and _wait_until_ms == 0:
		_finish()


func _run_steps(steps: Array) -> void:
	if _wait_frames > 0:
		_wait_frames -= 1
		if _wait_frames > 0:
			return
	if _wait_until_ms > 0:
		if Time.get_ticks_msec() < _wait_until_ms:
			return
		_wait_until_ms = 0
	while _step < steps.size():
		var s: Dictionary = steps[_step]
		var i := _step
		_step += 1
		var kind := str(s.get("type", ""))
		if kind == "wait":
			_wait_frames = int(s.get("frames", 0))
			var ms := int(s.get("ms", 0))
			if ms > 0:
				_wait_until_ms = Time.get_ticks_msec() + ms
			_emit({"index": i, "type": kind, "ok": true, "frame": _tick})
			if _wait_frames > 0 or _wait_until_ms > 0:
				return
		elif kind == "screenshot":
			_busy = true
			_screenshot(i, s)
			return
		elif kind == "assert":
			_emit(_read(i, s))
		else:
			var err := _input(s)
			_emit({"index": i, "type": kind, "ok": err == "", "error": err, "frame": _tick})


func _emit(r: Dictionary) -> void:
	print("GODOT_MCP_STEP " + JSON.stringify(r))


func _finish() -> void:
	_done = true
	var scene := get_tree().current_scene
	var out := {
		"frames": _frame,
		"ticks": _tick,
		"frame_us": _frame_us,
		"process_ms": _process_ms,
		"physics_ms": _physics_ms,
		"peak": _peak,
		"final": _monitors(),
		"spawned": _spawned,
		"events_sent": _events_sent,
		"scene": scene.scene_file_path if scene else "",
		"physics_ticks_per_second": Engine.physics_ticks_per_second,
	}
	print("GODOT_MCP_DONE " + JSON.stringify(out))
	get_tree().quit(0)


func _monitors() -> Dictionary:
	return {
		"memory_static": Performance.get_monitor(Performance.MEMORY_STATIC),
		"memory_static_max": Performance.get_monitor(Performance.MEMORY_STATIC_MAX),
		"object_count": Performance.get_monitor(Performance.OBJECT_COUNT),
		"object_resource_count": Performance.get_monitor(Performance.OBJECT_RESOURCE_COUNT),
		"object_node_count": Performance.get_monitor(Performance.OBJECT_NODE_COUNT),
		"object_orphan_node_count": Performance.get_monitor(Performance.OBJECT_ORPHAN_NODE_COUNT),
		"render_total_draw_calls_in_frame": Performance.get_monitor(Performance.RENDER_TOTAL_DRAW_CALLS_IN_FRAME),
		"render_total_objects_in_frame": Performance.get_monitor(Performance.RENDER_TOTAL_OBJECTS_IN_FRAME),
		"physics_2d_active_objects": Performance.get_monitor(Performance.PHYSICS_2D_ACTIVE_OBJECTS),
		"physics_3d_active_objects": Performance.get_monitor(Performance.PHYSICS_3D_ACTIVE_OBJECTS),
	}


func _sample_peaks() -> void:
	var m := _monitors()
	for k in m:
		if not _peak.has(k) or m[k] > _peak[k]:
			_peak[k] = m[k]


func _spawn() -> void:
	var path := str(_plan.get("spawn_scene", ""))
	var n := int(_plan.get("instances", 0))
	if path == "" or n <= 0:
		return
	var packed = load(path)
	if not (packed is PackedScene):
		printerr("godot-mcp driver: cannot load the scene to spawn: " + path)
		return
	var parent: Node = get_tree().current_scene
	if parent == null:
		parent = get_tree().root
	var size := get_viewport().get_visible_rect().size
	for i in n:
		var node: Node = packed.instantiate()
		if node is Node2D:
			node.position = Vector2(_rng.randf() * size.x, _rng.randf() * size.y)
		parent.add_child(node)
		_spawned += 1


func _resolve(path: String) -> Node:
	if path.begins_with("/"):
		return get_node_or_null(NodePath(path))
	var scene := get_tree().current_scene
	if scene == null:
		return null
	if path == "" or path == ".":
		return scene
	return scene.get_node_or_null(NodePath(path))


func _read(i: int, s: Dictionary) -> Dictionary:
	var path := str(s.get("node_path", ""))
	var prop := str(s.get("property", ""))
	var out := {"index": i, "type": "assert", "node_path": path, "property": prop, "frame": _tick, "ok": true, "error": ""}
	var n := _resolve(path)
	if n == null:
		out["ok"] = false
		out["error"] = "node not found at '%s'" % path
		return out
	var v = n.get_indexed(NodePath(prop))
	if v == null and not (prop.get_slice(":", 0) in n):
		out["ok"] = false
		out["error"] = "no property '%s' on %s (%s)" % [prop, path, n.get_class()]
		return out
	out["actual"] = _safe(v)
	return out


func _screenshot(i: int, s: Dictionary) -> void:
	await RenderingServer.frame_post_draw
	var tex := get_viewport().get_texture()
	var img: Image = tex.get_image() if tex else null
	if img == null or img.is_empty():
		_emit({"index": i, "type": "screenshot", "ok": false, "error": "the game's viewport has no rendered frame", "frame": _tick})
	else:
		_emit({"index": i, "type": "screenshot", "ok": true, "frame": _tick, "width": img.get_width(), "height": img.get_height(),
			"base64": Marshalls.raw_to_base64(img.save_png_to_buffer())})
	_busy = false


func _input(s: Dictionary) -> String:
	var kind := str(s.get("type", ""))
	var pressed := bool(s.get("pressed", true))
	match kind:
		"key":
			var key := str(s.get("key", ""))
			var code := OS.find_keycode_from_string(key)
			if code == KEY_NONE:
				return "unknown key '%s'" % key
			var ev := InputEventKey.new()
			ev.keycode = code
			ev.physical_keycode = code
			ev.pressed = pressed
			ev.shift_pressed = bool(s.get("shift", false))
			ev.ctrl_pressed = bool(s.get("ctrl", false))
			ev.alt_pressed = bool(s.get("alt", false))
			ev.meta_pressed = bool(s.get("meta", false))
			Input.parse_input_event(ev)
		"action":
			var action := str(s.get("action", ""))
			if not InputMap.has_action(action):
				return "no input action '%s' in the project" % action
			var ev := InputEventAction.new()
			ev.action = action
			ev.pressed = pressed
			ev.strength = float(s.get("strength", 1.0)) if pressed else 0.0
			Input.parse_input_event(ev)
		"mouse":
			var ev := InputEventMouseButton.new()
			var buttons := {"left": MOUSE_BUTTON_LEFT, "right": MOUSE_BUTTON_RIGHT, "middle": MOUSE_BUTTON_MIDDLE,
				"wheel_up": MOUSE_BUTTON_WHEEL_UP, "wheel_down": MOUSE_BUTTON_WHEEL_DOWN}
			var b := str(s.get("button", "left"))
			if not buttons.has(b):
				return "unknown mouse button '%s'" % b
			ev.button_index = buttons[b]
			ev.pressed = pressed
			ev.position = Vector2(float(s.get("x", 0)), float(s.get("y", 0)))
			ev.global_position = ev.position
			Input.parse_input_event(ev)
		"motion":
			var ev := InputEventMouseMotion.new()
			ev.position = Vector2(float(s.get("x", 0)), float(s.get("y", 0)))
			ev.global_position = ev.position
			Input.parse_input_event(ev)
		_:
			return "unknown step type '%s'" % kind
	# Handled now, not at the next drawn frame: the input lands on this
	# physics tick whatever the frame rate.
	Input.flush_buffered_events()
	_events_sent += 1
	return ""


func _random_event() -> void:
	var pool: Array = _plan.get("actions", [])
	if pool.is_empty():
		return
	var choice := str(pool[_rng.randi_range(0, pool.size() - 1)])
	var size := get_viewport().get_visible_rect().size
	var pressed := _rng.randf() < 0.5
	if choice == "click":
		var at := {"x": _rng.randf() * size.x, "y": _rng.randf() * size.y}
		_input({"type": "mouse", "button": "left", "pressed": true, "x": at.x, "y": at.y})
		_input({"type": "mouse", "button": "left", "pressed": false, "x": at.x, "y": at.y})
	elif InputMap.has_action(choice):
		_input({"type": "action", "action": choice, "pressed": pressed})
	else:
		_input({"type": "key", "key": choice, "pressed": pressed})


func _safe(v: Variant) -> Variant:
	match typeof(v):
		TYPE_VECTOR2, TYPE_VECTOR2I:
			return {"x": v.x, "y": v.y}
		TYPE_VECTOR3, TYPE_VECTOR3I:
			return {"x": v.x, "y": v.y, "z": v.z}
		TYPE_COLOR:
			return {"r": v.r, "g": v.g, "b": v.b, "a": v.a}
		TYPE_BOOL, TYPE_INT, TYPE_FLOAT, TYPE_STRING, TYPE_NIL:
			return v
		TYPE_STRING_NAME, TYPE_NODE_PATH:
			return str(v)
		TYPE_ARRAY:
			var a := []
			for x in v:
				a.append(_safe(x))
			return a
		_:
			return var_to_str(v)
