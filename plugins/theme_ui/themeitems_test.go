package main

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/webgodot"
)

var update = flag.Bool("update", false, "regenerate themeitems.json from the engine")

// themeItemsScript lists the theme_override_* properties of an instance
// of every instantiable Control and Window class.
const themeItemsScript = `extends Node
func _ready():
	var items = {}
	var classes = Array(ClassDB.get_inheriters_from_class("Control")) + Array(ClassDB.get_inheriters_from_class("Window"))
	classes.append("Control")
	classes.append("Window")
	for c in classes:
		if not ClassDB.can_instantiate(c):
			continue
		var o = ClassDB.instantiate(c)
		var l = []
		for p in o.get_property_list():
			if String(p.name).begins_with("theme_override_"):
				l.append(p.name)
		items[c] = l
		o.free()
	print("ENGINE " + Engine.get_version_info().string)
	print("ITEMS " + JSON.stringify(items))
	get_tree().quit()
`

// The embedded table is what the engine lists (regenerate with
// go test ./plugins/theme_ui -run TestThemeItemsMatchTheEngine -update).
func TestThemeItemsMatchTheEngine(t *testing.T) {
	requireEngine(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := enginecheck.Runner(t).Run(ctx, webgodot.ScriptProject(themeItemsScript))
	if err != nil {
		t.Fatal(err)
	}
	tab := themeTable{Classes: map[string]map[string][]string{}}
	var raw map[string][]string
	for _, l := range res.Lines {
		if s, ok := strings.CutPrefix(l.Text, "ENGINE "); ok {
			tab.Engine = s
		}
		if s, ok := strings.CutPrefix(l.Text, "ITEMS "); ok {
			if err := json.Unmarshal([]byte(s), &raw); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(raw) < 50 {
		t.Fatalf("the engine listed %d classes: %+v", len(raw), res.Lines)
	}
	for c, props := range raw {
		m := map[string][]string{}
		for _, p := range props {
			g, name, _ := strings.Cut(strings.TrimPrefix(p, "theme_override_"), "/")
			m[g] = append(m[g], name)
		}
		for g := range m {
			sort.Strings(m[g])
		}
		tab.Classes[c] = m
	}
	if *update {
		b, err := json.MarshalIndent(tab, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("themeitems.json", append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got := themeItems(); !reflect.DeepEqual(got.Classes, tab.Classes) {
		t.Errorf("themeitems.json differs from the engine's theme items; regenerate it with -update")
	}
}
