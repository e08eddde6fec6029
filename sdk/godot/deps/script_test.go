package deps

import (
	"reflect"
	"testing"
)

func TestScriptScan(t *testing.T) {
	src := `class_name Hero
extends "res://base/actor.gd"
# const X = preload("res://commented.tscn")
const Gun = preload("res://weapons/gun.tscn") # a "comment" with res://nope
var tag = "#not a comment"
var path := 'res://single.tres'

func _ready() -> void:
	var s = ResourceLoader.load("res://lazy.tscn")
	$Button.pressed.connect(_on_pressed)
	body_entered.connect(_on_body)
	timer.connect("timeout", self, "_on_timeout")
	disconnect("x", self, "y")
	var e := Enemy.new()
`
	fi := summarise("res://hero.gd", KindScript, []byte(src))
	if fi.ClassName != "Hero" || fi.Extends != "res://base/actor.gd" {
		t.Errorf("class %q extends %q", fi.ClassName, fi.Extends)
	}
	var refs []string
	for _, r := range fi.Refs {
		refs = append(refs, r.Via+" "+r.Raw+" "+itoa(r.Line))
	}
	want := []string{"extends res://base/actor.gd 2", "preload res://weapons/gun.tscn 4", "string res://single.tres 6", "load res://lazy.tscn 9"}
	if !reflect.DeepEqual(refs, want) {
		t.Errorf("refs %v, want %v", refs, want)
	}
	var sigs []string
	for _, c := range fi.Connections {
		sigs = append(sigs, c.Signal+" "+itoa(c.Line))
	}
	if w := []string{"pressed 10", "body_entered 11", "timeout 12"}; !reflect.DeepEqual(sigs, w) {
		t.Errorf("connections %v, want %v", sigs, w)
	}
	found := false
	for _, id := range fi.idents {
		found = found || id.name == "Enemy" && id.line == 14
	}
	if !found {
		t.Errorf("Enemy not among identifiers %v", fi.idents)
	}
}
