package deps

import (
	"bytes"
	"strings"
)

// GDScript is scanned, not parsed: the index needs the string literals that
// name resources (and what call they are passed to), class_name/extends, the
// identifiers that may name global classes, and connect( calls. A line
// scanner that knows strings and comments finds all of them exactly in
// well-formed scripts, at a fraction of a parser's cost.

// scriptLine walks one line, calling lit for every string literal (with the
// code before it on the line) and returning the code with comments removed.
func scanLine(line string, lit func(before, s string)) (code string) {
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '#':
			return b.String()
		case c == '"' || c == '\'':
			// Triple-quoted strings spanning lines are rare in resource
			// references; a one-line triple quote is handled like a plain one.
			q := c
			j := i + 1
			var s strings.Builder
			for j < len(line) && line[j] != q {
				if line[j] == '\\' && j+1 < len(line) {
					j++
				}
				s.WriteByte(line[j])
				j++
			}
			lit(b.String(), s.String())
			b.WriteString(`""`)
			i = j
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// viaOf classifies a string literal by the code before it on its line.
func viaOf(before string) string {
	t := strings.TrimRight(before, " \t")
	switch {
	case strings.HasSuffix(t, "preload("):
		return ViaPreload
	case strings.HasSuffix(t, "load(") || strings.HasSuffix(t, "load_threaded_request("):
		return ViaLoad
	case strings.HasSuffix(t, "extends"):
		return ViaExtends
	}
	return ViaString
}

func summariseScript(fi *FileInfo, src []byte) {
	idents := map[string]int{}
	lineNo := 0
	for len(src) > 0 {
		lineNo++
		var raw []byte
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			raw, src = src[:i], src[i+1:]
		} else {
			raw, src = src, nil
		}
		line := strings.TrimRight(string(raw), "\r")
		var firstLit string
		code := scanLine(line, func(before, s string) {
			if firstLit == "" {
				firstLit = s
			}
			if isResPath(s) {
				fi.Refs = append(fi.Refs, Ref{From: fi.Path, Line: lineNo, Raw: s, Via: viaOf(before)})
			}
		})
		trim := strings.TrimSpace(code)
		switch {
		case strings.HasPrefix(trim, "class_name "):
			f := strings.Fields(strings.TrimPrefix(trim, "class_name "))
			if len(f) > 0 {
				fi.ClassName = strings.TrimSuffix(f[0], ",")
			}
		case strings.HasPrefix(trim, "extends "):
			fi.ExtendsLine = lineNo
			f := strings.Fields(strings.TrimPrefix(trim, "extends "))
			if len(f) > 0 && f[0] != `""` {
				fi.Extends = f[0]
			} else {
				fi.Extends = firstLit
			}
		}
		// connect( calls: Godot 4 "sig.connect(" and Godot 3 "connect(\"sig\"".
		for at := 0; ; {
			k := strings.Index(code[at:], "connect(")
			if k < 0 {
				break
			}
			k += at
			at = k + len("connect(")
			if k > 0 && isIdentByte(code[k-1]) {
				continue // disconnect(, is_connected( …
			}
			sig := ""
			switch {
			case strings.HasPrefix(strings.TrimLeft(code[at:], " \t"), `""`):
				// connect("signal", …): Godot 3 style, or Object.connect.
				sig = nthLiteral(line, code[:at])
			case k > 0 && code[k-1] == '.':
				// signal.connect(…) or obj.signal.connect(…): Godot 4.
				j := k - 1
				for j > 0 && isIdentByte(code[j-1]) {
					j--
				}
				sig = code[j : k-1]
			}
			if sig == "" {
				continue
			}
			fi.Connections = append(fi.Connections, Connection{File: fi.Path, Line: lineNo, Signal: sig, Code: strings.TrimSpace(line)})
		}
		// Capitalised identifiers may name global classes (class_name).
		for i := 0; i < len(code); {
			c := code[i]
			if c >= 'A' && c <= 'Z' && (i == 0 || !isIdentByte(code[i-1])) {
				j := i
				for j < len(code) && isIdentByte(code[j]) {
					j++
				}
				if _, ok := idents[code[i:j]]; !ok {
					idents[code[i:j]] = lineNo
				}
				i = j
				continue
			}
			i++
		}
	}
	for id, line := range idents {
		fi.idents = append(fi.idents, identUse{id, line})
	}
}

// nthLiteral returns the string literal of line that starts where the
// comment-free code prefix ends (the literal right after "connect(").
func nthLiteral(line, prefix string) string {
	n := strings.Count(prefix, `""`) // literals before the one we want
	var out string
	i := 0
	scanLine(line, func(_, s string) {
		if i == n {
			out = s
		}
		i++
	})
	return out
}

func summariseShader(fi *FileInfo, src []byte) {
	lineNo := 0
	for _, line := range strings.Split(string(src), "\n") {
		lineNo++
		t := strings.TrimSpace(line)
		if !strings.HasPrefix(t, "#include") {
			continue
		}
		scanLine(strings.TrimPrefix(t, "#include"), func(_, s string) {
			if isResPath(s) {
				fi.Refs = append(fi.Refs, Ref{From: fi.Path, Line: lineNo, Raw: s, Via: ViaInclude})
			}
		})
	}
}
