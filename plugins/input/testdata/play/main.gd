extends Node2D
# Counts the Go button's presses and the Ctrl+S shortcuts it saw.

var clicks := 0
var saves := 0
var wheel := 0


func _on_go_pressed() -> void:
	clicks += 1


func _unhandled_input(event: InputEvent) -> void:
	if event is InputEventKey and event.pressed and event.keycode == KEY_S and event.ctrl_pressed:
		saves += 1
	if event is InputEventMouseButton and event.pressed and event.button_index == MOUSE_BUTTON_WHEEL_UP:
		wheel += 1
