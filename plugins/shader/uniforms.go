package main

import (
	"regexp"
	"strconv"
	"strings"
)

// Uniform is one uniform a shader declares, as written in its source.
type Uniform struct {
	Name string `json:"name"`
	// Type is the shader type ("float", "vec4", "sampler2D").
	Type string `json:"type"`
	// GodotType is the Variant type a ShaderMaterial stores for it
	// ("float", "Color", "Texture2D"), the type values are converted to.
	GodotType string `json:"godot_type"`
	// Hints are the hints after the colon ("source_color",
	// "hint_range(0, 1)").
	Hints []string `json:"hints,omitempty"`
	// Default is the default value as written in the source.
	Default string `json:"default,omitempty"`
	// ArraySize is set for an array uniform ("float x[4]").
	ArraySize int    `json:"array_size,omitempty"`
	Scope     string `json:"scope,omitempty" jsonschema:"global or instance; empty for a material uniform"`
	Line      int    `json:"line"`
}

// Source is what the parser learns from a shader's source.
type Source struct {
	ShaderType  string    `json:"shader_type"`
	RenderModes []string  `json:"render_modes,omitempty"`
	Uniforms    []Uniform `json:"uniforms"`
	Includes    []string  `json:"includes,omitempty"`
}

var (
	uniformRE    = regexp.MustCompile(`(?s)^(?:(global|instance)\s+)?uniform\s+(?:(?:lowp|mediump|highp)\s+)?(\w+)\s+(\w+)\s*(\[\s*(\d*)\s*\])?\s*(?::\s*(.*?))?\s*(?:=\s*(.*?))?\s*$`)
	shaderTypeRE = regexp.MustCompile(`^shader_type\s+(\w+)\s*$`)
	renderModeRE = regexp.MustCompile(`(?s)^render_mode\s+(.*)$`)
	includeRE    = regexp.MustCompile(`(?m)^[ \t]*#include\s+"([^"]+)"`)
)

// stripComments blanks comments out of src, keeping every newline and
// column, so positions in the result are positions in src.
func stripComments(src string) string {
	b := []byte(src)
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '/':
			for ; i < len(b) && b[i] != '\n'; i++ {
				b[i] = ' '
			}
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '*':
			b[i], b[i+1] = ' ', ' '
			for i += 2; i < len(b) && !(b[i] == '*' && i+1 < len(b) && b[i+1] == '/'); i++ {
				if b[i] != '\n' {
					b[i] = ' '
				}
			}
			if i < len(b) {
				b[i] = ' '
				if i+1 < len(b) {
					b[i+1] = ' '
				}
				i++
			}
		case b[i] == '"':
			for i++; i < len(b) && b[i] != '"' && b[i] != '\n'; i++ {
			}
		}
	}
	return string(b)
}

// statements splits comment-free source into its top-level statements
// (text between semicolons outside braces), each with the line it starts on.
func statements(code string) []struct {
	text string
	line int
} {
	var out []struct {
		text string
		line int
	}
	depth, line, start, startLine := 0, 1, 0, 1
	skipping := false // a preprocessor line
	for i := 0; i < len(code); i++ {
		c := code[i]
		if skipping {
			if c == '\n' {
				skipping = false
				line++
				start, startLine = i+1, line
			}
			continue
		}
		switch c {
		case '\n':
			line++
			if strings.TrimSpace(code[start:i]) == "" {
				start, startLine = i+1, line
			}
		case '#':
			if depth == 0 && strings.TrimSpace(code[start:i]) == "" {
				skipping = true
			}
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				start, startLine = i+1, line
			}
		case ';':
			if depth == 0 {
				out = append(out, struct {
					text string
					line int
				}{strings.TrimSpace(code[start:i]), startLine + leadingNewlines(code[start:i])})
				start, startLine = i+1, line
			}
		}
	}
	return out
}

func leadingNewlines(s string) int {
	n := 0
	for _, c := range s {
		switch c {
		case '\n':
			n++
		case ' ', '\t', '\r':
		default:
			return n
		}
	}
	return n
}

