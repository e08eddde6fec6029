extends Node
# godot-mcp's scene renderer: the main scene of a render pack. It
# instantiates the scene named in render.json and takes every node's
# script off before the instance enters the tree, so that none of its
# _ready, _process or _input runs: the picture is the scene as saved.
# (Instantiating still runs a script's _init and property setters.)


func _ready() -> void:
	var cfg = JSON.parse_string(FileAccess.get_file_as_string("res://.godot/godot-mcp/render.json"))
	var path := str(cfg.get("scene", "")) if typeof(cfg) == TYPE_DICTIONARY else ""
	var packed = load(path) if path != "" else null
	if not (packed is PackedScene):
		printerr("godot-mcp render: cannot load the scene ", path)
		return
	var inst: Node = packed.instantiate()
	if inst == null:
		printerr("godot-mcp render: cannot instantiate ", path)
		return
	_strip(inst)
	add_child(inst)


func _strip(n: Node) -> void:
	if n.get_script() != null:
		n.set_script(null)
	for k in n.get_children(true):
		_strip(k)
