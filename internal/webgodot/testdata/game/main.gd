extends Node2D

var frames := 0


func _ready() -> void:
	print("game started")


func _process(delta: float) -> void:
	frames += 1
	$Player.position.x += 60.0 * delta
	if frames == 5:
		print("loading the broken script")
		load("res://broken.gd")
