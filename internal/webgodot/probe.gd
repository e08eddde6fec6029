extends Node
# godot-mcp's game probe: an autoload the host adds to the pack of a game
# session (never to the user's project). The page hands it the host's
# calls through window.__mcpHandle, a callback into this script, as they
# come (between frames: the engine is single-threaded), so a call does not
# wait for the next frame; calls queued before the probe was ready are
# taken from window.__mcpTake on the first frame. Each is answered with
# window.__mcpReply(id, json). Calls: ping, scene_tree, read_property,
# monitor_property, property_samples, find_ui, capture; input, input_sequence,
# input_stats, record_input, stop_recording (input.gd-style events); time,
# step (game-time control); perf (Performance monitors over a window).

const MAX_DEPTH := 32
const MAX_SAMPLES := 300

var _win: JavaScriptObject
# Kept so the callback lives as long as the probe.
var _handle: JavaScriptObject
var _monitor := {}
var _samples: Array = []
var _remaining := 0
var _monitor_error := ""
var _last: Variant = null
var _dropped := 0
var _done: Variant = null


func _ready() -> void:
	process_mode = Node.PROCESS_MODE_ALWAYS
	process_priority = -1000000
	# First in every physics tick too: a step pauses the tree, and a
	# scheduled input event lands, before any game node runs that tick.
	process_physics_priority = -1000000
	_win = JavaScriptBridge.get_interface("window")
	_handle = JavaScriptBridge.create_callback(_on_call)
	_win.__mcpHandle = _handle


func _on_call(args: Array) -> void:
	if args.is_empty() or typeof(args[0]) != TYPE_STRING:
		return
	var c = JSON.parse_string(args[0])
	if typeof(c) == TYPE_DICTIONARY:
		_handle_call(c)


func _process(_delta: float) -> void:
	_play_process()
	_sample()
	var text = JavaScriptBridge.eval("window.__mcpTake()", true)
	if typeof(text) != TYPE_STRING or text == "":
		return
	var calls = JSON.parse_string(text)
	if typeof(calls) != TYPE_ARRAY:
		return
	for c in calls:
		if typeof(c) == TYPE_DICTIONARY:
			_handle_call(c)


func _reply(id: String, body: Dictionary) -> void:
	_win.__mcpReply(id, JSON.stringify(body))


func _handle_call(c: Dictionary) -> void:
	var id := str(c.get("id", ""))
	var p: Dictionary = c.get("params", {}) if typeof(c.get("params")) == TYPE_DICTIONARY else {}
	match str(c.get("cmd", "")):
		"ping":
			var scene := get_tree().current_scene
			_reply(id, {"ok": true, "scene": scene.scene_file_path if scene else "", "paused": get_tree().paused})
		"scene_tree":
			_reply(id, {"tree": _node(get_tree().root, 0)})
		"read_property":
			_reply(id, _read(p))
		"monitor_property":
			_reply(id, _start_monitor(p))
		"property_samples":
			_reply(id, _done if _done != null else {"ready": false, "reason": "capture_pending"})
		"find_ui":
			_reply(id, {"elements": _find_ui(p)})
		"capture":
			_capture(id, p)
		"input":
			_reply(id, _input_call(p))
		"input_sequence":
			_reply(id, _sequence_call(p))
		"input_stats":
			_reply(id, _stats())
		"record_input":
			_reply(id, _record_call(p))
		"stop_recording":
			_reply(id, _stop_recording())
		"time":
			_reply(id, _time_call(p))
		"step":
			_step_call(id, p)
		"perf":
			_perf_call(id, p)
		_:
			_reply(id, {"error": "unknown probe call '%s'" % str(c.get("cmd", ""))})


# Paths relative to the running scene, as the tools document; absolute
# ones (/root/...) as they are.
func _resolve(path: String) -> Node:
	if path.begins_with("/"):
		return get_node_or_null(NodePath(path))
	var scene := get_tree().current_scene
	if scene == null:
		return null
	if path == "" or path == ".":
		return scene
	return scene.get_node_or_null(NodePath(path))


func _node(n: Node, depth: int) -> Dictionary:
	var kids: Array = []
	if depth < MAX_DEPTH:
		for k in n.get_children():
			if k != self:
				kids.append(_node(k, depth + 1))
	return {"name": String(n.name), "type": n.get_class(), "path": String(n.get_path()), "children": kids}


