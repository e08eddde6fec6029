extends Node
# Loads the files listed in res://webgodot/manifest.json the way a game
# would and prints one JSON line per file ("R {...}") with every engine
# error logged while loading it and every silent loss found by comparing
# the file with what the engine built. Driven by godot-mcp's
# internal/webgodot/loadcheck; the Go side maps results to file:line.

var current := ""        # the file being checked; errors go to it
var captured := {}       # path -> Array of {message, file, line}
var stray := []          # errors logged outside any file
var allow_missing := false
var placeholders := {}   # res:// paths of imported files replaced by placeholders

class Capture extends Logger:
	var owner_node
	func _log_error(function: String, file: String, line: int, code: String, rationale: String, _editor_notify: bool, error_type: int, _script_backtraces: Array) -> void:
		var msg := rationale if rationale != "" else code
		owner_node.record({"message": msg, "file": file, "line": line, "function": function, "type": error_type})
	func _log_message(_message: String, _error: bool) -> void:
		pass

func record(e: Dictionary) -> void:
	if current == "":
		stray.append(e)
	else:
		captured[current].append(e)

func _ready() -> void:
	var capture := Capture.new()
	capture.owner_node = self
	OS.add_logger(capture)
	var manifest: Dictionary = JSON.parse_string(FileAccess.get_file_as_string("res://webgodot/manifest.json"))
	# Inverted-looking but observed: with true, a missing dependency is
	# logged and the reference left null instead of failing the whole load.
	allow_missing = bool(manifest.get("allow_missing", false))
	ResourceLoader.set_abort_on_missing_resources(allow_missing)
	for pth in manifest.get("placeholders", []):
		placeholders[pth] = true
	print("BEGIN")
	for f in manifest.files:
		current = f.path
		captured[current] = []
		var r := {"path": f.path, "kind": f.kind, "loaded": false, "problems": []}
		match f.kind:
			"scene":
				check_scene(f, r)
			"resource":
				check_resource(f, r)
			"script":
				check_script(f.path, r)
			"project":
				check_project(f.path, r)
		r.errors = captured[current]
		current = ""
		print("R ", JSON.stringify(r))
	print("STRAY ", JSON.stringify(stray))
	print("DONE ", manifest.files.size())
	OS.remove_logger(capture)
	get_tree().quit()

func check_script(path: String, r: Dictionary) -> void:
	if ResourceLoader.has_cached(path):
		# Another script preloaded it; its errors were logged then, with
		# this file's path and line.
		var cached = ResourceLoader.get_cached_ref(path)
		r.loaded = cached is Script and cached.can_instantiate()
		if not r.loaded:
			r.problems.append({"kind": "load_failed", "message": "the script does not compile"})
		return
	var s := GDScript.new()
	s.source_code = FileAccess.get_file_as_string(path)
	s.resource_path = path
	var err := s.reload()
	r.loaded = err == OK
	if err != OK:
		r.problems.append({"kind": "load_failed", "message": "the script does not compile (%s)" % error_string(err)})

func check_project(path: String, r: Dictionary) -> void:
	var cfg := ConfigFile.new()
	var err := cfg.load(path)
	r.loaded = err == OK
	if err != OK:
		r.problems.append({"kind": "load_failed", "message": "project.godot does not parse (%s)" % error_string(err)})

var current_file := ""

func check_resource(f: Dictionary, r: Dictionary) -> void:
	current_file = f.path
	var res := ResourceLoader.load(f.path, "", ResourceLoader.CACHE_MODE_IGNORE)
	if res == null:
		r.problems.append({"kind": "load_failed", "message": "ResourceLoader.load failed"})
		return
	r.loaded = true
	r.type = res.get_class()
	check_props(res, f.get("main", []), f.get("main_kinds", []), {"section": "resource"}, res.get_class(), r)
	var found := {}
	collect(res, found, {})
	check_subs(f, found, r)

