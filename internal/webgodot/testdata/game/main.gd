extends Node2D

var frames := 0


func _ready() -> void:
	# The scene saves the player at x = 40; running, it starts at 150, so
	# a render without scripts and a running game tell themselves apart.
	$Player.position.x = 150
	print("game started")


func _process(delta: float) -> void:
	frames += 1
	$Player.position.x += 60.0 * delta
	if frames == 5:
		print("loading the broken script")
		load("res://broken.gd")
