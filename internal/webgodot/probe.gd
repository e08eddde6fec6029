extends Node
# godot-mcp's game probe: an autoload the host adds to the pack of a game
# session (never to the user's project). The page hands it the host's
# calls through window.__mcpHandle, a callback into this script, as they
# come (between frames: the engine is single-threaded), so a call does not
# wait for the next frame; calls queued before the probe was ready are
# taken from window.__mcpTake on the first frame. Each is answered with
# window.__mcpReply(id, json). Calls: ping, scene_tree, read_property,
# monitor_property, property_samples, find_ui, capture.

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
