package godot_test

import (
	"fmt"

	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// Parse a scene, set a property, add a node with a texture and write it back.
func Example() {
	src := []byte(`[gd_scene format=3 uid="uid://bggkaprn62fwm"]

[node name="Main" type="Node" unique_id=1975992027]

[node name="MobTimer" type="Timer" parent="." unique_id=228987391]
wait_time = 0.5
`)
	scene, err := godot.ParseFile("main.tscn", src)
	if err != nil {
		fmt.Println(err)
		return
	}
	scene.Node("MobTimer").Set("wait_time", godot.Float(0.75))

	tex, err := scene.AddExtResource("Texture2D", "res://art/icon.png", "")
	if err != nil {
		fmt.Println(err)
		return
	}
	sprite, err := scene.AddNode(".", "Icon", "Sprite2D")
	if err != nil {
		fmt.Println(err)
		return
	}
	sprite.Set("texture", tex)
	sprite.Set("position", godot.Vector2{X: 240, Y: 450})

	fmt.Print(string(scene.Bytes()))
	// Output:
	// [gd_scene format=3 uid="uid://bggkaprn62fwm"]
	//
	// [ext_resource type="Texture2D" path="res://art/icon.png" id="1_n5imx"]
	//
	// [node name="Main" type="Node" unique_id=1975992027]
	//
	// [node name="MobTimer" type="Timer" parent="." unique_id=228987391]
	// wait_time = 0.75
	//
	// [node name="Icon" type="Sprite2D" parent="." unique_id=243685876]
	// texture = ExtResource("1_n5imx")
	// position = Vector2(240, 450)
}

// Parse errors carry the file, line and column.
func ExampleParseFile_error() {
	_, err := godot.ParseFile("main.tscn", []byte("[gd_scene format=3]\n\n[node name=\"A\" type=\"Node\" = ]\n"))
	fmt.Println(err)
	// Output:
	// main.tscn:3:28: expected a field name or ']' in [node] header, found '='
}

// project.godot settings and input actions.
func ExampleProject() {
	p, err := godot.ParseProject("project.godot", []byte(`config_version=5

[application]

config/name="Demo"
config/features=PackedStringArray("4.7", "Forward Plus")
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Version())
	p.SetSetting("display/window/size/viewport_width", godot.Int(640))
	_ = p.AddInputEvent("jump", godot.InputEventKey{PhysicalKeycode: 32})
	fmt.Print(string(p.Bytes()))
	// Output:
	// 4.7
	// config_version=5
	//
	// [application]
	//
	// config/name="Demo"
	// config/features=PackedStringArray("4.7", "Forward Plus")
	//
	// [display]
	//
	// window/size/viewport_width=640
	//
	// [input]
	//
	// jump={
	// "deadzone": 0.2,
	// "events": [Object(InputEventKey,"resource_local_to_scene":false,"resource_name":"","device":0,"window_id":0,"alt_pressed":false,"shift_pressed":false,"ctrl_pressed":false,"meta_pressed":false,"pressed":false,"keycode":0,"physical_keycode":32,"key_label":0,"unicode":0,"location":0,"echo":false,"script":null)
	// ]
	// }
}
