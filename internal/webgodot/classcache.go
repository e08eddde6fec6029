package webgodot

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
)

// GlobalClass is one entry of the global class cache
// (.godot/global_script_class_cache.cfg), which the editor writes and a
// project checkout does not have: without it, scripts using another
// script's class_name do not compile.
type GlobalClass struct {
	Name string // the class_name
	Base string // what the script extends; RefCounted when it says nothing
	Path string // res:// path of the script
	// Abstract and Tool are set by @abstract and @tool before class_name
	// or extends.
	Abstract, Tool bool
}

var (
	headerAnnotationRe = regexp.MustCompile(`^@([A-Za-z_][A-Za-z0-9_]*)(?:\([^)\n]*\))?`)
	headerIdentRe      = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*`)
	headerBaseRe       = regexp.MustCompile(`^(?:[A-Za-z_][A-Za-z0-9_.]*|"[^"\n]*"|'[^'\n]*')`)
)

// ScriptClass reads the class header of a GDScript source (the
// annotations, class_name and extends before its first member, in any
// order and on one line or several, as the parser takes them) and returns
// its class cache entry, or false when the script has no class_name.
func ScriptClass(resPath string, src []byte) (GlobalClass, bool) {
	c := GlobalClass{Base: "RefCounted", Path: resPath}
	s := string(src)
	named := false
	// Annotations before class_name or extends are the class's; any
	// others belong to the first member.
	var pending []string
	for {
		s = skipHeaderSpace(s)
		switch {
		case strings.HasPrefix(s, "@"):
			m := headerAnnotationRe.FindStringSubmatch(s)
			if m == nil {
				return c, named
			}
			pending = append(pending, m[1])
			s = s[len(m[0]):]
			continue
		case headerKeyword(s, "class_name"):
			s = skipHeaderSpace(s[len("class_name"):])
			id := headerIdentRe.FindString(s)
			if id == "" {
				return c, named
			}
			c.Name, named = id, true
			s = s[len(id):]
		case headerKeyword(s, "extends"):
			s = skipHeaderSpace(s[len("extends"):])
			base := headerBaseRe.FindString(s)
			if base == "" {
				return c, named
			}
			c.Base = strings.Trim(base, `"'`)
			s = s[len(base):]
		default:
			return c, named
		}
		for _, a := range pending {
			switch a {
			case "abstract":
				c.Abstract = true
			case "tool":
				c.Tool = true
			}
		}
		pending = nil
	}
}

// headerKeyword reports whether s starts with the keyword kw as a whole word.
func headerKeyword(s, kw string) bool {
	if !strings.HasPrefix(s, kw) {
		return false
	}
	if len(s) == len(kw) {
		return true
	}
	b := s[len(kw)]
	return !(b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z')
}

// skipHeaderSpace skips blanks, line breaks, continuations, semicolons and
// comments.
func skipHeaderSpace(s string) string {
	for len(s) > 0 {
		switch s[0] {
		case ' ', '\t', '\r', '\n', ';', '\\':
			s = s[1:]
		case '#':
			if i := strings.IndexByte(s, '\n'); i >= 0 {
				s = s[i+1:]
			} else {
				s = ""
			}
		default:
			return s
		}
	}
	return s
}

// ClassCache returns the text of .godot/global_script_class_cache.cfg
// listing classes, as the editor writes it.
func ClassCache(classes []GlobalClass) []byte {
	var b bytes.Buffer
	b.WriteString("list = [")
	for i, c := range classes {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "{\n\"base\": &%q,\n\"class\": &%q,\n\"icon\": \"\",\n\"is_abstract\": %t,\n\"is_tool\": %t,\n\"language\": &\"GDScript\",\n\"path\": %q\n}",
			c.Base, c.Name, c.Abstract, c.Tool, c.Path)
	}
	b.WriteString("]\n")
	return b.Bytes()
}
