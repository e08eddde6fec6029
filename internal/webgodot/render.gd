extends Node
# godot-mcp's renderer: the main scene of a render pack. It shows what
# render.json names, with none of its scripts running:
#
#   {"scene": "res://x.tscn"}: the scene, instantiated with every node's
#   script taken off before the instance enters the tree, so that none
#   of its _ready, _process or _input runs: the picture is the scene as
#   saved. (Instantiating still runs a script's _init and setters.)
#
#   {"resource": "res://x.tres"} (or "res://x.tscn::id", a sub-resource
#   of a scene or resource file): a small preview scene around it. A
#   Texture2D or Gradient fills the window (aspect kept); a Mesh is lit
#   and framed by a camera; a spatial Material or Shader covers a sphere
#   framed the same way; a canvas_item one fills a ColorRect; a StyleBox
#   is a Panel; a Theme dresses a few controls; a PackedScene is shown
#   as a scene.
#
#   "view" (optional): where to look from instead of the scene's own
#   camera. 2D: {"center": [x, y], "zoom": z} or {"rect": [x, y, w, h]}
#   through a Camera2D made current; 3D: {"position": [x, y, z],
#   "look_at": [x, y, z], "fov": degrees} through a Camera3D made
#   current.
#
# What cannot be shown is printed to stderr ("godot-mcp render: ..."), and
# the host reports it.

const CFG := "res://.godot/godot-mcp/render.json"


func _ready() -> void:
	var cfg = JSON.parse_string(FileAccess.get_file_as_string(CFG))
	if typeof(cfg) != TYPE_DICTIONARY:
		printerr("godot-mcp render: cannot read ", CFG)
		return
	var shown: Node = null
	var scene := str(cfg.get("scene", ""))
	if scene != "":
		var packed = load(scene)
		if not (packed is PackedScene):
			printerr("godot-mcp render: cannot load the scene ", scene)
			return
		shown = _instance(packed, scene)
	else:
		var path := str(cfg.get("resource", ""))
		var res := _load(path)
		if res == null:
			printerr("godot-mcp render: cannot load the resource ", path)
			return
		shown = _preview(res, path)
	if shown == null:
		return
	add_child(shown)
	var view = cfg.get("view")
	if typeof(view) == TYPE_DICTIONARY and not view.is_empty():
		_view(view)


func _instance(packed: PackedScene, path: String) -> Node:
	var inst: Node = packed.instantiate()
	if inst == null:
		printerr("godot-mcp render: cannot instantiate ", path)
		return null
	_strip(inst)
	return inst


func _strip(n: Node) -> void:
	if n.get_script() != null:
		n.set_script(null)
	for k in n.get_children(true):
		_strip(k)


# _load loads path; "file::id" is the sub-resource id of file, found among
# the resources the file holds (a scene's node properties, a resource's
# stored properties, nested).
func _load(path: String) -> Resource:
	var i := path.find("::")
	if i < 0:
		return load(path) if ResourceLoader.exists(path) else null
	var file := path.substr(0, i)
	if not ResourceLoader.exists(file):
		return null
	var main := load(file)
	if main == null:
		return null
	var found := _find_sub(main, path.substr(i), {})
	if found == null:
		printerr("godot-mcp render: ", file, " holds no sub-resource ", path.substr(i + 2))
	return found


func _find_sub(v: Variant, suffix: String, seen: Dictionary) -> Resource:
	if v is Resource:
		var r: Resource = v
		if seen.has(r.get_instance_id()):
			return null
		seen[r.get_instance_id()] = true
		if r.resource_path.ends_with(suffix):
			return r
		if r is PackedScene:
			var st: SceneState = r.get_state()
			for n in st.get_node_count():
				for p in st.get_node_property_count(n):
					var f := _find_sub(st.get_node_property_value(n, p), suffix, seen)
					if f != null:
						return f
			return null
		for prop in r.get_property_list():
			if prop.usage & PROPERTY_USAGE_STORAGE and prop.name != "script":
				var f := _find_sub(r.get(prop.name), suffix, seen)
				if f != null:
					return f
	elif v is Array:
		for e in v:
			var f := _find_sub(e, suffix, seen)
			if f != null:
				return f
	elif v is Dictionary:
		for k in v:
			var f := _find_sub(v[k], suffix, seen)
			if f != null:
				return f
	return null


func _preview(res: Resource, path: String) -> Node:
	if res is PackedScene:
		return _instance(res, path)
	if res is Texture2D:
		return _texture(res)
	if res is Gradient:
		var gt := GradientTexture2D.new()
		gt.gradient = res
		gt.width = 256
		gt.height = 256
		return _texture(gt)
	if res is Shader:
		var sm := ShaderMaterial.new()
		sm.shader = res
		res = sm
	if res is Material:
		var canvas: bool = res is CanvasItemMaterial
		if res is ShaderMaterial:
			var sh: Shader = res.shader
			if sh == null:
				printerr("godot-mcp render: the ShaderMaterial ", path, " has no shader")
				return null
			canvas = sh.get_mode() == Shader.MODE_CANVAS_ITEM
			if sh.get_mode() != Shader.MODE_CANVAS_ITEM and sh.get_mode() != Shader.MODE_SPATIAL:
				printerr("godot-mcp render: cannot show a ", _mode_name(sh.get_mode()), " shader (only spatial and canvas_item ones)")
				return null
		elif not (res is BaseMaterial3D or res is CanvasItemMaterial):
			printerr("godot-mcp render: cannot show a ", res.get_class(), " (a material shows on a sphere when it is spatial, on a rectangle when it is canvas_item)")
			return null
		if canvas:
			var rect := ColorRect.new()
			rect.set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)
			rect.color = Color.WHITE
			rect.material = res
			return rect
		var sphere := SphereMesh.new()
		return _mesh(sphere, res)
	if res is Mesh:
		return _mesh(res, null)
	if res is StyleBox:
		var panel := Panel.new()
		panel.anchor_left = 0.125
		panel.anchor_top = 0.125
		panel.anchor_right = 0.875
		panel.anchor_bottom = 0.875
		panel.add_theme_stylebox_override("panel", res)
		return panel
	if res is Theme:
		return _theme(res)
	printerr("godot-mcp render: cannot show a ", res.get_class(), " (a scene, Texture2D, Gradient, Mesh, Material, Shader, StyleBox or Theme can be shown)")
	return null


