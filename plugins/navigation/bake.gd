extends Node
# godot-mcp's navigation baker: the main scene of a bake pack. It loads
# the scene named in bake.json, takes every script off (none of the
# game's code runs), adds it to the tree, bakes the navigation region at
# the node path given with the engine's own baker, saves the result with
# ResourceSaver and prints it as one "@@bake {json}" line; with "from" and
# "to" it also asks the NavigationServer for a path over the baked mesh.


func _strip(n: Node) -> void:
	if n.get_script() != null:
		n.set_script(null)
	for k: Node in n.get_children(true):
		_strip(k)


func _done(msg: Dictionary) -> void:
	print("@@bake ", JSON.stringify(msg))
	get_tree().quit()


func _ready() -> void:
	var cfg: Dictionary = JSON.parse_string(FileAccess.get_file_as_string("res://.godot/godot-mcp/bake.json"))
	ResourceLoader.set_abort_on_missing_resources(true)
	var packed: Resource = load(str(cfg["scene"]))
	if not (packed is PackedScene):
		_done({"error": "cannot load the scene " + str(cfg["scene"])})
		return
	var inst: Node = (packed as PackedScene).instantiate()
	if inst == null:
		_done({"error": "cannot instantiate the scene " + str(cfg["scene"])})
		return
	_strip(inst)
	add_child(inst)
	var region: Node = inst.get_node_or_null(NodePath(str(cfg["node"])))
	var res: Resource = null
	var out: Dictionary = {}
	if region is NavigationRegion2D:
		var r2: NavigationRegion2D = region as NavigationRegion2D
		var poly: NavigationPolygon = r2.navigation_polygon
		if poly == null:
			_done({"error": "the region has no navigation_polygon"})
			return
		r2.bake_navigation_polygon(false)
		res = r2.navigation_polygon
		out["polygon_count"] = r2.navigation_polygon.get_polygon_count()
		out["vertex_count"] = r2.navigation_polygon.get_vertices().size()
		out["outline_count"] = r2.navigation_polygon.get_outline_count()
	elif region is NavigationRegion3D:
		var r3: NavigationRegion3D = region as NavigationRegion3D
		var mesh: NavigationMesh = r3.navigation_mesh
		if mesh == null:
			_done({"error": "the region has no navigation_mesh"})
			return
		r3.bake_navigation_mesh(false)
		res = r3.navigation_mesh
		out["polygon_count"] = r3.navigation_mesh.get_polygon_count()
		out["vertex_count"] = r3.navigation_mesh.get_vertices().size()
	else:
		_done({"error": "no NavigationRegion2D/3D at " + str(cfg["node"])})
		return
	var tmp: String = "user://godot-mcp-bake.tres"
	var err: Error = ResourceSaver.save(res.duplicate(), tmp)
	if err != OK:
		_done({"error": "ResourceSaver could not save the baked resource: " + error_string(err)})
		return
	out["text"] = FileAccess.get_file_as_string(tmp)
	if cfg.has("from") and cfg.has("to"):
		# The path is asked of a map of its own holding only the baked
		# region, synced at once: waiting for the scene's maps to sync on
		# a physics frame crashes this web build on some scenes.
		var f: Array = cfg["from"]
		var t: Array = cfg["to"]
		var path: Array = []
		if region is NavigationRegion2D:
			var r2p: NavigationRegion2D = region as NavigationRegion2D
			var map2: RID = NavigationServer2D.map_create()
			NavigationServer2D.map_set_cell_size(map2, r2p.navigation_polygon.cell_size)
			NavigationServer2D.map_set_active(map2, true)
			var reg2: RID = NavigationServer2D.region_create()
			NavigationServer2D.region_set_map(reg2, map2)
			NavigationServer2D.region_set_transform(reg2, r2p.global_transform)
			NavigationServer2D.region_set_navigation_polygon(reg2, r2p.navigation_polygon)
			NavigationServer2D.map_force_update(map2)
			for p: Vector2 in NavigationServer2D.map_get_path(map2, Vector2(f[0], f[1]), Vector2(t[0], t[1]), true):
				path.append([p.x, p.y])
		else:
			var r3p: NavigationRegion3D = region as NavigationRegion3D
			var map3: RID = NavigationServer3D.map_create()
			NavigationServer3D.map_set_cell_size(map3, r3p.navigation_mesh.cell_size)
			NavigationServer3D.map_set_cell_height(map3, r3p.navigation_mesh.cell_height)
			NavigationServer3D.map_set_active(map3, true)
			var reg3: RID = NavigationServer3D.region_create()
			NavigationServer3D.region_set_map(reg3, map3)
			NavigationServer3D.region_set_transform(reg3, r3p.global_transform)
			NavigationServer3D.region_set_navigation_mesh(reg3, r3p.navigation_mesh)
			NavigationServer3D.map_force_update(map3)
			for p: Vector3 in NavigationServer3D.map_get_path(map3, Vector3(f[0], f[1], f[2]), Vector3(t[0], t[1], t[2]), true):
				path.append([p.x, p.y, p.z])
		out["path"] = path
	_done(out)