func _read(p: Dictionary) -> Dictionary:
	var path := str(p.get("node_path", ""))
	var prop := str(p.get("property", ""))
	var out := {"request_id": str(p.get("request_id", "")), "node_path": path, "property": prop, "value": null, "error": "", "ready": true}
	var n := _resolve(path)
	if n == null:
		out["error"] = "node not found at '%s'" % path
	elif not (prop in n):
		out["error"] = "no property '%s' on the node" % prop
	else:
		out["value"] = _safe(n.get(prop))
	return out


func _start_monitor(p: Dictionary) -> Dictionary:
	_monitor = {
		"node_path": str(p.get("node_path", "")), "property": str(p.get("property", "")),
		"samples": clampi(int(p.get("samples", 30)), 1, MAX_SAMPLES),
		"on_change_only": bool(p.get("on_change_only", true)),
		"epsilon": clampf(float(p.get("epsilon", 0.0001)), 0.0, 1.0e9),
	}
	_samples = []
	_last = null
	_dropped = 0
	_done = null
	_monitor_error = ""
	_remaining = _monitor["samples"]
	var n := _resolve(_monitor["node_path"])
	if n == null:
		_monitor_error = "node not found at '%s'" % _monitor["node_path"]
	elif not (_monitor["property"] in n):
		_monitor_error = "no property '%s' on the node" % _monitor["property"]
	if _monitor_error != "":
		_remaining = 0
		_finish()
	return {"monitoring": true}


func _sample() -> void:
	if _remaining <= 0:
		return
	_remaining -= 1
	var n := _resolve(_monitor["node_path"])
	if n == null:
		_monitor_error = "node not found at '%s'" % _monitor["node_path"]
		_remaining = 0
	else:
		var v = _safe(n.get(_monitor["property"]))
		if _monitor["on_change_only"] and _last != null and _same(v, _last, _monitor["epsilon"]):
			_dropped += 1
		else:
			_samples.append({"frame": Engine.get_process_frames(), "value": v})
			_last = v
	if _remaining <= 0:
		_finish()


func _finish() -> void:
	_done = {
		"node_path": _monitor["node_path"], "property": _monitor["property"], "samples": _samples,
		"error": _monitor_error, "ready": true, "requested": _monitor["samples"],
		"dropped_duplicates": _dropped, "on_change_only": _monitor["on_change_only"],
	}


func _same(a: Variant, b: Variant, eps: float) -> bool:
	if typeof(a) != typeof(b):
		return false
	if typeof(a) == TYPE_FLOAT:
		return absf(a - b) <= eps
	if typeof(a) == TYPE_DICTIONARY:
		if a.size() != b.size():
			return false
		for k in a:
			if not b.has(k) or not _same(a[k], b[k], eps):
				return false
		return true
	return a == b


func _find_ui(p: Dictionary) -> Array:
	var out: Array = []
	_collect(get_tree().root, str(p.get("name_contains", "")).to_lower(), str(p.get("class_filter", "")), bool(p.get("visible_only", false)), out)
	return out


func _collect(n: Node, name_part: String, cls: String, visible_only: bool, out: Array) -> void:
	if n is Control:
		var c := n as Control
		var ok := name_part == "" or String(c.name).to_lower().contains(name_part)
		ok = ok and (cls == "" or c.is_class(cls))
		ok = ok and (not visible_only or c.is_visible_in_tree())
		if ok:
			var r := c.get_global_rect()
			var e := {
				"path": String(c.get_path()), "name": String(c.name), "node_class": c.get_class(),
				"visible": c.is_visible_in_tree(),
				"rect": {"x": r.position.x, "y": r.position.y, "w": r.size.x, "h": r.size.y},
			}
			if "text" in c:
				e["text"] = str(c.get("text"))
			out.append(e)
	for k in n.get_children():
		_collect(k, name_part, cls, visible_only, out)


# The frame is read back after the next draw, so it shows the game as it
# is now, not the frame before the call.
func _capture(id: String, p: Dictionary) -> void:
	await RenderingServer.frame_post_draw
	var tex := get_viewport().get_texture()
	var img: Image = tex.get_image() if tex else null
	if img == null or img.is_empty():
		_reply(id, {"ready": true, "error": "the game's viewport has no rendered frame"})
		return
	var w := int(p.get("width", 0))
	var h := int(p.get("height", 0))
	if w > 0 or h > 0:
		if w <= 0:
			w = maxi(1, int(round(float(img.get_width()) * h / img.get_height())))
		if h <= 0:
			h = maxi(1, int(round(float(img.get_height()) * w / img.get_width())))
		img.resize(w, h, Image.INTERPOLATE_BILINEAR)
	_reply(id, {
		"ready": true, "format": "png", "width": img.get_width(), "height": img.get_height(),
		"base64": Marshalls.raw_to_base64(img.save_png_to_buffer()),
	})


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
		_:
			return var_to_str(v)