func _mode_name(m: int) -> String:
	match m:
		Shader.MODE_PARTICLES:
			return "particles"
		Shader.MODE_SKY:
			return "sky"
		Shader.MODE_FOG:
			return "fog"
	return str(m)


func _texture(tex: Texture2D) -> Node:
	var r := TextureRect.new()
	r.set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)
	r.expand_mode = TextureRect.EXPAND_IGNORE_SIZE
	r.stretch_mode = TextureRect.STRETCH_KEEP_ASPECT_CENTERED
	r.texture = tex
	return r


# _mesh frames mesh (with mat over it) by a camera looking at its bounding
# box from the front, a little from above and the right, lit by a light
# from above left of the camera, on a neutral grey with some ambient
# light so that no side is black.
func _mesh(mesh: Mesh, mat: Material) -> Node:
	var root := Node3D.new()
	root.name = "Preview"
	var mi := MeshInstance3D.new()
	mi.mesh = mesh
	if mat != null:
		mi.material_override = mat
	root.add_child(mi)
	var box := mesh.get_aabb()
	var center := box.get_center()
	var radius := maxf(box.size.length() * 0.5, 0.001)
	var cam := Camera3D.new()
	cam.fov = 40.0
	var dist := radius / sin(deg_to_rad(cam.fov * 0.5)) * 1.05
	var dir := Vector3(0.35, 0.3, 1.0).normalized()
	cam.transform = Transform3D(Basis(), center + dir * dist).looking_at(center, Vector3.UP)
	cam.near = maxf(dist * 0.01, 0.001)
	cam.far = dist * 4.0 + radius * 2.0
	cam.current = true
	root.add_child(cam)
	var light := DirectionalLight3D.new()
	light.transform = Transform3D(Basis(), Vector3(-0.5, 1.0, 1.0)).looking_at(Vector3.ZERO, Vector3.UP)
	root.add_child(light)
	var env := Environment.new()
	env.background_mode = Environment.BG_COLOR
	env.background_color = Color(0.22, 0.22, 0.24)
	env.ambient_light_source = Environment.AMBIENT_SOURCE_COLOR
	env.ambient_light_color = Color.WHITE
	env.ambient_light_energy = 0.35
	var we := WorldEnvironment.new()
	we.environment = env
	root.add_child(we)
	return root


func _theme(theme: Theme) -> Node:
	var root := PanelContainer.new()
	root.theme = theme
	root.set_anchors_and_offsets_preset(Control.PRESET_FULL_RECT)
	var box := VBoxContainer.new()
	root.add_child(box)
	var label := Label.new()
	label.text = "Label"
	box.add_child(label)
	var button := Button.new()
	button.text = "Button"
	box.add_child(button)
	var edit := LineEdit.new()
	edit.text = "LineEdit"
	box.add_child(edit)
	var check := CheckBox.new()
	check.text = "CheckBox"
	check.button_pressed = true
	box.add_child(check)
	var bar := ProgressBar.new()
	bar.value = 60
	box.add_child(bar)
	return root


func _vec(v: Variant, n: int) -> Array:
	if typeof(v) != TYPE_ARRAY or v.size() != n:
		return []
	return v


func _view(v: Dictionary) -> void:
	if v.has("position") or v.has("look_at") or v.has("fov"):
		var cam := Camera3D.new()
		var old := get_viewport().get_camera_3d()
		var xf := old.global_transform if old != null else Transform3D(Basis(), Vector3(0, 0, 5))
		if old != null:
			cam.fov = old.fov
			cam.near = old.near
			cam.far = old.far
		var p := _vec(v.get("position"), 3)
		if not p.is_empty():
			xf.origin = Vector3(p[0], p[1], p[2])
		var at := _vec(v.get("look_at"), 3)
		if not at.is_empty():
			var target := Vector3(at[0], at[1], at[2])
			var up := Vector3.UP if absf((target - xf.origin).normalized().dot(Vector3.UP)) < 0.999 else Vector3.BACK
			xf = xf.looking_at(target, up)
		if v.has("fov"):
			cam.fov = float(v["fov"])
		add_child(cam)
		cam.global_transform = xf
		cam.make_current()
		return
	var cam2 := Camera2D.new()
	var size := get_viewport().get_visible_rect().size
	var center := size * 0.5
	var zoom := 1.0
	var old2 := get_viewport().get_camera_2d()
	if old2 != null:
		center = old2.get_screen_center_position()
		zoom = old2.zoom.x
	var r := _vec(v.get("rect"), 4)
	if not r.is_empty():
		center = Vector2(r[0] + r[2] * 0.5, r[1] + r[3] * 0.5)
		zoom = minf(size.x / maxf(r[2], 0.0001), size.y / maxf(r[3], 0.0001))
	var c := _vec(v.get("center"), 2)
	if not c.is_empty():
		center = Vector2(c[0], c[1])
	if v.has("zoom"):
		zoom = float(v["zoom"])
	cam2.position = center
	cam2.zoom = Vector2(zoom, zoom)
	add_child(cam2)
	cam2.make_current()