func check_scene(f: Dictionary, r: Dictionary) -> void:
	current_file = f.path
	var res := ResourceLoader.load(f.path, "", ResourceLoader.CACHE_MODE_IGNORE)
	if res == null:
		r.problems.append({"kind": "load_failed", "message": "ResourceLoader.load failed"})
		return
	if not res is PackedScene:
		r.problems.append({"kind": "load_failed", "message": "loaded as %s, not a PackedScene" % res.get_class()})
		return
	var inst: Node = res.instantiate()
	if inst == null:
		r.problems.append({"kind": "load_failed", "message": "PackedScene.instantiate() failed"})
		return
	r.loaded = true
	var st: SceneState = res.get_state()
	compare(st, inst, r)
	check_connections(st, inst, r)
	var found := {}
	var seen := {}
	for i in st.get_node_count():
		for j in st.get_node_property_count(i):
			collect(st.get_node_property_value(i, j), found, seen)
	check_subs(f, found, r)
	inst.free()

# collect finds the sub-resources reachable from a value, by the id the
# file gave them (Resource.resource_scene_unique_id).
func collect(v, found: Dictionary, seen: Dictionary) -> void:
	match typeof(v):
		TYPE_OBJECT:
			if v is Resource and not seen.has(v):
				seen[v] = true
				# Only this file's own sub-resources ("res://a.tscn::id");
				# other files' resources are checked as those files.
				var rp: String = v.resource_path
				if rp != "" and rp != current_file and not rp.begins_with(current_file + "::"):
					return
				if rp.begins_with(current_file + "::"):
					found[rp.trim_prefix(current_file + "::")] = v
				for p in v.get_property_list():
					if p.usage & PROPERTY_USAGE_STORAGE and p.type in [TYPE_OBJECT, TYPE_ARRAY, TYPE_DICTIONARY]:
						collect(v.get(p.name), found, seen)
		TYPE_ARRAY:
			for e in v:
				collect(e, found, seen)
		TYPE_DICTIONARY:
			for k in v:
				collect(k, found, seen)
				collect(v[k], found, seen)

# check_subs reports [sub_resource] properties the resource does not
# have: the loader sets them and the resource ignores them silently (a
# Godot 3 name such as RectangleShape2D's extents).
func check_subs(f: Dictionary, found: Dictionary, r: Dictionary) -> void:
	for sub in f.get("subs", []):
		var res = found.get(sub.id)
		if res == null:
			continue # unused, or failed to load (logged)
		check_props(res, sub.props, sub.get("kinds", []), {"sub": sub.id},
			"%s (sub_resource %s)" % [res.get_class(), sub.id], r)

# The variant types Godot converts between when a setter gets another
# type; any other mismatch makes the setter refuse the value silently.
const GROUPS := [
	[TYPE_BOOL, TYPE_INT, TYPE_FLOAT],
	[TYPE_STRING, TYPE_STRING_NAME, TYPE_NODE_PATH],
	[TYPE_VECTOR2, TYPE_VECTOR2I], [TYPE_VECTOR3, TYPE_VECTOR3I],
	[TYPE_VECTOR4, TYPE_VECTOR4I], [TYPE_RECT2, TYPE_RECT2I],
	[TYPE_BASIS, TYPE_QUATERNION],
	[TYPE_ARRAY, TYPE_PACKED_BYTE_ARRAY, TYPE_PACKED_INT32_ARRAY, TYPE_PACKED_INT64_ARRAY,
		TYPE_PACKED_FLOAT32_ARRAY, TYPE_PACKED_FLOAT64_ARRAY, TYPE_PACKED_STRING_ARRAY,
		TYPE_PACKED_VECTOR2_ARRAY, TYPE_PACKED_VECTOR3_ARRAY, TYPE_PACKED_COLOR_ARRAY,
		TYPE_PACKED_VECTOR4_ARRAY],
]

func compatible(have: int, want: int) -> bool:
	if have == want or want == TYPE_NIL:
		return true
	for g in GROUPS:
		if g.has(have) and g.has(want):
			return true
	return false

