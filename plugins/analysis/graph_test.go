package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// scene writes a scene whose root uses the given resources as ext_resources.
func scene(uses ...string) string {
	var b strings.Builder
	b.WriteString("[gd_scene format=3]\n\n")
	for i, u := range uses {
		typ := "PackedScene"
		if strings.HasSuffix(u, ".gd") {
			typ = "Script"
		}
		b.WriteString("[ext_resource type=\"" + typ + "\" path=\"" + u + "\" id=\"" + string(rune('1'+i)) + "\"]\n")
	}
	b.WriteString("\n[node name=\"Root\" type=\"Node2D\"]\n")
	for i := range uses {
		b.WriteString("\n[node name=\"N" + string(rune('1'+i)) + "\" parent=\".\" instance=ExtResource(\"" + string(rune('1'+i)) + "\")]\n")
	}
	return b.String()
}

func cycleProject(t *testing.T) string {
	dir := t.TempDir()
	plugintest.WriteFile(t, dir, "project.godot", "config_version=5\n\n[application]\n\nrun/main_scene=\"res://main.tscn\"\n\n[autoload]\n\nGame=\"*res://game.gd\"\n")
	plugintest.WriteFile(t, dir, "main.tscn", scene("res://a.tscn"))
	plugintest.WriteFile(t, dir, "a.tscn", scene("res://b.tscn"))
	plugintest.WriteFile(t, dir, "b.tscn", scene("res://c.tscn"))
	plugintest.WriteFile(t, dir, "c.tscn", scene("res://a.tscn", "res://b.tscn")) // cycles a→b→c→a and b→c→b
	plugintest.WriteFile(t, dir, "game.gd", "extends Node\nconst P = preload(\"res://p.gd\")\nfunc _ready():\n\tvar x = load(\"res://lazy.tscn\")\n\t$Button.pressed.connect(_on_pressed)\n\tconnect(\"hit\", self, \"_on_hit\")\n")
	plugintest.WriteFile(t, dir, "p.gd", "extends Node\nconst G = preload(\"res://game.gd\")\n") // preload cycle game→p→game
	plugintest.WriteFile(t, dir, "lazy.tscn", scene())
	plugintest.WriteFile(t, dir, "helper.gd", "class_name Helper\nextends RefCounted\n")
	plugintest.WriteFile(t, dir, "user.gd", "extends Node\nvar h := Helper.new()\n") // unused; uses Helper
	plugintest.WriteFile(t, dir, "art/icon.png", "")                                 // orphaned
	plugintest.WriteFile(t, dir, "old/only_self.tscn", scene("res://art/icon.png"))  // unused and orphaned
	return dir
}