# --- input, game time and monitors -------------------------------------
#
# Game time is counted in the probe's own units: ticks are physics ticks
# and frames are process frames that ran while the tree was not paused, so
# a pause (and the time spent between steps) never shifts a recorded or
# scheduled event. Injected events are flushed at once, so the game sees
# them in the very next tick.

const MOUSE_BUTTONS := {
	"left": MOUSE_BUTTON_LEFT, "right": MOUSE_BUTTON_RIGHT, "middle": MOUSE_BUTTON_MIDDLE,
	"wheel_up": MOUSE_BUTTON_WHEEL_UP, "wheel_down": MOUSE_BUTTON_WHEEL_DOWN,
	"wheel_left": MOUSE_BUTTON_WHEEL_LEFT, "wheel_right": MOUSE_BUTTON_WHEEL_RIGHT,
}
const MAX_SEQUENCE := 10000
const MAX_RECORDED := 10000

var _ticks := 0
var _frames := 0
var _injected := 0
var _injecting := false
var _seq: Array = []
var _recording := false
var _rec_motion := false
var _rec: Array = []
var _rec_tick0 := 0
var _rec_ms0 := 0
var _rec_dropped := 0
var _step_id := ""
var _step: Dictionary = {}
var _perf_id := ""
var _perf: Dictionary = {}


func _physics_process(_delta: float) -> void:
	_step_tick("physics")
	if get_tree().paused:
		return
	_ticks += 1
	# Events due by tick: they land before any game node runs this tick.
	var keep: Array = []
	for e in _seq:
		if e.has("tick") and _ticks - int(e["start"]) > int(e["tick"]):
			_inject(e["event"])
		else:
			keep.append(e)
	_seq = keep


func _play_process() -> void:
	_step_tick("process")
	if not get_tree().paused:
		_frames += 1
	if not _seq.is_empty():
		var now := Time.get_ticks_msec()
		var keep: Array = []
		for e in _seq:
			if e.has("ms") and now - int(e["start"]) >= int(e["ms"]):
				_inject(e["event"])
			else:
				keep.append(e)
		_seq = keep
	_perf_sample()


func _input(event: InputEvent) -> void:
	# Events that did not come from the host (the page's own, or ones the
	# game made with parse_input_event): the host's are recorded as sent.
	if _recording and not _injecting:
		var d := _describe(event)
		if not d.is_empty():
			_record(d)


# _event builds the events of one input.gd-style description, or returns
# the reason it is invalid as a String.
func _event(d: Dictionary) -> Variant:
	match str(d.get("type", "")):
		"key":
			var name := str(d.get("key", ""))
			var code := OS.find_keycode_from_string(name)
			if name == "" or code == KEY_NONE:
				return "unknown key name '%s': use Godot key names such as A, Space, Enter, Escape, Left, Shift, F1" % name
			var k := InputEventKey.new()
			k.keycode = code
			# Actions made in the editor bind physical keys by default.
			k.physical_keycode = code
			k.pressed = bool(d.get("pressed", true))
			k.shift_pressed = bool(d.get("shift", false))
			k.ctrl_pressed = bool(d.get("ctrl", false))
			k.alt_pressed = bool(d.get("alt", false))
			k.meta_pressed = bool(d.get("meta", false))
			if k.pressed and code >= 32 and code < 127:
				var ch := char(code)
				k.unicode = (ch if k.shift_pressed else ch.to_lower()).unicode_at(0)
			return [k]
		"mouse":
			return _mouse(d)
		"action":
			var action := str(d.get("action", ""))
			if action == "" or not InputMap.has_action(action):
				return "the game has no input action '%s' (its InputMap has: %s)" % [action, ", ".join(_actions())]
			var a := InputEventAction.new()
			a.action = action
			a.pressed = bool(d.get("pressed", true))
			a.strength = clampf(float(d.get("strength", 1.0)), 0.0, 1.0) if a.pressed else 0.0
			return [a]
	return "unknown event type '%s': use key, mouse or action" % str(d.get("type", ""))


