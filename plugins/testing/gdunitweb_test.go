package main

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/webgodot"
)

// The two forms of gdUnit4 6.1 that do not compile in the 4.6 web
// runtime are rewritten in the packed copy of the addon, other scripts
// and lines are left as they are.
func TestPatchGdUnitForWeb(t *testing.T) {
	files := []webgodot.PackFile{
		{Path: "addons/gdUnit4/src/core/GdUnitFileAccess.gd", Data: []byte("static func f(file: FileAccess) -> String:\n\treturn file.get_as_text(true)\n")},
		{Path: "addons/gdUnit4/src/reporters/console/GdUnitConsoleTestReporter.gd", Data: []byte(
			"func init_colors() -> void:\n\tif Engine.is_editor_hint():\n\t\tvar settings := EditorInterface.get_editor_settings()\n\t\t# EditorInterface.x stays in a comment\n\t\tprint(\"EditorInterface.\")\n")},
		{Path: "addons/gdUnit4/src/core/Other.gd", Data: []byte("func g(f: FileAccess) -> String:\n\treturn f.get_as_text()\n")},
		{Path: "player.gd", Data: []byte("var s := EditorInterface.get_editor_settings()\n")},
	}
	out := patchGdUnitForWeb(files)
	want := []string{
		"static func f(file: FileAccess) -> String:\n\treturn file.get_as_text().replace(\"\\r\", \"\")\n",
		"func init_colors() -> void:\n\tif Engine.is_editor_hint():\n\t\tvar settings = Engine.get_singleton(&\"EditorInterface\").get_editor_settings()\n\t\t# EditorInterface.x stays in a comment\n\t\tprint(\"EditorInterface.\")\n",
		string(files[2].Data),
		string(files[3].Data),
	}
	for i := range want {
		if string(out[i].Data) != want[i] {
			t.Errorf("%s:\n%s\nwant\n%s", out[i].Path, out[i].Data, want[i])
		}
	}
	if string(files[0].Data) == want[0] {
		t.Error("the project's file data was changed in place")
	}
}

// The report the web runner prints is read back and its line removed
// from the output.
func TestJUnitFromOutput(t *testing.T) {
	output := "Godot Engine v4.6\n" + gdunitJUnitMarker + base64.StdEncoding.EncodeToString([]byte(junitXML)) + "\nExit code: 100\n"
	tests, rest, ok := junitFromOutput(output)
	if !ok || len(tests) != 3 || tests[1].Location != "res://test/test_calc.gd:8" {
		t.Fatalf("%v %+v", ok, tests)
	}
	if rest != "Godot Engine v4.6\nExit code: 100\n" {
		t.Errorf("rest %q", rest)
	}
	if _, _, ok := junitFromOutput("no report\n"); ok {
		t.Error("found a report in output without one")
	}
	if _, _, ok := junitFromOutput(gdunitJUnitMarker + "%%%\n"); ok || strings.Contains(rest, gdunitJUnitMarker) {
		t.Error("a broken report was read")
	}
}
