package gdscript

import (
	"strings"
	"testing"
)

const valid = `@tool
class_name Player extends CharacterBody2D
## A doc comment.

signal hit(damage: int, source)
enum State { IDLE, RUN = 2, JUMP, }
const SPEED := 300.0
const NAMES: Array[String] = ["a", "b"]

@export_range(0, 10, 0.5) var jump: float = 4.5
@export_flags_2d_physics var mask := 0
@export_flags_3d_navigation var nav_layers := 0
@onready var sprite: Sprite2D = $Sprite2D
@onready var label := %Label as Label
var _hp := 10
var hp: int:
	get:
		return _hp
	set(value):
		_hp = clampi(value, 0, 100)
var speed: float = 1.0: set = set_speed, get = get_speed
static var count := 0

class Inner extends RefCounted:
	var x = 0x1F + 0b101 + 1_000 + 1e3 + .5
	func f() -> void:
		pass


func _ready() -> void:
	var d := {"a": 1, b = 2, &"c": ^"Node/Path"}
	var s := r"raw \d" + """multi
line""" + 'single'
	for i: int in range(3):
		if i == 1 and not d.is_empty() or i in [0, 2]:
			continue
		elif i is not int:
			break
		else:
			pass
	while _hp > 0 and count < 10: _hp -= 1; count += 1
	match State.IDLE:
		State.IDLE, State.RUN:
			print("idle")
		[1, var y, ..]:
			print(y)
		{"k": var v, ..} when v > 0:
			pass
		_:
			pass
	var f := func(a, b := 2) -> int: return a + b
	$Button.pressed.connect(func():
		print(f.call(1))
		print("x")
	)
	var t = 1 if _hp > 2 else 3
	assert(t != null, "t")
	await get_tree().process_frame
	super._ready()
	print(-t ** 2, ~t, t << 2 >> 1, t & 1 | 2 ^ 3, t % 2, !true, t != 1 && t >= 0 || t <= 3)
	var arr: Array[int] = [
		1,
		2,
	]
	arr[0] = \
		5


func set_speed(v: float) -> void:
	speed = v


func get_speed() -> float:
	return speed


func variadic(...args: Array) -> void:
	pass
`

func TestValid(t *testing.T) {
	if err := Check(valid); err != nil {
		t.Fatalf("valid script rejected: %d:%d: %s", err.Line, err.Column, err.Message)
	}
	if err := Check(""); err != nil {
		t.Fatalf("empty script: %v", err)
	}
}

func TestErrors(t *testing.T) {
	cases := []struct {
		src       string
		line, col int
		msg       string
	}{
		{"func f()\n\tpass\n", 2, 2, `Unexpected "Indent" in class body.`},
		{"func f():\n\tif true\n\t\tpass\n", 2, 9, `Expected ":" after "if" condition.`},
		{"func f():\n\tvar s = \"abc\n", 2, 10, "Unterminated string."},
		{"func f():\n\tprint(1\n", 2, 9, "Expected closing"},
		{"func f():\n\tpass\n\t\tpass\n", 3, 3, "Indent"},
		{"func f():\n\tpass\n  pass\n", 3, 1, "Used space character for indentation"},
		{"func f():\npass\n", 1, 10, "Expected indented block after function declaration."},
		{"var x = = 1\n", 1, 9, "Expected expression"},
		{"func f():\n\tvar x = 1)\n", 2, 11, "Expected end of statement"},
		{"func f():\n\t1 + 2 = 3\n", 2, 2, "Cannot assign"},
		{"func f():\n\telse:\n\t\tpass\n", 2, 2, "without a matching"},
		{"var x = 12abc\n", 1, 11, "Invalid numeric notation."},
		{"func f():\n\tvar d = {1 2}\n", 2, 13, `Expected ":" or "="`},
		{"  var x\n", 1, 1, "Indent"},
		{"var x = 1 ?\n", 1, 11, "Expected end of statement"},
	}
	for _, c := range cases {
		err := Check(c.src)
		if err == nil {
			t.Errorf("%q: no error, want %d:%d %s", c.src, c.line, c.col, c.msg)
			continue
		}
		if err.Line != c.line || err.Column != c.col || !strings.Contains(err.Message, c.msg) {
			t.Errorf("%q: %d:%d %s, want %d:%d %s", c.src, err.Line, err.Column, err.Message, c.line, c.col, c.msg)
		}
	}
}

func FuzzCheck(f *testing.F) {
	f.Add(valid)
	f.Add("func f(\n")
	f.Add("var x = [1, {2: func(): pass}]\n")
	f.Add("\"\"\"")
	f.Add("$%\n")
	f.Fuzz(func(t *testing.T, src string) {
		if err := Check(src); err != nil && (err.Line < 1 || err.Column < 1 || err.Message == "") {
			t.Fatalf("bad error position %+v", err)
		}
	})
}

// BenchmarkCheck measures the checker's throughput on a script that uses
// most of the language, repeated to about 100 KB.
func BenchmarkCheck(b *testing.B) {
	src := valid
	for len(src) < 100_000 {
		src += strings.ReplaceAll(valid, "class_name Player extends CharacterBody2D\n", "")
	}
	src = strings.ReplaceAll(src, "@tool\n", "")
	if err := Check(src); err != nil {
		b.Fatalf("%d:%d %s", err.Line, err.Column, err.Message)
	}
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		Check(src)
	}
}