func _actions() -> PackedStringArray:
	var out := PackedStringArray()
	for a in InputMap.get_actions():
		if not String(a).begins_with("ui_"):
			out.append(String(a))
	return out


func _mouse(d: Dictionary) -> Variant:
	var pos := Vector2(float(d.get("x", 0.0)), float(d.get("y", 0.0)))
	var path := str(d.get("node_path", ""))
	if path != "":
		var n := _resolve(path)
		if n == null:
			return "node not found at '%s'" % path
		if not (n is Control):
			return "'%s' is a %s, not a Control: pass x and y instead" % [path, n.get_class()]
		var c := n as Control
		pos = c.get_global_transform_with_canvas() * (c.size / 2.0)
	var name := str(d.get("button", ""))
	var out: Array = []
	var motion := InputEventMouseMotion.new()
	motion.position = pos
	motion.relative = Vector2(float(d.get("relative_x", 0.0)), float(d.get("relative_y", 0.0)))
	if name == "":
		return [motion]
	if not MOUSE_BUTTONS.has(name):
		return "unknown mouse button '%s': use left, right, middle, wheel_up, wheel_down, wheel_left or wheel_right (or empty for motion)" % name
	var idx: int = MOUSE_BUTTONS[name]
	var wheel := name.begins_with("wheel_")
	var click := bool(d.get("click", false)) or wheel or path != ""
	var drag := d.has("drag_to_x") or d.has("drag_to_y")
	if click or drag:
		out.append(motion)
	if drag:
		var to := Vector2(float(d.get("drag_to_x", pos.x)), float(d.get("drag_to_y", pos.y)))
		var steps := clampi(int(d.get("drag_steps", 8)), 1, 100)
		out.append(_button(idx, true, pos, 1.0))
		var last := pos
		for i in steps:
			var m := InputEventMouseMotion.new()
			m.position = pos.lerp(to, float(i + 1) / steps)
			m.relative = m.position - last
			m.button_mask = 1 << (idx - 1)
			last = m.position
			out.append(m)
		out.append(_button(idx, false, to, 1.0))
		return out
	var factor := float(d.get("factor", 1.0))
	if click:
		out.append(_button(idx, true, pos, factor))
		if bool(d.get("double_click", false)):
			out.append(_button(idx, false, pos, factor))
			var again := _button(idx, true, pos, factor)
			again.double_click = true
			out.append(again)
		out.append(_button(idx, false, pos, factor))
		return out
	out.append(_button(idx, bool(d.get("pressed", true)), pos, factor))
	return out


func _button(idx: int, pressed: bool, pos: Vector2, factor: float) -> InputEventMouseButton:
	var b := InputEventMouseButton.new()
	b.button_index = idx
	b.pressed = pressed
	b.position = pos
	b.factor = factor
	if pressed:
		b.button_mask = 1 << (idx - 1)
	return b


# _inject sends the events to the game as the OS would (Input, then the
# viewports), in viewport coordinates, and records them.
func _inject(events: Array) -> void:
	var xf := get_tree().root.get_final_transform()
	_injecting = true
	for ev in events:
		if _recording:
			var d := _describe(ev)
			if not d.is_empty():
				_record(d)
		if ev is InputEventAction:
			if ev.pressed:
				Input.action_press(ev.action, ev.strength)
			else:
				Input.action_release(ev.action)
		else:
			var sent: InputEvent = ev.duplicate()
			if sent is InputEventMouse:
				sent.position = xf * ev.position
				sent.global_position = sent.position
			Input.parse_input_event(sent)
			Input.flush_buffered_events()
		_injected += 1
	_injecting = false


func _input_call(p: Dictionary) -> Dictionary:
	var built = _event(p)
	if typeof(built) == TYPE_STRING:
		return {"rejected": built}
	_inject(built)
	return {"sent": true, "kind": str(p.get("type", "")), "count": 1, "events": built.size(), "tick": _ticks, "frame": _frames}


