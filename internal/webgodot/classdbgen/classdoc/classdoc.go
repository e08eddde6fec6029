// Package classdoc builds the class reference table embedded in
// sdk/godot/classdb (see docs.go there): the argument names of every
// method of the embedded class database and each class's one-line
// description, which the engine build the database is dumped from leaves
// out.
//
// The source is Godot's class reference: the doc/classes/*.xml (and
// modules/*/doc_classes/*.xml) of the engine's sources, read by ParseXML,
// or the same as the documentation publishes it in reStructuredText (the
// classes/class_*.rst of the godot-docs repository, which the engine's
// doc/tools/make_rst.py writes from that XML), read by ParseRST. The
// generator takes either or both (-xml, -classes), the XML overriding the
// RST class by class. The embedded table was
// built from godot-docs commit c8db5ec6e0fac16254d31860abc3f5510c3ae7c7
// ("classref: Sync with current master branch (bfa330d)", 13 September
// 2025: the class reference of Godot 4.6 in development), with:
//
//	go run ./internal/webgodot/classdbgen/cmd/classdoc-gen \
//	    -classes /path/to/godot-docs/classes \
//	    -source 'Godot class reference (godot-docs c8db5ec, classref of godotengine/godot bfa330d)' \
//	    -o sdk/godot/classdb/godot-4.6.classdoc
//
// run from the repository root after the class database itself (go
// generate ./sdk/godot/classdb), since the table lists only what that
// database has. A method's names are taken only when the reference gives
// as many arguments as the engine does: a method whose arguments changed
// after the reference was written keeps unnamed arguments rather than
// wrong names, and a method the reference has and the engine lacks is not
// listed. Property accessors (set_velocity) are named as the reference
// names them, "value".
package classdoc

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

// Class is what one class reference page says.
type Class struct {
	Name  string
	Brief string
	// Methods maps a method (virtual ones with their leading underscore)
	// to its argument names.
	Methods map[string][]string
	// MethodBriefs maps a method to the first sentence of its
	// description, plain text.
	MethodBriefs map[string]string
	// Accessors maps the setters and getters of properties that are not
	// also listed as methods to their argument names.
	Accessors map[string][]string
}

var (
	classAnchor = regexp.MustCompile(`(?m)^\.\. _class_([^\s:]+):$`)
	// A method's detail: its anchor, the rst-class line, the signature
	// and the first line of its description, if any.
	methodDetail = regexp.MustCompile(`(?m)^\.\. _class_[^\s:]+?_(?:private_)?method_(\w+):\n\n\.\. rst-class:: classref-method\n\n(.*)\n(?:\n([^.\n].*))?$`)
	// An accessor line under a property: "- |void| **set_x**\ (\ value\: ...\ )".
	accessorLine = regexp.MustCompile(`(?m)^- .*?\*\*(\w+)\*\*\\ \((.*)$`)
	// An argument in a signature: "(\ name\: " or ", name\: ".
	argName = regexp.MustCompile(`(?:\(\\ |, )([A-Za-z_][A-Za-z0-9_]*)\\: `)
)

// ParseRST reads one class_*.rst page. ok is false for pages that are not
// a class (the built-in types are pages too, and are classes to this
// parser; the table keeps only what the class database has).
func ParseRST(text string) (c Class, ok bool) {
	m := classAnchor.FindStringSubmatch(text)
	if m == nil {
		return Class{}, false
	}
	c = Class{Name: m[1], Methods: map[string][]string{}, MethodBriefs: map[string]string{}, Accessors: map[string][]string{}}
	c.Brief = brief(text)
	for _, d := range methodDetail.FindAllStringSubmatch(text, -1) {
		c.Methods[d[1]] = signatureArgs(d[2], d[1])
		if d[3] != "" && !strings.HasPrefix(d[3], "**Deprecated:**") && !strings.HasPrefix(d[3], "**Experimental:**") {
			c.MethodBriefs[d[1]] = FirstSentence(plain(d[3]))
		}
	}
	for _, a := range accessorLine.FindAllStringSubmatch(text, -1) {
		if _, isMethod := c.Methods[a[1]]; !isMethod {
			c.Accessors[a[1]] = signatureArgs("**"+a[1]+"**\\ ("+a[2], a[1])
		}
	}
	return c, true
}

// signatureArgs returns the argument names of a signature line
// "ret **name**\ (\ a\: T, b\: U = 1\ ) ...". A vararg "..." has no name.
func signatureArgs(line, name string) []string {
	if i := strings.Index(line, "**"+name+"**"); i >= 0 {
		line = line[i:]
	}
	// The argument list ends at the last "\ )"; defaults may hold
	// parentheses.
	if j := strings.LastIndex(line, `\ )`); j >= 0 {
		line = line[:j]
	}
	var names []string
	for _, m := range argName.FindAllStringSubmatch(line, -1) {
		names = append(names, m[1])
	}
	return names
}

var (
	refWithText = regexp.MustCompile("(?::[a-z]+:)?`([^`<]*?)\\s*<[^>]*>`_*")
	refBare     = regexp.MustCompile("(?::[a-z]+:)`([^`]*)`")
	literal     = regexp.MustCompile("``([^`]*)``")
	strong      = regexp.MustCompile(`\*\*([^*]+)\*\*`)
	emphasis    = regexp.MustCompile(`\*([^*\s][^*]*)\*`)
	substitute  = regexp.MustCompile(`\|([a-z]+)\|`)
)

