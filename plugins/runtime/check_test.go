package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/plugintest"
	"github.com/godot-mcp/godot-mcp/sdk/sdktest"
)

// check_project loads the project in the real engine and lists what it
// refuses or drops as res:// file:line, scoped to a path and paged: a
// script that does not compile, a property the class lacks, a connection
// to a node that does not exist; a clean file reports nothing.
func TestCheckProjectInTheEngine(t *testing.T) {
	requireWeb(t)
	dir := plugintest.Project(t, map[string]string{
		"project.godot": "config_version=5\n\n[application]\n\nconfig/name=\"Check\"\nconfig/features=PackedStringArray(\"4.6\")\n",
		"ok/fine.tscn":  "[gd_scene format=3]\n\n[node name=\"Fine\" type=\"Node2D\"]\nposition = Vector2(1, 2)\n",
		"bad/level.tscn": "[gd_scene format=3]\n\n[ext_resource type=\"Script\" path=\"res://bad/broken.gd\" id=\"1\"]\n\n" +
			"[node name=\"Level\" type=\"Node2D\"]\nscript = ExtResource(\"1\")\n\n" +
			"[node name=\"Child\" type=\"Node2D\" parent=\".\"]\nspeeed = 3\n\n" +
			"[connection signal=\"ready\" from=\".\" to=\"Missing\" method=\"_on_ready\"]\n",
		"bad/broken.gd": "extends Node2D\n\nfunc _ready() -> void:\n\tvar x: int = \"text\"\n",
		// An editor plugin: the runtime has no editor classes, so it is
		// listed as skipped rather than reported.
		"addons/tool/plugin.gd": "@tool\nextends EditorPlugin\n",
	})
	h := sdktest.New(t, Toolset(), sdktest.Options{ProjectDir: dir, GodotVersion: "4.6"})
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	check := func(args map[string]any) checkResult {
		t.Helper()
		res := h.Call(ctx, "check_project", args)
		if res.Err != nil || res.IsError {
			t.Fatalf("check_project %v: %v %s", args, res.Err, res.Text())
		}
		var out checkResult
		if err := res.Structured(&out); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(res.Text(), "engine check (Godot ") {
			t.Errorf("text answer: %s", res.Text())
		}
		return out
	}
	all := check(map[string]any{})
	if all.Errors < 2 || all.FilesChecked < 4 {
		t.Fatalf("whole project: %+v", all)
	}
	var sawScript, sawProperty, sawConnection bool
	for _, p := range all.Problems {
		if !strings.HasPrefix(p.File, "res://bad/") {
			t.Errorf("a problem outside bad/: %+v", p)
		}
		if p.File == "res://bad/broken.gd" && p.Line == 4 {
			sawScript = true
		}
		if p.File == "res://bad/level.tscn" && strings.Contains(p.Message, "speeed") {
			sawProperty = true
		}
		if p.File == "res://bad/level.tscn" && p.Kind == "bad_connection" && p.Line > 0 {
			sawConnection = true
		}
	}
	if !sawScript || !sawProperty || !sawConnection {
		t.Errorf("want the type error at broken.gd:4, the unknown property speeed and the connection to Missing, got %+v", all.Problems)
	}

	if len(all.Skipped) != 1 || all.Skipped[0] != (checkSkip{File: "res://addons/tool/plugin.gd", Reason: "extends EditorPlugin"}) {
		t.Errorf("skipped %+v, want the editor plugin", all.Skipped)
	}

	clean := check(map[string]any{"path": "res://ok"})
	if clean.Errors != 0 || len(clean.Problems) != 0 || clean.FilesChecked != 1 {
		t.Errorf("res://ok: %+v", clean)
	}

	first := check(map[string]any{"limit": 1})
	if len(first.Problems) != 1 || !first.Truncated || first.NextOffset != 1 || first.Total != len(all.Problems) {
		t.Errorf("first page of one: %+v", first)
	}
	second := check(map[string]any{"limit": 1, "offset": first.NextOffset})
	if len(second.Problems) != 1 || second.Problems[0] == first.Problems[0] {
		t.Errorf("second page: %+v after %+v", second, first)
	}
}
