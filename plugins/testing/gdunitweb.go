package main

import (
	"bytes"
	"encoding/base64"
	"regexp"
	"strings"

	"github.com/godot-mcp/godot-mcp/internal/webgodot"
)

// gdUnit4 in the web runtime.
//
// The web runtime is a release export template: it has no editor classes,
// and Godot 4.6 dropped FileAccess.get_as_text's skip_cr argument (it is
// a compatibility binding, which GDScript does not see). gdUnit4 6.1's
// command-line runner names both on its load path, so its scripts do not
// compile there as they are:
//
//   - src/core/GdUnitFileAccess.gd calls file.get_as_text(true);
//   - src/reporters/console/GdUnitConsoleTestReporter.gd reads
//     EditorInterface.get_editor_settings(), behind Engine.is_editor_hint().
//
// patchGdUnitForWeb rewrites those two forms in the packed copy of the
// addon (the project's files are never touched): get_as_text(true) becomes
// get_as_text().replace("\r", ""), which is what the compatibility binding
// does, and EditorInterface is reached through Engine.get_singleton, which
// compiles everywhere and is only evaluated in the editor, where the
// singleton exists. The addon's editor plugin (plugin.gd, src/ui) is
// packed but never loaded by the runner.
//
// The runner writes its JUnit report into the browser's memory file
// system, out of the server's reach, so gdunitWebRunner (gdUnit4's CI
// runner with two methods replaced) prints it to the output, base64 on
// one line after gdunitJUnitMarker, where it would prune old reports, and
// quits as soon as the run is over, without the addon's last clean-up.
// The launcher switches the HTML report off: the 4.6 web build died
// writing it ("memory access out of bounds") and never exited.

var (
	getAsTextSkipCR  = regexp.MustCompile(`\.get_as_text\(\s*true\s*\)`)
	editorInterface  = regexp.MustCompile(`\bEditorInterface\.`)
	inferredAssignRE = regexp.MustCompile(`^(\s*(?:var|const)\s+\w+\s*):=`)
)

// patchGdUnitForWeb returns files with gdUnit4's scripts rewritten as
// described above.
func patchGdUnitForWeb(files []webgodot.PackFile) []webgodot.PackFile {
	out := make([]webgodot.PackFile, len(files))
	for i, f := range files {
		out[i] = f
		if !strings.HasPrefix(f.Path, "addons/gdUnit4/") || !strings.HasSuffix(f.Path, ".gd") {
			continue
		}
		if b, ok := patchGdUnitScript(f.Data); ok {
			out[i].Data = b
		}
	}
	return out
}

// patchGdUnitScript rewrites one script; ok is false when nothing changed.
func patchGdUnitScript(src []byte) ([]byte, bool) {
	if !bytes.Contains(src, []byte("get_as_text")) && !bytes.Contains(src, []byte("EditorInterface")) {
		return nil, false
	}
	lines := strings.Split(string(src), "\n")
	changed := false
	for i, l := range lines {
		code := l
		if strings.HasPrefix(strings.TrimSpace(code), "#") {
			continue
		}
		n := getAsTextSkipCR.ReplaceAllString(code, `.get_as_text().replace("\r", "")`)
		if editorInterface.MatchString(n) && !strings.Contains(n, `"EditorInterface`) {
			n = editorInterface.ReplaceAllString(n, `Engine.get_singleton(&"EditorInterface").`)
			// The singleton is an Object: its calls return Variant, so a
			// type can no longer be inferred from them.
			n = inferredAssignRE.ReplaceAllString(n, "${1}=")
		}
		if n != l {
			lines[i], changed = n, true
		}
	}
	if !changed {
		return nil, false
	}
	return []byte(strings.Join(lines, "\n")), true
}

// gdunitWebRunnerPath is where the runner goes in the pack.
const gdunitWebRunnerPath = ".godot/godot-mcp/gdunit_web_runner.gd"

// gdunitJUnitMarker starts the output line holding the JUnit report.
const gdunitJUnitMarker = "godot-mcp:gdunit4-junit:"

const gdunitWebRunner = `extends "res://` + gdunitCI + `"


func cleanup_report_history() -> int:
	var f := FileAccess.open(report_path + "/results.xml", FileAccess.READ)
	if f == null:
		printerr("godot-mcp: gdUnit4 wrote no report at %s" % report_path)
	else:
		print("` + gdunitJUnitMarker + `" + Marshalls.utf8_to_base64(f.get_as_text()))
	return 0


func quit(code: int) -> void:
	_state = EXIT
	await get_tree().process_frame
	get_tree().quit(code)
`

// junitFromOutput finds the report gdunitWebRunner printed and returns
// its tests, and the output without that line.
func junitFromOutput(output string) ([]TestCase, string, bool) {
	i := strings.Index(output, gdunitJUnitMarker)
	if i < 0 {
		return nil, output, false
	}
	end := strings.IndexByte(output[i:], '\n')
	if end < 0 {
		end = len(output) - i
	}
	line := output[i+len(gdunitJUnitMarker) : i+end]
	rest := output[:i] + strings.TrimPrefix(output[i+end:], "\n")
	b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(line))
	if err != nil {
		return nil, rest, false
	}
	tests, err := ParseJUnit(b)
	return tests, rest, err == nil
}
