extends SceneTree
# The godot-mcp stress driver for Godot 3, run as the main loop (-s): it
# changes to the scene, spawns the copies, runs the frames with random
# input, and prints one "GODOT_MCP_DONE {json}" line and quits. Its plan
# is the JSON file named by the one user argument after "--".

var _plan = {}
var _rng = RandomNumberGenerator.new()
var _frame = 0
var _started = 0
var _last_us = 0
var _frame_us = []
var _process_ms = []
var _physics_ms = []
var _peak = {}
var _fuzz_at = []
var _events_sent = 0
var _spawned = 0
var _done = false


func _init():
	var args = OS.get_cmdline_args()
	var path = ""
	for i in range(args.size()):
		if args[i].begins_with("--godot-mcp-plan="):
			path = args[i].substr(len("--godot-mcp-plan="))
	var f = File.new()
	if path == "" or f.open(path, File.READ) != OK:
		printerr("godot-mcp driver: no plan")
		quit(3)
		return
	var parsed = parse_json(f.get_as_text())
	f.close()
	if typeof(parsed) != TYPE_DICTIONARY:
		printerr("godot-mcp driver: the plan is not JSON")
		quit(3)
		return
	_plan = parsed
	_rng.seed = int(_plan.get("seed", 0))
	var frames = int(_plan.get("frames", 0))
	var n = int(_plan.get("random_events", 0))
	for i in range(n):
		_fuzz_at.append(1 + int(floor(float(i) * max(frames, 1) / max(n, 1))))


func _idle(_delta):
	if _done or _plan.empty():
		return
	if _started == 0:
		_started = 1
		var scene = str(_plan.get("scene", ""))
		if scene == "":
			scene = str(ProjectSettings.get_setting("application/run/main_scene"))
		if change_scene(scene) != OK:
			printerr("godot-mcp driver: cannot run the scene " + scene)
			quit(3)
		return
	if current_scene == null:
		return
	_frame += 1
	var now = OS.get_ticks_usec()
	if _last_us > 0:
		_frame_us.append(now - _last_us)
	_last_us = now
	if _frame > 1:
		_process_ms.append(Performance.get_monitor(Performance.TIME_PROCESS) * 1000.0)
		_physics_ms.append(Performance.get_monitor(Performance.TIME_PHYSICS_PROCESS) * 1000.0)
	if _frame == 1:
		_spawn()
	var m = _monitors()
	for k in m:
		if not _peak.has(k) or m[k] > _peak[k]:
			_peak[k] = m[k]
	while _fuzz_at.size() > 0 and _fuzz_at[0] <= _frame:
		_fuzz_at.pop_front()
		_random_event()
	if _frame >= int(_plan.get("frames", 0)) + 1:
		_done = true
		var out = {
			"frames": _frame, "frame_us": _frame_us, "process_ms": _process_ms, "physics_ms": _physics_ms,
			"peak": _peak, "final": _monitors(), "spawned": _spawned, "events_sent": _events_sent,
			"scene": current_scene.filename, "physics_ticks_per_second": Engine.iterations_per_second,
		}
		print("GODOT_MCP_DONE " + to_json(out))
		quit(0)


func _monitors():
	return {
		"memory_static": Performance.get_monitor(Performance.MEMORY_STATIC),
		"memory_static_max": Performance.get_monitor(Performance.MEMORY_STATIC_MAX),
		"object_count": Performance.get_monitor(Performance.OBJECT_COUNT),
		"object_resource_count": Performance.get_monitor(Performance.OBJECT_RESOURCE_COUNT),
		"object_node_count": Performance.get_monitor(Performance.OBJECT_NODE_COUNT),
		"object_orphan_node_count": Performance.get_monitor(Performance.OBJECT_ORPHAN_NODE_COUNT),
		"render_draw_calls_in_frame": Performance.get_monitor(Performance.RENDER_DRAW_CALLS_IN_FRAME),
		"render_objects_in_frame": Performance.get_monitor(Performance.RENDER_OBJECTS_IN_FRAME),
		"physics_2d_active_objects": Performance.get_monitor(Performance.PHYSICS_2D_ACTIVE_OBJECTS),
		"physics_3d_active_objects": Performance.get_monitor(Performance.PHYSICS_3D_ACTIVE_OBJECTS),
	}


func _spawn():
	var path = str(_plan.get("spawn_scene", ""))
	var n = int(_plan.get("instances", 0))
	if path == "" or n <= 0:
		return
	var packed = load(path)
	if not (packed is PackedScene):
		printerr("godot-mcp driver: cannot load the scene to spawn: " + path)
		return
	var size = root.get_visible_rect().size
	for i in range(n):
		var node = packed.instance()
		if node is Node2D:
			node.position = Vector2(_rng.randf() * size.x, _rng.randf() * size.y)
		current_scene.add_child(node)
		_spawned += 1


func _random_event():
	var pool = _plan.get("actions", [])
	if pool.empty():
		return
	var choice = str(pool[_rng.randi_range(0, pool.size() - 1)])
	var size = root.get_visible_rect().size
	var pressed = _rng.randf() < 0.5
	if choice == "click":
		var at = Vector2(_rng.randf() * size.x, _rng.randf() * size.y)
		for p in [true, false]:
			var ev = InputEventMouseButton.new()
			ev.button_index = BUTTON_LEFT
			ev.pressed = p
			ev.position = at
			ev.global_position = at
			Input.parse_input_event(ev)
			_events_sent += 1
	elif InputMap.has_action(choice):
		var ev = InputEventAction.new()
		ev.action = choice
		ev.pressed = pressed
		Input.parse_input_event(ev)
		_events_sent += 1
	else:
		var code = OS.find_scancode_from_string(choice)
		if code == 0:
			return
		var ev = InputEventKey.new()
		ev.scancode = code
		ev.pressed = pressed
		Input.parse_input_event(ev)
		_events_sent += 1