# compare walks the scene's nodes as the file lists them and looks each
# one up in the instantiated tree: a node whose parent does not exist is
# dropped without a word, and a property the node does not have, or a
# value of a type the property cannot take, is ignored without a word.
func compare(st: SceneState, inst: Node, r: Dictionary) -> void:
	for i in st.get_node_count():
		var node_path := st.get_node_path(i)
		var node: Node = inst if String(node_path) == "." else inst.get_node_or_null(node_path)
		var path := String(node_path).trim_prefix("./")  # as shown in messages
		if path == ".":
			path = String(inst.name)
		var where := {"node": path, "index": i}
		if node == null:
			r.problems.append(merge(where, {"kind": "dropped_node",
				"message": "node %s is not in the instantiated scene: its parent %s does not exist, so Godot dropped it" % [path, String(st.get_node_path(i, true)).trim_prefix("./")]}))
			continue
		var typ := st.get_node_type(i)
		if typ != &"" and not ClassDB.class_exists(typ):
			r.problems.append(merge(where, {"kind": "unknown_type",
				"message": "node %s has type %s, which this engine does not know; Godot made a placeholder" % [path, typ]}))
			continue
		var known := {}
		var hints := {}
		for p in node.get_property_list():
			known[p.name] = p.type
			hints[p.name] = p.hint_string
		# A script whose _get_property_list fails makes the node's list come
		# back short; its declared variables are there all the same.
		var scr = node.get_script()
		if scr is Script:
			for p in scr.get_script_property_list():
				if not known.has(p.name):
					known[p.name] = p.type
					hints[p.name] = p.hint_string
		# A node whose script did not load (missing, or failed to compile)
		# lacks the script's variables; those cannot be checked.
		var script_missing := false
		for j in st.get_node_property_count(i):
			if st.get_node_property_name(i, j) == &"script" and node.get_script() == null:
				script_missing = true
		# An instanced scene's root gets its script from that scene; when
		# dependencies may be missing, that script may be one of them.
		if allow_missing and node.get_script() == null and (st.get_node_instance(i) != null or typ == &""):
			script_missing = true
		# Properties such as surface_material_override/0 exist only when a
		# resource (the mesh) provides them; a placeholder or missing one
		# does not.
		var weak := false
		for j in st.get_node_property_count(i):
			var v = st.get_node_property_value(i, j)
			if (v == null and allow_missing) or (v is Resource and placeholders.has(v.resource_path)):
				weak = true
		for j in st.get_node_property_count(i):
			var name := String(st.get_node_property_name(i, j))
			var value = st.get_node_property_value(i, j)
			var pw := merge(where, {"property": name})
			if not known.has(name):
				if script_missing or name.begins_with("metadata/") or (weak and "/" in name):
					continue
				r.problems.append(merge(pw, {"kind": "unknown_property",
					"message": "%s has no property %s (%s); Godot ignored it" % [path, name, node.get_class()]}))
				continue
			var want: int = known[name]
			var have := typeof(value)
			if have == TYPE_OBJECT or value == null:
				if want != TYPE_OBJECT and want != TYPE_NIL and value != null:
					r.problems.append(merge(pw, {"kind": "ignored_value",
						"message": "%s.%s takes %s, the file gives %s; Godot ignored the value" % [path, name, type_string(want), value.get_class()]}))
				continue
			# A Node-typed variable (or an array of nodes) holds NodePaths in
			# the file that the loader resolves into nodes only when the
			# node's node_paths lists the property; otherwise the variable
			# stays empty.
			if have == TYPE_NODE_PATH and want == TYPE_OBJECT:
				if not (node.get(name) is Node):
					r.problems.append(merge(pw, {"kind": "ignored_value",
						"message": "%s.%s takes a node, the file gives %s, which Godot did not resolve into one (is the property in node_paths?); the variable is empty" % [path, name, var_to_str(value).left(60)]}))
				continue
			if have == TYPE_ARRAY and want == TYPE_ARRAY and String(hints.get(name, "")).begins_with("%d/" % TYPE_OBJECT):
				var got = node.get(name)
				for k in value.size():
					if value[k] is NodePath and not (got is Array and k < got.size() and got[k] is Node):
						r.problems.append(merge(pw, {"kind": "ignored_value",
							"message": "%s.%s holds nodes, the file gives %s, which Godot did not resolve into nodes (is the property in node_paths?)" % [path, name, var_to_str(value).left(60)]}))
						break
				continue
			if not compatible(have, want):
				r.problems.append(merge(pw, {"kind": "ignored_value",
					"message": "%s.%s takes %s, the file gives %s %s; Godot ignored the value" % [path, name, type_string(want), type_string(have), var_to_str(value).left(60)]}))

