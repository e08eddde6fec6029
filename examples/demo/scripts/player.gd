extends CharacterBody2D

const SPEED := 200.0
const JUMP_VELOCITY := -400.0

# TODO: read gravity from the project settings instead of hard-coding it.
var gravity := 980.0


func _physics_process(delta: float) -> void:
	if not is_on_floor():
		velocity.y += gravity * delta
	# FIXME: allow a short coyote time after leaving a ledge.
	if Input.is_action_just_pressed("jump") and is_on_floor():
		velocity.y = JUMP_VELOCITY
	var direction := Input.get_axis("ui_left", "ui_right")
	velocity.x = direction * SPEED if direction else move_toward(velocity.x, 0, SPEED)
	move_and_slide()
