extends Node
# Dumps what the running engine knows about its classes, project settings
# and key names, one JSON object per line, for godot-mcp's class database
# generator (internal/webgodot/classdbgen). Line prefixes:
#   V  engine version and the flag values the reader relies on
#   T  Variant type names, indexed by Variant.Type
#   C  one class
#   S  all project settings
#   K  key names
#   DONE <classes>

func _ready() -> void:
	# Some classes enter ClassDB only when first instantiated; one await
	# creates GDScriptFunctionState, so the dump lists it as the engine
	# does once any script has awaited.
	await get_tree().process_frame
	var info := Engine.get_version_info()
	print("V ", JSON.stringify({
		"version": info,
		"flags": {
			"PROPERTY_USAGE_STORAGE": PROPERTY_USAGE_STORAGE,
			"PROPERTY_USAGE_GROUP": PROPERTY_USAGE_GROUP,
			"PROPERTY_USAGE_SUBGROUP": PROPERTY_USAGE_SUBGROUP,
			"PROPERTY_USAGE_CATEGORY": PROPERTY_USAGE_CATEGORY,
			"PROPERTY_USAGE_CLASS_IS_ENUM": PROPERTY_USAGE_CLASS_IS_ENUM,
			"PROPERTY_USAGE_CLASS_IS_BITFIELD": PROPERTY_USAGE_CLASS_IS_BITFIELD,
			"PROPERTY_HINT_RESOURCE_TYPE": PROPERTY_HINT_RESOURCE_TYPE,
			"PROPERTY_HINT_ARRAY_TYPE": PROPERTY_HINT_ARRAY_TYPE,
			"PROPERTY_HINT_DICTIONARY_TYPE": PROPERTY_HINT_DICTIONARY_TYPE,
			"METHOD_FLAG_CONST": METHOD_FLAG_CONST,
			"METHOD_FLAG_VIRTUAL": METHOD_FLAG_VIRTUAL,
			"METHOD_FLAG_VARARG": METHOD_FLAG_VARARG,
			"METHOD_FLAG_STATIC": METHOD_FLAG_STATIC,
		},
	}))
	var types := []
	for t in TYPE_MAX:
		types.append(type_string(t))
	print("T ", JSON.stringify(types))

	var classes := Array(ClassDB.get_class_list())
	classes.sort()
	var single := probe_single(classes)
	for cls in classes:
		var c := dump_class(cls)
		c["single"] = single.get(cls, [])
		print("C ", JSON.stringify(c))
	print("S ", JSON.stringify(dump_settings()))
	print("K ", JSON.stringify(dump_keys()))
	print("DONE ", classes.size())
	get_tree().quit()

func dump_class(cls: StringName) -> Dictionary:
	var props := []
	for p in ClassDB.class_get_property_list(cls, true):
		var e := {
			"name": p.name, "type": p.type, "class_name": String(p.class_name),
			"hint": p.hint, "hint_string": p.hint_string, "usage": p.usage,
		}
		if p.usage & (PROPERTY_USAGE_GROUP | PROPERTY_USAGE_SUBGROUP | PROPERTY_USAGE_CATEGORY) == 0:
			e.setter = String(ClassDB.class_get_property_setter(cls, p.name))
			e.getter = String(ClassDB.class_get_property_getter(cls, p.name))
			# The default exists only for stored properties; for the others
			# (global_position, rotation_degrees) the engine answers null.
			if p.usage & PROPERTY_USAGE_STORAGE:
				e.default = var_to_str(ClassDB.class_get_property_default_value(cls, p.name))
		props.append(e)
	var signals := []
	for s in ClassDB.class_get_signal_list(cls, true):
		signals.append({"name": s.name, "args": args_of(s.args)})
	var methods := []
	for m in ClassDB.class_get_method_list(cls, true):
		var defaults := []
		for d in m.default_args:
			defaults.append(var_to_str(d))
		methods.append({
			"name": m.name, "flags": m.flags, "args": args_of(m.args),
			"default_args": defaults, "return": arg_of(m["return"]),
		})
	var enums := {}
	for en in ClassDB.class_get_enum_list(cls, true):
		var values := {}
		for c in ClassDB.class_get_enum_constants(cls, en, true):
			values[c] = ClassDB.class_get_integer_constant(cls, c)
		enums[en] = {"bitfield": ClassDB.is_class_enum_bitfield(cls, en, true), "values": values}
	var constants := {}
	for c in ClassDB.class_get_integer_constant_list(cls, true):
		if ClassDB.class_get_integer_constant_enum(cls, c, true) == &"":
			constants[c] = ClassDB.class_get_integer_constant(cls, c)
	# A class can change an inherited property's default (Button's
	# focus_mode is not Control's), and abstract classes have no defaults
	# of their own, so every instantiable class lists all its stored
	# properties' defaults, inherited ones included.
	var defaults := {}
	if ClassDB.can_instantiate(cls):
		for p in ClassDB.class_get_property_list(cls, false):
			if p.usage & PROPERTY_USAGE_STORAGE and p.usage & (PROPERTY_USAGE_GROUP | PROPERTY_USAGE_SUBGROUP | PROPERTY_USAGE_CATEGORY) == 0:
				defaults[p.name] = var_to_str(ClassDB.class_get_property_default_value(cls, p.name))
	return {
		"name": cls,
		"defaults": defaults,
		"parent": String(ClassDB.get_parent_class(cls)),
		"can_instantiate": ClassDB.can_instantiate(cls),
		"is_enabled": ClassDB.is_class_enabled(cls),
		"api_type": ClassDB.class_get_api_type(cls),
		"properties": props, "signals": signals, "methods": methods,
		"enums": enums, "constants": constants,
	}

