package webgodot

import (
	"strings"
	"testing"
)

func TestScriptClass(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want GlobalClass
		ok   bool
	}{
		{"class_name Player\nextends CharacterBody2D\n", GlobalClass{Name: "Player", Base: "CharacterBody2D"}, true},
		{"extends Node\nclass_name Late\n", GlobalClass{Name: "Late", Base: "Node"}, true},
		{"@abstract class_name Shape\nextends Node2D\n", GlobalClass{Name: "Shape", Base: "Node2D", Abstract: true}, true},
		{"@abstract class_name Shape extends Node2D\n", GlobalClass{Name: "Shape", Base: "Node2D", Abstract: true}, true},
		{"@tool\n@icon(\"res://i.svg\")\n## Docs.\n@abstract\nextends Resource\nclass_name Item\n", GlobalClass{Name: "Item", Base: "Resource", Abstract: true, Tool: true}, true},
		{"class_name Sub extends \"res://base.gd\"\n", GlobalClass{Name: "Sub", Base: "res://base.gd"}, true},
		{"class_name Plain\n\nvar x := 1\n", GlobalClass{Name: "Plain", Base: "RefCounted"}, true},
		// An annotation after the header is a member's.
		{"class_name Part\nextends Node\n\n@abstract func f()\n", GlobalClass{Name: "Part", Base: "Node"}, true},
		{"extends Node\n\nvar class_name_x := 1\n", GlobalClass{}, false},
		{"extends Node\n\nfunc f():\n\tpass\nclass_name Never\n", GlobalClass{}, false},
		{"# class_name Commented\nextends Node\n", GlobalClass{}, false},
	} {
		got, ok := ScriptClass("res://s.gd", []byte(tc.src))
		if ok != tc.ok {
			t.Errorf("%q: ok %v, want %v", tc.src, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		tc.want.Path = "res://s.gd"
		if got != tc.want {
			t.Errorf("%q: %+v, want %+v", tc.src, got, tc.want)
		}
	}
	cache := string(ClassCache([]GlobalClass{{Name: "Shape", Base: "Node2D", Path: "res://shape.gd", Abstract: true}}))
	if !strings.Contains(cache, `"class": &"Shape"`) || !strings.Contains(cache, `"is_abstract": true`) || !strings.Contains(cache, `"is_tool": false`) {
		t.Errorf("class cache:\n%s", cache)
	}
}
