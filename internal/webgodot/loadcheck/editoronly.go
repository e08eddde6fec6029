package loadcheck

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

// Editor-only scripts: the web runtime is a release template without the
// editor's classes (EditorPlugin, EditorInterface, ScriptEditor, ...), so
// an editor plugin cannot compile there, though it works in the editor.
// Such scripts, and what under addons/ needs them, are not checked; the
// report lists them as skipped.

// editorClassRe matches names of the editor's classes; a name counts only
// when the runtime's class database does not have it and no project script
// declares it as its class_name.
var editorClassRe = regexp.MustCompile(`\b(?:Editor[A-Z][A-Za-z0-9_]*|ScriptEditor(?:Base)?|FileSystemDock|ScriptCreateDialog)\b`)

// scriptPathRe finds the files a script loads by path: preload and
// extends with a string when it compiles (groups 2-3), load when it runs
// (group 1).
var scriptPathRe = regexp.MustCompile(`\b(?:(load|ResourceLoader\.load)|preload|extends)\s*(?:\(\s*)?(?:"([^"\n]+)"|'([^'\n]+)')`)

// identRe finds capitalised identifiers: the class_names a script may use.
var identRe = regexp.MustCompile(`\b[A-Z][A-Za-z0-9_]*\b`)

// scriptInfo is what a script needs from others, read from its source.
type scriptInfo struct {
	base string // what it extends, as written (a class or a path)
	// paths are the files it loads by path, relative to res://; needs
	// those it preloads or extends, which must compile with it (a load()
	// runs only when the code does).
	paths, needs []string
	idents       map[string]bool // capitalised identifiers in its code
	// code is the source without comments and string contents, and own
	// the names it declares (a variable or inner class may be named like
	// an editor class).
	code string
	own  map[string]bool
}

// declRe finds the names a script declares.
var declRe = regexp.MustCompile(`\b(?:var|const|class|enum|signal|func)\s+([A-Za-z_][A-Za-z0-9_]*)`)

func readScript(name string, src []byte) scriptInfo {
	c, _ := webgodot.ScriptClass("res://"+name, src)
	withStrings := stripComments(string(src))
	code := blankStrings(withStrings)
	si := scriptInfo{base: c.Base, idents: map[string]bool{}, code: code, own: map[string]bool{}}
	for _, m := range declRe.FindAllStringSubmatch(code, -1) {
		si.own[m[1]] = true
	}
	for _, m := range scriptPathRe.FindAllStringSubmatch(withStrings, -1) {
		p := resolveRes(name, m[2]+m[3])
		si.paths = append(si.paths, p)
		if m[1] == "" {
			si.needs = append(si.needs, p)
		}
	}
	for _, id := range identRe.FindAllString(code, -1) {
		si.idents[id] = true
	}
	return si
}

// resolveRes returns the res://-relative path of ref as the file name
// names it: absolute (res://) or relative to name's folder.
func resolveRes(name, ref string) string {
	if rel, ok := strings.CutPrefix(ref, "res://"); ok {
		return path.Clean(rel)
	}
	if strings.Contains(ref, "://") || strings.HasPrefix(ref, "uid:") {
		return ref
	}
	return path.Join(path.Dir(name), ref)
}

// stripComments removes # comments, leaving strings alone.
func stripComments(src string) string {
	var b strings.Builder
	b.Grow(len(src))
	var quote byte
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case quote != 0:
			if c == '\\' && i+1 < len(src) {
				b.WriteByte(c)
				i++
				c = src[i]
			} else if c == quote || c == '\n' {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			if i < len(src) {
				b.WriteByte('\n')
			}
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// blankStrings empties the string literals of comment-free source,
// keeping the quotes.
func blankStrings(src string) string {
	b := []byte(src)
	var quote byte
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case quote != 0:
			switch {
			case c == '\\' && i+1 < len(b):
				b[i], b[i+1] = ' ', ' '
				i++
			case c == quote || c == '\n':
				quote = 0
			default:
				b[i] = ' '
			}
		case c == '"' || c == '\'':
			quote = c
		}
	}
	return string(b)
}

// editorOnly returns the files of the project that are editor-only, with
// the reason: scripts that extend an editor class, scripts under addons/
// that use one, scripts that extend an editor-only script, and scripts,
// scenes and resources under addons/ that need an editor-only file.
func editorOnly(scripts map[string]scriptInfo, classes map[string]string, deps map[string][]string) map[string]string {
	db, err := classdb.Embedded()
	if err != nil {
		return nil
	}
	isEditorClass := func(name string) bool {
		_, own := classes[name]
		return !own && !db.Exists(name) && editorClassRe.FindString(name) == name
	}
	out := map[string]string{}
	for _, name := range slices.Sorted(mapKeys(scripts)) {
		si := scripts[name]
		if isEditorClass(si.base) {
			out[name] = "extends " + si.base
			continue
		}
		if !strings.HasPrefix(name, "addons/") {
			continue
		}
		for _, loc := range editorClassRe.FindAllStringIndex(si.code, -1) {
			m := si.code[loc[0]:loc[1]]
			if loc[0] > 0 && si.code[loc[0]-1] == '.' || si.own[m] || !isEditorClass(m) {
				continue // a member, or the script's own name
			}
			out[name] = "uses " + m
			break
		}
	}
	// What needs them, to a fixed point.
	for changed := true; changed; {
		changed = false
		mark := func(name, reason string) {
			out[name] = reason
			changed = true
		}
		for _, name := range slices.Sorted(mapKeys(scripts)) {
			if _, ok := out[name]; ok {
				continue
			}
			si := scripts[name]
			base := si.base
			if p, ok := classes[base]; ok {
				base = p
			} else if strings.HasSuffix(base, ".gd") {
				base = resolveRes(name, base)
			}
			if _, ok := out[base]; ok {
				mark(name, "extends editor-only "+base)
				continue
			}
			if !strings.HasPrefix(name, "addons/") {
				continue
			}
			for _, p := range si.needs {
				if _, ok := out[p]; ok {
					mark(name, "needs editor-only "+p)
					break
				}
			}
			if _, ok := out[name]; ok {
				continue
			}
			for _, id := range slices.Sorted(mapKeys(si.idents)) {
				if p, ok := classes[id]; ok && p != name {
					if _, eo := out[p]; eo {
						mark(name, fmt.Sprintf("needs editor-only %s (%s)", p, id))
						break
					}
				}
			}
		}
		for _, name := range slices.Sorted(mapKeys(deps)) {
			if _, ok := out[name]; ok || !strings.HasPrefix(name, "addons/") {
				continue
			}
			for _, d := range deps[name] {
				if rel := strings.TrimPrefix(d, "res://"); out[rel] != "" {
					mark(name, "needs editor-only "+rel)
					break
				}
			}
		}
	}
	return out
}