func TestCyclesUnusedRefs(t *testing.T) {
	dir := cycleProject(t)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	defer h.Close()

	cyc := call[cyclesResult](t, h, "detect_circular_dependencies", map[string]any{})
	want := [][]string{
		{"res://a.tscn", "res://b.tscn", "res://c.tscn", "res://a.tscn"},
		{"res://b.tscn", "res://c.tscn", "res://b.tscn"},
		{"res://game.gd", "res://p.gd", "res://game.gd"},
	}
	if !reflect.DeepEqual(cyc.Cycles, want) {
		t.Errorf("cycles %v, want %v", cyc.Cycles, want)
	}
	// Paged: one cycle per page, and the pages together are the list.
	var paged [][]string
	for offset := 0; ; {
		lim := call[cyclesResult](t, h, "detect_circular_dependencies", map[string]any{"limit": 1, "offset": offset})
		if lim.Count != 3 || len(lim.Cycles) != 1 || lim.Total != 3 {
			t.Fatalf("limit 1 offset %d: %+v", offset, lim)
		}
		paged = append(paged, lim.Cycles...)
		if !lim.Truncated {
			break
		}
		if !strings.Contains(lim.Hint, "offset") {
			t.Errorf("a page without a hint to the next: %+v", lim)
		}
		offset = lim.NextOffset
	}
	if !reflect.DeepEqual(paged, want) {
		t.Errorf("cycles page by page %v, want %v", paged, want)
	}

	unused := call[unusedResult](t, h, "find_unused_resources", map[string]any{})
	var paths []string
	for _, f := range unused.Files {
		paths = append(paths, f.Path)
	}
	if w := []string{"res://art/icon.png", "res://helper.gd", "res://old/only_self.tscn", "res://user.gd"}; !reflect.DeepEqual(paths, w) {
		// art/icon.png is used only by the unused old/only_self.tscn
		t.Errorf("unused %v, want %v", paths, w)
	}
	if len(unused.Roots) != 2 || unused.Reachability == "" {
		t.Errorf("roots %+v", unused.Roots)
	}
	orph := call[unusedResult](t, h, "find_orphaned_resources", map[string]any{})
	paths = nil
	for _, f := range orph.Files {
		paths = append(paths, f.Path)
	}
	if w := []string{"res://old/only_self.tscn", "res://user.gd"}; !reflect.DeepEqual(paths, w) {
		t.Errorf("orphaned %v, want %v", paths, w)
	}

	refs := call[refsResult](t, h, "cross_scene_find_refs", map[string]any{"target": "res://b.tscn"})
	var got []string
	for _, u := range refs.Uses {
		got = append(got, u.File+":"+itoa(u.Line)+" "+u.What)
	}
	if w := []string{"res://a.tscn:3 ext_resource", "res://a.tscn:7 instance", "res://c.tscn:4 ext_resource", "res://c.tscn:10 instance"}; !reflect.DeepEqual(got, w) {
		t.Errorf("refs to b.tscn %v, want %v", got, w)
	}
	cls := call[refsResult](t, h, "cross_scene_find_refs", map[string]any{"target": "Helper"})
	if cls.Kind != "type" || len(cls.Uses) != 1 || cls.Uses[0].File != "res://user.gd" || cls.Uses[0].Line != 2 {
		t.Errorf("class_name refs %+v", cls)
	}
	ext := call[refsResult](t, h, "cross_scene_find_refs", map[string]any{"target": "RefCounted", "kind": "type"})
	if len(ext.Uses) != 1 || ext.Uses[0].File != "res://helper.gd" || ext.Uses[0].Line != 2 || ext.Uses[0].What != "extends" {
		t.Errorf("extends RefCounted: %+v", ext.Uses)
	}
	nodes := call[refsResult](t, h, "cross_scene_find_refs", map[string]any{"target": "Node2D"})
	if nodes.Kind != "type" || nodes.Total != 6 || nodes.Uses[0].Line != 5 {
		t.Errorf("Node2D nodes: %+v", nodes)
	}
	sig := call[signalResult](t, h, "analyze_signal_flow", map[string]any{})
	if sig.PerSignal["pressed"] != 1 || sig.PerSignal["hit"] != 1 || sig.Total != 2 {
		t.Errorf("signal flow %+v", sig)
	}
	dep := call[depsResult](t, h, "analyze_dependencies", map[string]any{"path": "res://game.gd"})
	if len(dep.Dependencies) != 2 || dep.Dependencies[0].Via != "preload" || dep.Dependencies[1].Via != "load" || dep.Dependencies[1].Line != 4 {
		t.Errorf("game.gd deps %+v", dep.Dependencies)
	}
	if len(dep.Dependents) != 2 { // project.godot autoload, p.gd preload
		t.Errorf("game.gd dependents %+v", dep.Dependents)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// The index re-reads only what changed: a second call parses nothing, an
// edited file is parsed again and its new references are seen.
func TestCacheInvalidation(t *testing.T) {
	dir := cycleProject(t)
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir})
	defer h.Close()
	first := call[statsResult](t, h, "project_stats", map[string]any{})
	if first.Cache.Parsed == 0 || first.Cache.Files != 12 {
		t.Fatalf("first call %+v", first.Cache)
	}
	st := call[structureResult](t, h, "project_structure", map[string]any{"depth": 1})
	if st.Files != 12 || len(st.Dirs) != 3 || st.Dirs[1].Path != "res://art" || st.Dirs[1].Kinds["asset"] != 1 || st.Dirs[0].Kinds["scene"] != 5 {
		t.Errorf("structure %+v", st)
	}
	second := call[statsResult](t, h, "project_stats", map[string]any{})
	if second.Cache.Parsed != 0 || second.Cache.Read != 0 {
		t.Errorf("second call read %d parsed %d, want 0", second.Cache.Read, second.Cache.Parsed)
	}
	plugintest.WriteFile(t, dir, "lazy.tscn", scene("res://main.tscn"))
	future := time.Now().Add(2 * time.Second)
	if err := os.Chtimes(filepath.Join(dir, "lazy.tscn"), future, future); err != nil {
		t.Fatal(err)
	}
	third := call[statsResult](t, h, "project_stats", map[string]any{})
	if third.Cache.Parsed != 1 || third.Cache.Read != 1 {
		t.Errorf("after one edit read %d parsed %d, want 1 and 1", third.Cache.Read, third.Cache.Parsed)
	}
	dep := call[depsResult](t, h, "analyze_dependencies", map[string]any{"path": "res://lazy.tscn"})
	if len(dep.Dependencies) != 1 || dep.Dependencies[0].Target != "res://main.tscn" {
		t.Errorf("edit not seen: %+v", dep.Dependencies)
	}
}
