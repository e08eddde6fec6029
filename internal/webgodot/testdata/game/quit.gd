extends Node


func _ready() -> void:
	print("quit scene ran")
	load("res://broken.gd")
	get_tree().quit(3)
