extends Node


func _ready() -> void:
	var x := 1 +