# check_connections reports [connection] entries from or to a node the
# instantiated scene does not have (Godot drops the connection without a
# word), and those whose target has no such method: Godot connects them
# without a word and fails only when the signal is emitted. A target whose
# script did not load is skipped. "node" names the node concerned, so that
# nodes inside an instance the check cannot see into are left alone.
func check_connections(st: SceneState, inst: Node, r: Dictionary) -> void:
	for c in st.get_connection_count():
		var sp := st.get_connection_source(c)
		var tp := st.get_connection_target(c)
		var sig := String(st.get_connection_signal(c))
		var method := String(st.get_connection_method(c))
		var source: Node = inst if String(sp) == "." else inst.get_node_or_null(sp)
		if source == null:
			r.problems.append({"kind": "bad_connection", "connection": c, "node": String(sp).trim_prefix("./"),
				"message": "connection of signal %s from %s to %s: the source node %s does not exist; Godot dropped the connection" % [sig, sp, method, sp]})
			continue
		var target: Node = inst if String(tp) == "." else inst.get_node_or_null(tp)
		if target == null:
			r.problems.append({"kind": "bad_connection", "connection": c, "node": String(tp).trim_prefix("./"),
				"message": "connection of signal %s to %s: the target node %s does not exist; Godot dropped the connection" % [sig, method, tp]})
			continue
		if target.get_script() == null and (allow_missing or st_node_has_script(st, tp)):
			continue
		if not target.has_method(method):
			var tname := String(target.name) if target == inst else String(tp).trim_prefix("./")
			r.problems.append({"kind": "bad_connection", "connection": c, "node": "" if target == inst else tname,
				"message": "connection of signal %s to %s.%s: %s has no method %s; the signal would fail when emitted" % [sig, tname, method, target.get_class(), method]})

# st_node_has_script reports whether the file gives the node at path a
# script (which then failed to load; that error is reported already).
func st_node_has_script(st: SceneState, path: NodePath) -> bool:
	for i in st.get_node_count():
		if st.get_node_path(i) == path:
			for j in st.get_node_property_count(i):
				if st.get_node_property_name(i, j) == &"script":
					return true
	return false

# check_props compares a resource section's properties (names and the
# Variant types of the values as written) with the loaded resource.
func check_props(res: Resource, names: Array, kinds: Array, where: Dictionary, what: String, r: Dictionary) -> void:
	var known := {}
	for p in res.get_property_list():
		known[p.name] = p.type
	# Types are compared only for properties the class binds and shows in
	# the inspector: internal and dynamic ones (Curve's _data, an
	# Animation's tracks/0/keys) take other types through _set.
	var typed := {}
	for p in ClassDB.class_get_property_list(res.get_class()):
		if p.usage & PROPERTY_USAGE_STORAGE and p.usage & PROPERTY_USAGE_EDITOR:
			typed[p.name] = true
	for k in names.size():
		var name: String = names[k]
		if name.begins_with("metadata/"):
			continue
		var pw := merge(where, {"property": name})
		if not known.has(name):
			r.problems.append(merge(pw, {"kind": "unknown_property",
				"message": "%s has no property %s; Godot ignored it" % [what, name]}))
			continue
		if k >= kinds.size() or not typed.has(name):
			continue
		var have: int = kinds[k]
		var want: int = known[name]
		if have == TYPE_NIL or (have == TYPE_OBJECT and want == TYPE_OBJECT):
			continue
		if not compatible(have, want):
			r.problems.append(merge(pw, {"kind": "ignored_value",
				"message": "%s.%s takes %s, the file gives %s; Godot ignored the value" % [what, name, type_string(want), type_string(have)]}))

func merge(a: Dictionary, b: Dictionary) -> Dictionary:
	var out := a.duplicate()
	out.merge(b)
	return out