// brief returns the first paragraph after the title and the
// Inherits/Inherited By/Experimental/Deprecated lines, as plain text.
func brief(text string) string {
	lines := strings.Split(text, "\n")
	i := 0
	// The title is the line above the first underline of "=".
	for i < len(lines) && !(len(lines[i]) > 0 && strings.Trim(lines[i], "=") == "") {
		i++
	}
	i++
	var para []string
	for ; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		switch {
		case l == "" && len(para) > 0:
			return plain(strings.Join(para, " "))
		case l == "":
		case strings.HasPrefix(l, ".. "):
			if strings.Contains(l, "classref-introduction-group") {
				return plain(strings.Join(para, " "))
			}
			// A directive: skip it and its indented body.
			for i+1 < len(lines) && (lines[i+1] == "" || strings.HasPrefix(lines[i+1], " ")) {
				if lines[i+1] == "" && i+2 < len(lines) && !strings.HasPrefix(lines[i+2], " ") {
					break
				}
				i++
			}
		case strings.HasPrefix(l, "**Inherits:**"), strings.HasPrefix(l, "**Inherited By:**"),
			strings.HasPrefix(l, "**Experimental:**"), strings.HasPrefix(l, "**Deprecated:**"):
		default:
			para = append(para, l)
		}
	}
	return plain(strings.Join(para, " "))
}

// FirstSentence returns the text up to the first ". " (or all of it).
func FirstSentence(s string) string {
	for i := 0; i+1 < len(s); i++ {
		if (s[i] == '.' || s[i] == '!' || s[i] == '?') && s[i+1] == ' ' && !strings.HasSuffix(s[:i], "e.g") && !strings.HasSuffix(s[:i], "i.e") && !strings.HasSuffix(s[:i], "etc") {
			return s[:i+1]
		}
	}
	return s
}

// plain turns reStructuredText inline markup into plain text.
func plain(s string) string {
	s = literal.ReplaceAllString(s, "$1")
	s = refWithText.ReplaceAllString(s, "$1")
	s = refBare.ReplaceAllString(s, "$1")
	s = strong.ReplaceAllString(s, "$1")
	s = emphasis.ReplaceAllString(s, "$1")
	s = substitute.ReplaceAllString(s, "$1")
	s = strings.ReplaceAll(s, `\ `, "")
	s = strings.NewReplacer(`\*`, "*", `\_`, "_", `\|`, "|", "\\`", "`", `\\`, `\`).Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

// ReadDir parses every class_*.rst of a directory (godot-docs/classes).
func ReadDir(dir string) (map[string]Class, error) {
	files, err := filepath.Glob(filepath.Join(dir, "class_*.rst"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("classdoc: no class_*.rst in %s; pass the classes directory of a godot-docs checkout", dir)
	}
	out := map[string]Class{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		if c, ok := ParseRST(string(b)); ok {
			out[c.Name] = c
		}
	}
	return out, nil
}

// Stats counts what Build kept and left out.
type Stats struct {
	Classes, Briefs int
	// MethodBriefs counts the methods with a one-sentence description.
	MethodBriefs int
	// Methods with arguments in the database; Named of them got names.
	Methods, Named int
	// Mismatched: the reference gives another number of arguments (the
	// method changed after the reference was written). Missing: the
	// reference does not have the method (new, or internal such as
	// _set_data).
	Mismatched, Missing []string
}

func (s Stats) String() string {
	return fmt.Sprintf("%d classes (%d with a brief), %d methods with a brief, %d of %d methods with arguments named; %d with another argument count in the reference, %d not in it",
		s.Classes, s.Briefs, s.MethodBriefs, s.Named, s.Methods, len(s.Mismatched), len(s.Missing))
}

// Build keeps of the reference what the database has: a brief for each of
// its classes, and argument names for each of its methods with arguments
// whose count the reference agrees with.
func Build(db *classdb.DB, ref map[string]Class) ([]classdb.ClassDoc, Stats) {
	var out []classdb.ClassDoc
	var st Stats
	for _, name := range db.Classes() {
		c, _ := db.Class(name)
		rc, ok := ref[name]
		doc := classdb.ClassDoc{Name: name, Brief: rc.Brief, Args: map[string][]string{}, MethodBriefs: map[string]string{}}
		st.Classes++
		if rc.Brief != "" {
			st.Briefs++
		}
		for _, m := range c.Methods {
			if b := rc.MethodBriefs[m.Name]; b != "" {
				doc.MethodBriefs[m.Name] = b
				st.MethodBriefs++
			}
			if len(m.Arguments) == 0 {
				continue
			}
			st.Methods++
			names, has := rc.Methods[m.Name]
			if !has {
				names, has = rc.Accessors[m.Name]
			}
			switch {
			case !ok || !has:
				st.Missing = append(st.Missing, name+"."+m.Name)
			case len(names) != len(m.Arguments):
				st.Mismatched = append(st.Mismatched, fmt.Sprintf("%s.%s (engine %d, reference %d)", name, m.Name, len(m.Arguments), len(names)))
			default:
				doc.Args[m.Name] = names
				st.Named++
			}
		}
		if doc.Brief != "" || len(doc.Args) > 0 || len(doc.MethodBriefs) > 0 {
			out = append(out, doc)
		}
	}
	sort.Strings(st.Missing)
	return out, st
}
