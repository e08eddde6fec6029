package main

import (
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/enginecheck"
	"github.com/godot-mcp/godot-mcp/internal/webgodot/loadcheck"
	"github.com/godot-mcp/godot-mcp/sdk/godot/gdscript"
)

// TestErrorPositionsMatchGodot pins where the built-in checker reports
// errors whose position in Godot 4.6 is not the obvious one (an unindent
// on the line before it, a missing argument at the line break, a lambda
// body measured against the enclosing block) by having the engine compile
// the same scripts.
func TestErrorPositionsMatchGodot(t *testing.T) {
	scripts := map[string]string{
		"over_indent_after_comment.gd": "extends Node\nfunc f(x):\n\tif x:\n\t\t# c\n\t\t\tprint(1)\n\t\tx = 2\n\tpass\n",
		"over_indent.gd":               "extends Node\nfunc f(x):\n\tif x:\n\t\t\tprint(1)\n\t\tx = 2\n\tpass\n",
		"comment_at_col0.gd":           "extends Node\nfunc f(x):\n\tif x:\n# c\n\t\tprint(1)\n\tpass\n",
		"unclosed_before_func.gd":      "extends Node\nfunc f(x):\n\tx.call(\n\n\nfunc g(y) -> void:\n\tif y:\n\t\tpass\n",
		"unclosed_before_var.gd":       "extends Node\nfunc f(x):\n\tx.call(\n\tvar y = 2\n",
		"no_block.gd":                  "extends Node\nfunc f():\npass\n",
		"comment_deeper.gd":            "extends Node\nfunc f(x):\n\tif x:\n\t\t\t# c\n\t\tprint(1)\n\tpass\n",
		"func_no_colon.gd":             "extends Node\nfunc f() -> void\n\tpass\n",
		"if_no_colon.gd":               "extends Node\nfunc f(x):\n\tif x.is_empty()\n\t\tpass\n",
	}
	files := map[string][]byte{"project.godot": []byte("config_version=5\n")}
	for k, v := range scripts {
		files[k] = []byte(v)
	}
	rep := enginecheck.Run(t, files, loadcheck.Options{})
	for name, src := range scripts {
		ours := gdscript.Check(src)
		// Godot may report several errors on its first error line; ours
		// must be one of them.
		var godotLine int
		msgs := map[string]bool{}
		for _, p := range rep.Problems {
			if p.File == name && p.Line > 0 && !p.IsWarning() && (godotLine == 0 || p.Line <= godotLine) {
				if p.Line != godotLine {
					msgs = map[string]bool{}
				}
				godotLine = p.Line
				msgs[strings.TrimPrefix(p.Message, "Parse Error: ")] = true
			}
		}
		godotMsg := strings.Join(keys(msgs), " | ")
		switch {
		case ours == nil && godotLine == 0:
		case ours == nil:
			t.Errorf("%s: Godot rejects at line %d (%s), the built-in checker accepts", name, godotLine, godotMsg)
		case godotLine == 0:
			t.Errorf("%s: the built-in checker rejects at %d (%s), Godot accepts", name, ours.Line, ours.Message)
		case ours.Line != godotLine || !msgs[ours.Message]:
			t.Errorf("%s: built-in %d %q, Godot %d %q", name, ours.Line, ours.Message, godotLine, godotMsg)
		}
	}
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