func _sequence_call(p: Dictionary) -> Dictionary:
	var events = p.get("events", [])
	if typeof(events) != TYPE_ARRAY or events.is_empty():
		return {"rejected": "events must be a non-empty array"}
	if events.size() + _seq.size() > MAX_SEQUENCE:
		return {"rejected": "at most %d events may wait to be played" % MAX_SEQUENCE}
	var delay := int(p.get("delay_ms", 0))
	var built: Array = []
	for i in events.size():
		var d = events[i]
		if typeof(d) != TYPE_DICTIONARY:
			return {"rejected": "events[%d] must be an object" % i}
		var ev = _event(d)
		if typeof(ev) == TYPE_STRING:
			return {"rejected": "events[%d]: %s" % [i, ev]}
		var e := {"event": ev}
		if d.has("frame"):
			e["tick"] = maxi(0, int(d["frame"]))
			e["start"] = _ticks
		elif d.has("time_ms") or delay > 0:
			e["ms"] = maxi(0, int(d.get("time_ms", i * delay)))
			e["start"] = Time.get_ticks_msec()
		else:
			e["tick"] = 0
			e["start"] = _ticks
		built.append(e)
	var last_tick := -1
	var last_ms := -1
	for e in built:
		if e.has("tick"):
			last_tick = maxi(last_tick, int(e["tick"]))
		else:
			last_ms = maxi(last_ms, int(e["ms"]))
	_seq.append_array(built)
	var out := {"sent": true, "kind": "sequence", "count": built.size(), "tick": _ticks}
	if last_tick >= 0:
		out["last_frame"] = last_tick
	if last_ms >= 0:
		out["last_time_ms"] = last_ms
	return out


func _stats() -> Dictionary:
	return {"playing": true, "connected": true, "injected": _injected, "pending": _seq.size(),
		"recording": _recording, "recorded": _rec.size(), "tick": _ticks, "frame": _frames, "paused": get_tree().paused}


func _record_call(p: Dictionary) -> Dictionary:
	_recording = true
	_rec_motion = bool(p.get("include_motion", false))
	_rec = []
	_rec_dropped = 0
	_rec_tick0 = _ticks
	_rec_ms0 = Time.get_ticks_msec()
	return {"recording": true, "tick": _ticks}


func _stop_recording() -> Dictionary:
	var was := _recording
	_recording = false
	return {"ready": true, "connected": true, "was_recording": was, "events": _rec, "dropped": _rec_dropped,
		"frames": _ticks - _rec_tick0, "duration_ms": Time.get_ticks_msec() - _rec_ms0}


func _record(d: Dictionary) -> void:
	if _rec.size() >= MAX_RECORDED:
		_rec_dropped += 1
		return
	d["frame"] = _ticks - _rec_tick0
	d["time_ms"] = Time.get_ticks_msec() - _rec_ms0
	_rec.append(d)


# _describe turns an event back into the play_sequence format, or {} for
# what is not recorded (echoes, motion unless asked for).
func _describe(ev: InputEvent) -> Dictionary:
	if ev is InputEventKey:
		if ev.echo:
			return {}
		var code: int = ev.keycode if ev.keycode != KEY_NONE else ev.physical_keycode
		return {"type": "key", "key": OS.get_keycode_string(code), "pressed": ev.pressed,
			"shift": ev.shift_pressed, "ctrl": ev.ctrl_pressed, "alt": ev.alt_pressed, "meta": ev.meta_pressed}
	if ev is InputEventMouseButton:
		var name := ""
		for k in MOUSE_BUTTONS:
			if MOUSE_BUTTONS[k] == ev.button_index:
				name = k
		if name == "":
			return {}
		return {"type": "mouse", "button": name, "pressed": ev.pressed, "x": ev.position.x, "y": ev.position.y}
	if ev is InputEventMouseMotion:
		if not _rec_motion:
			return {}
		return {"type": "mouse", "button": "", "x": ev.position.x, "y": ev.position.y, "relative_x": ev.relative.x, "relative_y": ev.relative.y}
	if ev is InputEventAction:
		return {"type": "action", "action": String(ev.action), "pressed": ev.pressed, "strength": ev.strength}
	return {}


func _time_call(p: Dictionary) -> Dictionary:
	if p.has("paused"):
		get_tree().paused = bool(p["paused"])
	if p.has("time_scale"):
		Engine.time_scale = clampf(float(p["time_scale"]), 0.0, 100.0)
	if p.has("physics_ticks_per_second"):
		Engine.physics_ticks_per_second = clampi(int(p["physics_ticks_per_second"]), 1, 1000)
	if p.has("max_fps"):
		Engine.max_fps = clampi(int(p["max_fps"]), 0, 1000)
	return _time_state()


func _time_state() -> Dictionary:
	return {"paused": get_tree().paused, "time_scale": Engine.time_scale,
		"physics_ticks_per_second": Engine.physics_ticks_per_second, "max_fps": Engine.max_fps,
		"tick": _ticks, "frame": _frames, "stepping": _step_id != ""}