func args_of(list: Array) -> Array:
	var out := []
	for a in list:
		out.append(arg_of(a))
	return out

func arg_of(a: Dictionary) -> Dictionary:
	return {
		"name": String(a.name), "type": a.type, "class_name": String(a.class_name),
		"hint": a.hint, "hint_string": a.hint_string, "usage": a.usage,
	}

# dump_settings lists every setting the engine registered, with its
# default: the revert value where the setting has one (the value before
# project.godot and feature overrides), else its current value.
func dump_settings() -> Array:
	var out := []
	for p in ProjectSettings.get_property_list():
		if p.usage & (PROPERTY_USAGE_GROUP | PROPERTY_USAGE_SUBGROUP | PROPERTY_USAGE_CATEGORY):
			continue
		var name: String = p.name
		if not "/" in name:
			continue  # Object's own properties (script), not settings
		var value = ProjectSettings.get_setting(name)
		if ProjectSettings.property_can_revert(name):
			value = ProjectSettings.property_get_revert(name)
		out.append({
			"name": name, "type": p.type, "hint": p.hint, "hint_string": p.hint_string,
			"usage": p.usage, "default": var_to_str(value),
		})
	return out

# dump_keys lists the key names the engine reads and writes: every keycode
# whose name maps back to it, printable keys and the special keys.
func dump_keys() -> Dictionary:
	var out := {}
	var codes := []
	for k in range(1, 0x2FFF):
		codes.append(k)
	for k in range(0, 0x200):
		codes.append(KEY_SPECIAL | k)
	for k in codes:
		var name := OS.get_keycode_string(k)
		if name != "" and OS.find_keycode_from_string(name) == k:
			out[name] = k
	return out

# The values probe_single sets: a float32 holds none of them exactly, and
# one of them survives the usual ranges and clamps of setters.
const PROBES := [1.0 / 3.0, 1.0 + 1.0 / 3.0, 0.1, 100.0 / 3.0, -1.0 / 3.0, 1000.0 / 3.0]

# probe_single finds the stored float properties the engine holds as 32-bit
# floats (real_t, or float in C++), which it writes with float32 digits
# (0.33333334) while double-precision ones keep 17 (0.3333333333333333):
# it sets each on an instance of the first instantiable class that has it
# and reads it back. The answer belongs to the class that declares the
# property. Returns class -> [property names held as float32].
func probe_single(classes: Array) -> Dictionary:
	var own := {}
	var decided := {}
	var out := {}
	for cls in classes:
		if not ClassDB.can_instantiate(cls) or not ClassDB.is_class_enabled(cls):
			continue
		# Setting audio players' properties crashes the web build (it has
		# no audio driver); their floats stay unknown (written as doubles).
		# Nor are singletons' and XR classes' (XRVRS crashes it too).
		if String(cls).begins_with("Audio") or String(cls).begins_with("XR") or Engine.has_singleton(cls):
			continue
		var floats := []
		for p in ClassDB.class_get_property_list(cls, false):
			# Indexed properties (blend_point_0/pos) need their item first.
			if p.type == TYPE_FLOAT and p.usage & PROPERTY_USAGE_STORAGE and not "/" in p.name and ClassDB.class_get_property_setter(cls, p.name) != &"":
				floats.append(p.name)
		if floats.is_empty():
			continue
		var todo := []
		for name in floats:
			var decl := declaring(cls, name, own)
			if not decided.has("%s.%s" % [decl, name]):
				todo.append([decl, name])
		if todo.is_empty():
			continue
		var obj = ClassDB.instantiate(cls)
		if obj == null:
			continue
		for t in todo:
			var r := probe(obj, t[1])
			if r == 0:
				continue
			decided["%s.%s" % t] = true
			if r == 1:
				if not out.has(t[0]):
					out[t[0]] = []
				out[t[0]].append(t[1])
		if not (obj is RefCounted):
			obj.free()
	for k in out:
		out[k].sort()
	return out

# declaring is the class that declares a property cls has.
func declaring(cls: StringName, name: String, own: Dictionary) -> StringName:
	var c := cls
	while c != &"":
		if not own.has(c):
			var names := {}
			for p in ClassDB.class_get_property_list(c, true):
				names[p.name] = true
			own[c] = names
		if own[c].has(name):
			return c
		c = ClassDB.get_parent_class(c)
	return cls

# probe is 1 when the property holds a float32, 2 a double, 0 when no
# probe value came back unchanged or rounded to float32.
func probe(obj: Object, name: String) -> int:
	var before = obj.get(name)
	var r := 0
	for x in PROBES:
		var single: float = PackedFloat32Array([x])[0]
		obj.set(name, x)
		var got = obj.get(name)
		if typeof(got) != TYPE_FLOAT:
			break
		if got == x:
			r = 2
			break
		if got == single:
			r = 1
			break
	obj.set(name, before)
	return r