// splitHints splits "source_color, hint_range(0, 1)" at top-level commas.
func splitHints(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		out = append(out, t)
	}
	return out
}

// ParseSource reads a shader's type, render modes, uniforms and includes.
func ParseSource(src string) Source {
	code := stripComments(src)
	out := Source{Uniforms: []Uniform{}}
	for _, m := range includeRE.FindAllStringSubmatch(code, -1) {
		out.Includes = append(out.Includes, m[1])
	}
	for _, st := range statements(code) {
		text := strings.Join(strings.Fields(st.text), " ")
		if m := shaderTypeRE.FindStringSubmatch(text); m != nil {
			out.ShaderType = m[1]
			continue
		}
		if m := renderModeRE.FindStringSubmatch(text); m != nil {
			out.RenderModes = append(out.RenderModes, splitHints(m[1])...)
			continue
		}
		m := uniformRE.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		u := Uniform{Scope: m[1], Type: m[2], Name: m[3], Default: m[7], Line: st.line}
		if m[6] != "" {
			u.Hints = splitHints(m[6])
		}
		if m[4] != "" {
			u.ArraySize, _ = strconv.Atoi(m[5])
			if u.ArraySize == 0 {
				u.ArraySize = -1 // size from the default's initialiser
			}
		}
		u.GodotType = godotType(u)
		out.Uniforms = append(out.Uniforms, u)
	}
	return out
}

// HasHint reports whether the uniform has a hint named name.
func (u Uniform) HasHint(name string) bool {
	for _, h := range u.Hints {
		if h == name || strings.HasPrefix(h, name+"(") {
			return true
		}
	}
	return false
}

// godotType is the Variant type ShaderMaterial stores for a uniform (what
// Shader.get_shader_uniform_list reports), or "" for one it cannot hold.
func godotType(u Uniform) string {
	color := u.HasHint("source_color")
	if u.ArraySize != 0 {
		switch u.Type {
		case "float":
			return "PackedFloat32Array"
		case "int", "uint":
			return "PackedInt32Array"
		case "vec2":
			return "PackedVector2Array"
		case "vec3":
			if color {
				return "PackedColorArray"
			}
			return "PackedVector3Array"
		case "vec4":
			if color {
				return "PackedColorArray"
			}
			return "PackedVector4Array"
		}
		return ""
	}
	switch u.Type {
	case "float":
		return "float"
	case "int", "uint":
		return "int"
	case "bool":
		return "bool"
	case "vec2":
		return "Vector2"
	case "vec3":
		if color {
			return "Color"
		}
		return "Vector3"
	case "vec4":
		if color {
			return "Color"
		}
		return "Vector4"
	case "ivec2", "uvec2":
		return "Vector2i"
	case "ivec3", "uvec3":
		return "Vector3i"
	case "ivec4", "uvec4":
		return "Vector4i"
	case "mat3":
		return "Basis"
	case "mat4":
		return "Projection"
	case "sampler2D", "isampler2D", "usampler2D":
		return "Texture2D"
	case "sampler2DArray", "isampler2DArray", "usampler2DArray", "samplerCube", "samplerCubeArray":
		return "TextureLayered"
	case "sampler3D", "isampler3D", "usampler3D":
		return "Texture3D"
	}
	return ""
}

// IsTexture reports whether values of the uniform are texture resources.
func (u Uniform) IsTexture() bool {
	return strings.HasPrefix(u.Type, "sampler") || strings.Contains(u.Type, "sampler")
}

// Uniform returns the uniform named name.
func (s Source) Uniform(name string) (Uniform, bool) {
	for _, u := range s.Uniforms {
		if u.Name == name {
			return u, true
		}
	}
	return Uniform{}, false
}

// Names lists the uniform names, for error hints.
func (s Source) Names() []string {
	var out []string
	for _, u := range s.Uniforms {
		if u.Scope == "" {
			out = append(out, u.Name)
		}
	}
	return out
}
