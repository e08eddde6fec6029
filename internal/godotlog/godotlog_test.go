package godotlog

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// godot3-run.txt is what the real Godot 3.2.3 server binary printed for a
// project with a push_warning, a push_error, a bad dictionary access in a
// helper function and a script with a syntax error.
func TestGodot3Output(t *testing.T) {
	errs, warns, dropped := Parse(read(t, "godot3-run.txt"))
	wantErrs := []Entry{
		{Kind: "ERROR", Message: "something failed", Engine: "modules/gdscript/gdscript_functions.cpp:803"},
		{Kind: "SCRIPT ERROR", Message: "Invalid get index 'missing_thing' (on base: 'Dictionary').", File: "res://main.gd", Line: 12, Function: "helper"},
		{Kind: "PARSE ERROR", Message: `Error parsing expression, misplaced: '\n'`, File: "res://scripts/broken.gd", Line: 6},
		{Kind: "ERROR", Message: "Method failed. Returning: ERR_PARSE_ERROR", Engine: "modules/gdscript/gdscript.cpp:599"},
	}
	wantWarns := []Entry{{Kind: "WARNING", Message: "careful now", Engine: "modules/gdscript/gdscript_functions.cpp:817"}}
	if !reflect.DeepEqual(errs, wantErrs) {
		t.Errorf("errors:\n got %+v\nwant %+v", errs, wantErrs)
	}
	if !reflect.DeepEqual(warns, wantWarns) {
		t.Errorf("warnings:\n got %+v\nwant %+v", warns, wantWarns)
	}
	if dropped != 0 {
		t.Errorf("dropped %d", dropped)
	}
}

// godot4-run.txt is written from the Godot 4 Unix terminal logger's format
// (drivers/unix/os_unix.cpp): per-kind indentation of "at:", colour codes
// around the first warning as on a terminal, a 4.5-style GDScript backtrace
// after an engine error, a USER ERROR and a bare parse-error line.
func TestGodot4Output(t *testing.T) {
	errs, warns, _ := Parse(read(t, "godot4-run.txt"))
	wantErrs := []Entry{
		{Kind: "SCRIPT ERROR", Message: "Invalid access to property or key 'missing' on a base object of type 'Dictionary'.", File: "res://main.gd", Line: 12, Function: "helper"},
		{Kind: "PARSE ERROR", Message: `Expected expression after "=".`, File: "res://scripts/broken.gd", Line: 5},
		{Kind: "ERROR", Message: `Failed to load script "res://scripts/broken.gd" with error "Parse error".`, Engine: "modules/gdscript/gdscript.cpp:3022"},
		{Kind: "USER ERROR", Message: "pushed by the game", File: "res://main.gd", Line: 7, Function: "_ready"},
		{Kind: "ERROR", Message: "something failed", File: "res://enemies/spawner.gd", Line: 31, Function: "spawn_enemy", Engine: "core/variant/variant_utility.cpp:1105"},
		{Kind: "SHADER ERROR", Message: "Unknown identifier in expression: 'colour'.", Engine: ":4"},
		{Kind: "PARSE ERROR", Message: "Unexpected token", File: "res://old.gd", Line: 3},
	}
	wantWarns := []Entry{{Kind: "WARNING", Message: "careful now", Engine: "core/variant/variant_utility.cpp:1118"}}
	if !reflect.DeepEqual(errs, wantErrs) {
		t.Errorf("errors:\n got %+v\nwant %+v", errs, wantErrs)
	}
	if !reflect.DeepEqual(warns, wantWarns) {
		t.Errorf("warnings:\n got %+v\nwant %+v", warns, wantWarns)
	}
}

func TestHeadWithoutLocation(t *testing.T) {
	errs, _, _ := Parse("ERROR: first\nERROR: second\nplain line\n")
	if len(errs) != 2 || errs[0].Message != "first" || errs[1].Message != "second" {
		t.Fatalf("got %+v", errs)
	}
}

func TestPrintedTextIsNotAnError(t *testing.T) {
	errs, warns, _ := Parse("the player said ERROR: nothing\n  At: res://x.gd:1.\nWARNINGS: 0\n")
	if len(errs)+len(warns) != 0 {
		t.Fatalf("got %+v %+v", errs, warns)
	}
}

func TestEntriesAreBounded(t *testing.T) {
	out := strings.Repeat("ERROR: again\n   at: f (res://a.gd:1)\n", MaxEntries+50)
	errs, _, dropped := Parse(out)
	if len(errs) != MaxEntries || dropped != 50 {
		t.Fatalf("kept %d, dropped %d", len(errs), dropped)
	}
	long := "ERROR: " + strings.Repeat("é", maxMessage) + "\n"
	errs, _, _ = Parse(long)
	if len(errs[0].Message) > maxMessage+len("…") || !strings.HasSuffix(errs[0].Message, "…") {
		t.Fatalf("message not clipped: %d bytes", len(errs[0].Message))
	}
}

func FuzzParse(f *testing.F) {
	for _, name := range []string{"godot3-run.txt", "godot4-run.txt"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("SCRIPT ERROR: f: \n   At: res://:99999999999999999999.\n")
	f.Fuzz(func(t *testing.T, s string) {
		errs, warns, dropped := Parse(s)
		if len(errs)+len(warns) > MaxEntries || dropped < 0 {
			t.Fatalf("bounds broken: %d %d %d", len(errs), len(warns), dropped)
		}
		for _, e := range append(errs, warns...) {
			if e.File != "" && !strings.HasPrefix(e.File, "res://") {
				t.Fatalf("file %q is not a res:// path", e.File)
			}
			if len(e.Message) > maxMessage+len("…") {
				t.Fatalf("message of %d bytes", len(e.Message))
			}
		}
	})
}

// godot3-export.txt is what godot3-server --export printed without export
// templates: a message spanning lines before its At: line.
func TestMultiLineMessage(t *testing.T) {
	errs, _, _ := Parse(read(t, "godot3-export.txt"))
	if len(errs) != 2 {
		t.Fatalf("got %+v", errs)
	}
	want := "Cannot export project with preset 'Linux/X11' due to configuration errors:\nNo export template found at the expected path:\n/home/dev/.local/share/godot/templates/3.2.3.stable/linux_x11_64_debug"
	if errs[0].Message != want || errs[0].Engine != "editor/editor_node.cpp:730" {
		t.Fatalf("got %q (%s)", errs[0].Message, errs[0].Engine)
	}
	// A head without a location line does not swallow what follows.
	errs, _, _ = Parse("ERROR: alone\nERROR: next\n   at: f (res://a.gd:2)\n")
	if len(errs) != 2 || errs[0].Message != "alone" || errs[1].File != "res://a.gd" {
		t.Fatalf("got %+v", errs)
	}
	errs, _, _ = Parse("ERROR: alone\nplain\nres://b.gd:4 - Parse Error: bad\n")
	if len(errs) != 2 || errs[1].File != "res://b.gd" || errs[1].Line != 4 {
		t.Fatalf("got %+v", errs)
	}
}
