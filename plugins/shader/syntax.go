package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Diagnostic is one error or warning about a shader, at a position.
type Diagnostic struct {
	// Location is "res://file.gdshader:line:col".
	Location string `json:"location"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Severity string `json:"severity" jsonschema:"error or warning"`
	Message  string `json:"message"`
}

func diag(file string, line, col int, sev, msg string) Diagnostic {
	if line < 1 {
		line = 1
	}
	if col < 1 {
		col = 1
	}
	return Diagnostic{Location: fmt.Sprintf("%s:%d:%d", file, line, col), File: file, Line: line, Column: col, Severity: sev, Message: msg}
}

// ShaderTypes are the shader types Godot 4 has, each with a template.
var ShaderTypes = []string{"spatial", "canvas_item", "particles", "sky", "fog"}

// syntaxCheck is the built-in check, for when no engine is at hand: the
// shader type, balanced brackets and comments, and uniforms never used.
// It cannot see type errors or unknown identifiers; the engine can.
func syntaxCheck(file, src string) []Diagnostic {
	var out []Diagnostic
	code := stripComments(src)
	if i := strings.Index(src, "/*"); i >= 0 && !strings.Contains(src[i+2:], "*/") {
		l, c := position(src, i)
		out = append(out, diag(file, l, c, "error", "Unterminated comment."))
	}
	first := ""
	if st := statements(code); len(st) > 0 {
		first = strings.Join(strings.Fields(st[0].text), " ")
	}
	src0 := ParseSource(src)
	switch {
	case src0.ShaderType == "":
		out = append(out, diag(file, 1, 1, "error", "Expected 'shader_type' at the beginning of shader. Valid types are: spatial, canvas_item, particles, sky, fog."))
	case !slices.Contains(ShaderTypes, src0.ShaderType):
		l, c := position(code, strings.Index(code, src0.ShaderType))
		out = append(out, diag(file, l, c, "error", fmt.Sprintf("Invalid shader type '%s'. Valid types are: spatial, canvas_item, particles, sky, fog.", src0.ShaderType)))
	case !strings.HasPrefix(first, "shader_type"):
		out = append(out, diag(file, 1, 1, "error", "Expected 'shader_type' at the beginning of shader."))
	}
	out = append(out, brackets(file, code)...)
	for _, u := range src0.Uniforms {
		if u.Scope == "global" {
			continue
		}
		re := regexp.MustCompile(`\b` + regexp.QuoteMeta(u.Name) + `\b`)
		if len(re.FindAllStringIndex(code, 2)) < 2 {
			col := 1
			if lines := strings.Split(code, "\n"); u.Line-1 < len(lines) {
				if i := re.FindStringIndex(lines[u.Line-1]); i != nil {
					col = i[0] + 1
				}
			}
			out = append(out, diag(file, u.Line, col, "warning", fmt.Sprintf("The uniform '%s' is declared but never used.", u.Name)))
		}
	}
	return out
}

// brackets reports the first unbalanced (, [ or {.
func brackets(file, code string) []Diagnostic {
	type open struct {
		c    byte
		line int
		col  int
	}
	var stack []open
	line, col := 1, 0
	pair := map[byte]byte{')': '(', ']': '[', '}': '{'}
	for i := 0; i < len(code); i++ {
		c := code[i]
		col++
		switch c {
		case '\n':
			line, col = line+1, 0
		case '(', '[', '{':
			stack = append(stack, open{c, line, col})
		case ')', ']', '}':
			if len(stack) == 0 {
				return []Diagnostic{diag(file, line, col, "error", fmt.Sprintf("Unexpected '%c'.", c))}
			}
			if o := stack[len(stack)-1]; o.c != pair[c] {
				return []Diagnostic{diag(file, o.line, o.col, "error", fmt.Sprintf("Unclosed '%c': expected its closing bracket before the '%c' at %d:%d.", o.c, c, line, col))}
			}
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) > 0 {
		o := stack[len(stack)-1]
		return []Diagnostic{diag(file, o.line, o.col, "error", fmt.Sprintf("Unclosed '%c': expected its closing bracket before the end of the shader.", o.c))}
	}
	return nil
}

// position turns a byte offset into a 1-based line and column.
func position(s string, off int) (int, int) {
	if off < 0 {
		return 1, 1
	}
	line := 1 + strings.Count(s[:off], "\n")
	col := off - strings.LastIndexByte(s[:off], '\n')
	return line, col
}