func _step_call(id: String, p: Dictionary) -> void:
	if _step_id != "":
		_reply(id, {"rejected": "a step is already running; wait for it to finish"})
		return
	var mode := str(p.get("mode", "physics"))
	if mode != "physics" and mode != "process":
		_reply(id, {"rejected": "mode must be physics or process"})
		return
	_step_id = id
	_step = {"mode": mode, "left": clampi(int(p.get("frames", 1)), 1, 1000000), "tick0": _ticks, "frame0": _frames,
		"usec0": Time.get_ticks_usec()}
	_step["frames"] = _step["left"]
	get_tree().paused = false


# _step_tick runs first in each physics tick and process frame: once the
# step's frames have run it pauses the tree before any game node runs.
func _step_tick(kind: String) -> void:
	if _step_id == "":
		return
	if int(_step["left"]) > 0:
		if _step["mode"] == kind:
			_step["left"] = int(_step["left"]) - 1
		return
	get_tree().paused = true
	var id := _step_id
	_step_id = ""
	var st := _time_state()
	st["stepped"] = _step["frames"]
	st["mode"] = _step["mode"]
	st["ticks_run"] = _ticks - int(_step["tick0"])
	st["frames_run"] = _frames - int(_step["frame0"])
	st["elapsed_ms"] = (Time.get_ticks_usec() - int(_step["usec0"])) / 1000.0
	_reply(id, st)


func _monitor_ids() -> Dictionary:
	var out := {}
	for c in ClassDB.class_get_enum_constants("Performance", "Monitor"):
		if c == "MONITOR_MAX":
			continue
		var parts := String(c).to_lower().split("_")
		var n := 2 if parts.size() > 2 and (parts[1] == "2d" or parts[1] == "3d") else 1
		out["_".join(parts.slice(0, n)) + "/" + "_".join(parts.slice(n))] = ClassDB.class_get_integer_constant("Performance", c)
	return out


func _perf_call(id: String, p: Dictionary) -> void:
	if _perf_id != "":
		_reply(id, {"rejected": "a monitor window is already being sampled; wait for it to finish"})
		return
	var ids := _monitor_ids()
	var want: Array = []
	var asked = p.get("monitors", [])
	var custom := Performance.get_custom_monitor_names()
	if typeof(asked) == TYPE_ARRAY and not asked.is_empty():
		for m in asked:
			if not ids.has(str(m)) and not custom.has(StringName(str(m))):
				_reply(id, {"rejected": "unknown monitor '%s'; the engine's monitors are: %s" % [str(m), ", ".join(PackedStringArray(ids.keys()))]})
				return
			want.append(str(m))
	else:
		want = ids.keys()
		for c in custom:
			want.append(String(c))
	var acc := {}
	for m in want:
		acc[m] = {"min": INF, "max": -INF, "sum": 0.0, "last": 0.0}
	_perf_id = id
	_perf = {"ids": ids, "acc": acc, "left": clampi(int(p.get("frames", 60)), 1, 3600), "n": 0, "usec0": Time.get_ticks_usec(),
		"frame0": Engine.get_process_frames()}


func _perf_sample() -> void:
	if _perf_id == "":
		return
	var ids: Dictionary = _perf["ids"]
	var acc: Dictionary = _perf["acc"]
	for m in acc:
		var v := float(Performance.get_monitor(ids[m])) if ids.has(m) else float(Performance.get_custom_monitor(StringName(m)))
		var a: Dictionary = acc[m]
		a["min"] = minf(a["min"], v)
		a["max"] = maxf(a["max"], v)
		a["sum"] = a["sum"] + v
		a["last"] = v
	_perf["n"] = int(_perf["n"]) + 1
	_perf["left"] = int(_perf["left"]) - 1
	if int(_perf["left"]) > 0:
		return
	var n := float(_perf["n"])
	var mons := {}
	var stats := {}
	for m in acc:
		var a: Dictionary = acc[m]
		mons[m] = a["last"]
		stats[m] = {"min": a["min"], "max": a["max"], "avg": a["sum"] / n, "last": a["last"]}
	var id := _perf_id
	_perf_id = ""
	_reply(id, {"playing": true, "connected": true, "ready": true, "monitors": mons, "stats": stats, "frames": int(n),
		"window_ms": (Time.get_ticks_usec() - int(_perf["usec0"])) / 1000.0, "paused": get_tree().paused})
