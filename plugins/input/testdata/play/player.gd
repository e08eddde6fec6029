extends CharacterBody2D
# Moves 60 px per second of game time while move_left/move_right is held,
# scaled by the action's strength: one pixel per physics tick at 60 ticks/s.

const SPEED := 60.0


func _physics_process(delta: float) -> void:
	velocity = Vector2(Input.get_axis("move_left", "move_right") * SPEED, 0.0)
	position += velocity * delta
