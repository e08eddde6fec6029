package e2e

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// toolNameRE finds what looks like an exposed tool name in text.
var toolNameRE = regexp.MustCompile(`\bgodot_[a-z0-9_]*[a-z0-9]\b`)

// toolCallRE finds a tool named with its first argument, as hints write
// it: godot_x {"arg": …} or godot_x({"arg": …}).
var toolCallRE = regexp.MustCompile(`\b(godot_[a-z0-9_]*[a-z0-9])\(?\s*\{\s*"([A-Za-z0-9_]+)"`)

// notToolNames are godot_ words that name something other than a tool:
// arguments, metrics, the addon's folder, fields.
var notToolNames = []string{"godot_version", "godot_constraint", "godot_peer", "godot_mcp", "godot_version_changed", "godot_bin", "godot_web_runtime", "godot_type"}

// Every tool name a hint, an error or a description mentions exists: an
// agent that follows a hint to a tool that is not there gets "unknown
// tool" and is stuck. The names come from the contract snapshots (every
// first-party toolset and the core tools); the text from the string
// literals of the host, the plugins, the SDK and the CLI (tests and test
// plugins aside) and from the snapshots' own descriptions.
func TestEveryMentionedToolExists(t *testing.T) {
	exists := map[string]bool{}
	args := map[string]map[string]bool{} // tool -> its argument names
	var descriptions []string
	snaps, err := filepath.Glob(filepath.Join("testdata", "contract", "*.json"))
	if err != nil || len(snaps) == 0 {
		t.Fatalf("no contract snapshots: %v", err)
	}
	for _, f := range snaps {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var tools []struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Input       json.RawMessage `json:"inputSchema"`
		}
		if err := json.Unmarshal(b, &tools); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, tl := range tools {
			exists[tl.Name] = true
			var schema struct {
				Properties map[string]json.RawMessage `json:"properties"`
			}
			_ = json.Unmarshal(tl.Input, &schema)
			args[tl.Name] = map[string]bool{}
			for a := range schema.Properties {
				args[tl.Name][a] = true
			}
			descriptions = append(descriptions, tl.Description, string(tl.Input))
		}
	}
	check := func(where, text string) {
		for _, name := range toolNameRE.FindAllString(text, -1) {
			if exists[name] || slices.Contains(notToolNames, name) || strings.HasPrefix(name, "godot_mcp_") {
				continue
			}
			// Toolsets of the tests' own and the tutorial's plugins.
			if strings.HasPrefix(name, "godot_todo_") || strings.HasPrefix(name, "godot_node_example_") {
				continue
			}
			t.Errorf("%s mentions %s, which is no tool", where, name)
		}
		// A hint that shows a call must show an argument the tool takes.
		for _, m := range toolCallRE.FindAllStringSubmatch(text, -1) {
			if exists[m[1]] && !args[m[1]][m[2]] {
				t.Errorf("%s shows %s with argument %q, which it does not take", where, m[1], m[2])
			}
		}
	}
	for _, d := range descriptions {
		check("a tool description or schema", d)
	}
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	for _, dir := range []string{"plugins", "host", "sdk", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || d.Name() == "testplugins" || d.Name() == "proto") {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if s, err := strconv.Unquote(lit.Value); err == nil {
						check(fset.Position(lit.Pos()).String(), s)
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
