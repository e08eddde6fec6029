package gdscript

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

// Names is what CheckNames needs beyond the script: the engine's classes
// and the project's global names.
type Names struct {
	// DB is the engine's class database (classdb.Embedded()).
	DB *classdb.DB
	// Globals are names every script of the project may use: autoloads
	// and class_names.
	Globals []string
}

// CheckNames reports the names in src that Godot's compiler rejects and
// that this checker is certain of, in source order: a call of a function
// that neither the script, its engine base class, GDScript nor
// @GlobalScope has (move_and_slid() in a CharacterBody2D script, Godot 3's
// deg2rad()), and an identifier that is declared nowhere in the script
// and is no member of its base class (velocty). Run it on a script that
// Check accepts.
//
// It is certain only where the base class is an engine class: a script
// extending another script (by class_name or path), or a class the
// database does not have (an editor or extension class), inherits members
// this checker cannot see, and nothing is reported for it. Names that
// start with a capital letter or an underscore (classes, constants,
// virtual methods) are not checked; nor is anything after a dot, or in a
// type. A name declared anywhere in the script counts as declared
// everywhere: scopes are Godot's business. So a script this checker
// rejects is one Godot rejects, not the other way round.
func CheckNames(src string, n Names) []*Error {
	if n.DB == nil {
		return nil
	}
	toks, lerr := lex(src)
	if lerr != nil {
		return nil
	}
	bases, ok := baseClasses(toks, n.DB)
	if !ok {
		return nil
	}
	declared := declarations(toks)
	for _, g := range n.Globals {
		declared[g] = true
	}
	known := func(name string) bool {
		if declared[name] || gdscriptFunctions[name] || utilityFunctions[name] || builtinLower[name] {
			return true
		}
		for _, b := range bases {
			if _, ok := n.DB.Method(b, name); ok {
				return true
			}
			if _, ok := n.DB.Property(b, name); ok {
				return true
			}
			if _, ok := n.DB.Signal(b, name); ok {
				return true
			}
		}
		return false
	}
	var out []*Error
	var brackets []string // open brackets, innermost last
	for i, t := range toks {
		if t.kind == tOp {
			switch t.text {
			case "(", "[", "{":
				brackets = append(brackets, t.text)
			case ")", "]", "}":
				if len(brackets) > 0 {
					brackets = brackets[:len(brackets)-1]
				}
			}
			continue
		}
		if t.kind != tIdent {
			continue
		}
		r, _ := utf8.DecodeRuneInString(t.text)
		if r == '_' || unicode.IsUpper(r) || known(t.text) {
			continue
		}
		// The token before, across line breaks (a member access may
		// continue a line inside brackets), and on the same line (a ":"
		// that ends the line before opens a block, not a type).
		prev, next := prevTok(toks, i), nextTok(toks, i)
		same := token{kind: tNewline}
		if i > 0 {
			same = toks[i-1]
		}
		if prev.is(tOp, ".") || same.kind == tOp && (same.text == ":" || same.text == "->") ||
			same.kind == tKeyword && declaringKeywords[same.text] || same.kind == tAnnotation {
			continue
		}
		// A Lua-style dictionary key: {name = value}.
		if len(brackets) > 0 && brackets[len(brackets)-1] == "{" && next.is(tOp, "=") {
			continue
		}
		if next.is(tOp, "(") {
			out = append(out, &Error{Line: t.line, Column: t.col, Message: fmt.Sprintf("Function %q not found in base self.", t.text+"()")})
		} else {
			out = append(out, &Error{Line: t.line, Column: t.col, Message: fmt.Sprintf("Identifier %q not declared in the current scope.", t.text)})
		}
	}
	return out
}

// prevTok and nextTok skip line breaks.
func prevTok(toks []token, i int) token {
	for j := i - 1; j >= 0; j-- {
		if toks[j].kind != tNewline {
			return toks[j]
		}
	}
	return token{kind: tEOF}
}

func nextTok(toks []token, i int) token {
	for j := i + 1; j < len(toks); j++ {
		if toks[j].kind != tNewline {
			return toks[j]
		}
	}
	return token{kind: tEOF}
}

// declaringKeywords are followed by a name being declared or a type.
var declaringKeywords = map[string]bool{
	"var": true, "const": true, "func": true, "signal": true, "class": true, "class_name": true,
	"enum": true, "for": true, "extends": true, "is": true, "as": true,
}

// baseClasses returns the engine classes the script and its inner classes
// extend (RefCounted when one says nothing); false when one of them is not
// an engine class the database has.
func baseClasses(toks []token, db *classdb.DB) ([]string, bool) {
	bases := []string{"RefCounted"}
	for i, t := range toks {
		if !t.is(tKeyword, "extends") {
			continue
		}
		b := nextTok(toks, i)
		if b.kind != tIdent || nextTok(toks, i+1).is(tOp, ".") {
			return nil, false // a path, or a dotted name
		}
		if c, ok := db.Class(b.text); !ok || c.APIType.EditorOnly() {
			return nil, false
		}
		bases = append(bases, b.text)
	}
	return bases, true
}

// declarations collects every name the script declares anywhere: after
// var, const, func, signal, class, class_name, enum and for; the values of
// enums; the parameters of functions, lambdas and property setters.
func declarations(toks []token) map[string]bool {
	out := map[string]bool{}
	for i, t := range toks {
		switch {
		case t.kind == tKeyword && declaringKeywords[t.text] && t.text != "extends" && t.text != "is" && t.text != "as":
			j := i + 1
			if n := nextTok(toks, i); n.kind == tIdent || n.kind == tKeyword && softKeywords[n.text] {
				out[n.text] = true
				for j = i + 1; toks[j].kind == tNewline; j++ {
				}
				j++
			}
			switch t.text {
			case "func", "signal":
				params(toks, j, out)
			case "enum":
				enumValues(toks, j, out)
			}
		case t.kind == tIdent && (t.text == "set" || t.text == "get") && nextTok(toks, i).is(tOp, "("):
			// A property's setter: set(value):
			params(toks, i+1, out)
		}
	}
	return out
}

// params declares the names of a parameter list starting at toks[i] (when
// it is an opening parenthesis): each name after "(" or "," at depth 1.
func params(toks []token, i int, out map[string]bool) {
	for i < len(toks) && toks[i].kind == tNewline {
		i++
	}
	if i >= len(toks) || !toks[i].is(tOp, "(") {
		return
	}
	depth := 0
	for j := i; j < len(toks); j++ {
		t := toks[j]
		if t.kind == tOp {
			switch t.text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
				if depth == 0 {
					return
				}
			}
		}
		if depth == 1 && (t.kind == tIdent || t.kind == tKeyword && softKeywords[t.text]) {
			if p := prevTok(toks, j); p.is(tOp, "(") || p.is(tOp, ",") || p.is(tOp, "...") {
				out[t.text] = true
			}
		}
	}
}

// enumValues declares the values of an enum body starting at toks[i].
func enumValues(toks []token, i int, out map[string]bool) {
	for i < len(toks) && toks[i].kind == tNewline {
		i++
	}
	if i >= len(toks) || !toks[i].is(tOp, "{") {
		return
	}
	for j := i + 1; j < len(toks) && !toks[j].is(tOp, "}"); j++ {
		if toks[j].kind == tIdent {
			if p := prevTok(toks, j); p.is(tOp, "{") || p.is(tOp, ",") {
				out[toks[j].text] = true
			}
		}
	}
}

// builtinLower are the built-in types spelled in lower case.
var builtinLower = map[string]bool{"int": true, "float": true, "bool": true}

// gdscriptFunctions are GDScript's own functions
// (modules/gdscript/gdscript_utility_functions.cpp), with assert and
// preload, which the lexer takes as keywords.
var gdscriptFunctions = map[string]bool{
	"convert": true, "type_exists": true, "char": true, "range": true, "load": true, "inst_to_dict": true,
	"dict_to_inst": true, "print_debug": true, "print_stack": true, "get_stack": true, "len": true,
	"is_instance_of": true, "ord": true,
}

// utilityFunctions are @GlobalScope's functions
// (core/variant/variant_utility.cpp), lower case ones only.
var utilityFunctions = map[string]bool{
	"sin": true, "cos": true, "tan": true, "sinh": true, "cosh": true, "tanh": true, "asin": true, "acos": true,
	"atan": true, "atan2": true, "asinh": true, "acosh": true, "atanh": true, "sqrt": true, "fmod": true,
	"fposmod": true, "posmod": true, "floor": true, "floorf": true, "floori": true, "ceil": true, "ceilf": true,
	"ceili": true, "round": true, "roundf": true, "roundi": true, "abs": true, "absf": true, "absi": true,
	"sign": true, "signf": true, "signi": true, "snapped": true, "snappedf": true, "snappedi": true, "pow": true,
	"log": true, "exp": true, "is_nan": true, "is_inf": true, "is_equal_approx": true, "is_zero_approx": true,
	"is_finite": true, "ease": true, "step_decimals": true, "lerp": true, "lerpf": true, "cubic_interpolate": true,
	"cubic_interpolate_angle": true, "cubic_interpolate_in_time": true, "cubic_interpolate_angle_in_time": true,
	"bezier_interpolate": true, "bezier_derivative": true, "angle_difference": true, "lerp_angle": true,
	"inverse_lerp": true, "remap": true, "smoothstep": true, "move_toward": true, "rotate_toward": true,
	"deg_to_rad": true, "rad_to_deg": true, "linear_to_db": true, "db_to_linear": true, "wrap": true,
	"wrapi": true, "wrapf": true, "max": true, "maxi": true, "maxf": true, "min": true, "mini": true, "minf": true,
	"clamp": true, "clampi": true, "clampf": true, "nearest_po2": true, "pingpong": true, "intdiv": true,
	"randomize": true, "randi": true, "randf": true, "randi_range": true, "randf_range": true, "randfn": true,
	"seed": true, "rand_from_seed": true, "weakref": true, "typeof": true, "type_convert": true, "str": true,
	"error_string": true, "type_string": true, "print": true, "print_rich": true, "printerr": true, "printt": true,
	"prints": true, "printraw": true, "print_verbose": true, "push_error": true, "push_warning": true,
	"var_to_str": true, "str_to_var": true, "var_to_bytes": true, "bytes_to_var": true,
	"var_to_bytes_with_objects": true, "bytes_to_var_with_objects": true, "hash": true, "instance_from_id": true,
	"is_instance_id_valid": true, "is_instance_valid": true, "rid_allocate_id": true, "rid_from_int64": true,
	"is_same": true,
}
