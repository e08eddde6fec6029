// Package renames knows what Godot 4 calls the classes, properties,
// methods, signals, constants, project settings and GDScript syntax that
// Godot 3 spelled differently: KinematicBody2D is CharacterBody2D,
// RectangleShape2D.extents is size, `export var` is `@export var`.
//
// The table is built from the rename lists Godot itself publishes for its
// 3-to-4 project converter, as facts; it is not the converter. Agents
// trained on Godot 3 code reach for these names, so a refusal that names
// the Godot 4 spelling saves a round trip:
//
//	if r, ok := renames.Class("KinematicBody2D"); ok {
//		fmt.Println(r.Message()) // KinematicBody2D is the Godot 3 name; in Godot 4 it is CharacterBody2D
//	}
//
// A member rename is keyed by the member's name only (Godot 3 had no
// per-class table either): check that the Godot 4 name exists on the class
// in question before suggesting it.
package renames

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Kind is what a rename renames.
type Kind string

// The kinds of renames.
const (
	KindClass    Kind = "class"
	KindProperty Kind = "property"
	KindMethod   Kind = "method"
	KindSignal   Kind = "signal"
	KindConstant Kind = "constant"
	KindSetting  Kind = "setting"
	KindSyntax   Kind = "syntax"
)

// Rename is one Godot 3 name and its Godot 4 replacement.
type Rename struct {
	Kind Kind `json:"kind"`
	// Old is the Godot 3 spelling; New the Godot 4 one. For KindSyntax
	// they are the constructs ("export var", "@export var").
	Old string `json:"godot3"`
	New string `json:"godot4"`
	// Where names the Godot 4 classes the member rename applies to, when
	// the table says ("Control", "Node3D"); empty for classes, settings
	// and syntax.
	Where string `json:"where,omitempty"`
	// Note says what else changed when the new name is not a drop-in
	// replacement; often empty.
	Note string `json:"note,omitempty"`
}

// Message says the rename as a sentence a refusal can carry:
// "KinematicBody2D is the Godot 3 name; in Godot 4 it is CharacterBody2D".
func (r Rename) Message() string {
	var s string
	if r.Kind == KindSyntax {
		s = fmt.Sprintf("`%s` is Godot 3 syntax; in Godot 4 write `%s`", r.Old, r.New)
	} else {
		s = fmt.Sprintf("%s is the Godot 3 name; in Godot 4 it is %s", r.Old, r.New)
	}
	if r.Note != "" {
		s += " (" + r.Note + ")"
	}
	return s
}

// index maps each kind's old names to their renames; built once.
var index = sync.OnceValue(func() map[Kind]map[string][]Rename {
	out := map[Kind]map[string][]Rename{}
	for _, r := range table {
		m := out[r.Kind]
		if m == nil {
			m = map[string][]Rename{}
			out[r.Kind] = m
		}
		m[r.Old] = append(m[r.Old], r)
	}
	return out
})

func lookup(k Kind, old string) (Rename, bool) {
	rs := index()[k][old]
	if len(rs) == 0 {
		return Rename{}, false
	}
	return rs[0], true
}

// Class returns the Godot 4 name of a Godot 3 class ("Spatial" is
// "Node3D"). ok is false for names Godot 3 and 4 share or never had.
func Class(old string) (Rename, bool) { return lookup(KindClass, old) }

// ClassFold is Class ignoring case, for searches: "kinematicbody2d" finds
// KinematicBody2D.
func ClassFold(old string) (Rename, bool) {
	if r, ok := Class(old); ok {
		return r, true
	}
	for name, rs := range index()[KindClass] {
		if strings.EqualFold(name, old) {
			return rs[0], true
		}
	}
	return Rename{}, false
}

// Property returns the renames of a Godot 3 property name. A name can have
// more than one ("rect_position" and "translation" both became
// "position", but "extents" became "size" on shapes only): check the
// Godot 4 name against the class.
func Property(old string) []Rename { return index()[KindProperty][old] }

// Method returns the Godot 4 name of a Godot 3 method.
func Method(old string) (Rename, bool) { return lookup(KindMethod, old) }

// Signal returns the Godot 4 name of a Godot 3 signal.
func Signal(old string) (Rename, bool) { return lookup(KindSignal, old) }

// Constant returns the Godot 4 name of a Godot 3 constant or enum.
func Constant(old string) (Rename, bool) { return lookup(KindConstant, old) }

// Setting returns the Godot 4 path of a Godot 3 project setting.
func Setting(old string) (Rename, bool) { return lookup(KindSetting, old) }

// All returns the whole table, in table order.
func All() []Rename { return append([]Rename(nil), table...) }

// Finding is Godot 3 syntax found in a line of GDScript.
type Finding struct {
	Rename
	// Line and Column are 1-based; Column counts bytes.
	Line   int `json:"line"`
	Column int `json:"column"`
}

// syntaxRule finds one Godot 3 construct in a line.
type syntaxRule struct {
	re *regexp.Regexp
	r  Rename
}

var syntaxRules = sync.OnceValue(func() []syntaxRule {
	out := make([]syntaxRule, len(syntax))
	for i, s := range syntax {
		out[i] = syntaxRule{re: regexp.MustCompile(s.pattern), r: Rename{Kind: KindSyntax, Old: s.old, New: s.new, Note: s.note}}
	}
	return out
})

// Syntax finds Godot 3 GDScript constructs in src, at most one per line
// (the first rule that matches): `export var`, `onready var`, `tool`,
// `yield(`, `setget`, `remote func`. It reads lines, not a parse tree, and
// skips comments and lines inside a multi-line string only roughly, so a
// caller shows the findings as hints, never as errors.
func Syntax(src string) []Finding {
	var out []Finding
	for i, line := range strings.Split(src, "\n") {
		code := line
		if j := strings.IndexByte(code, '#'); j >= 0 {
			code = code[:j]
		}
		for _, rule := range syntaxRules() {
			if loc := rule.re.FindStringSubmatchIndex(code); loc != nil {
				col := loc[0]
				if len(loc) >= 4 && loc[2] >= 0 {
					col = loc[2]
				}
				out = append(out, Finding{Rename: rule.r, Line: i + 1, Column: col + 1})
				break
			}
		}
	}
	return out
}

// SyntaxAt returns the Godot 3 construct on line (1-based) of src, if any.
func SyntaxAt(src string, line int) (Finding, bool) {
	lines := strings.SplitN(src, "\n", line+1)
	if line < 1 || line > len(lines) {
		return Finding{}, false
	}
	fs := Syntax(lines[line-1])
	if len(fs) == 0 {
		return Finding{}, false
	}
	f := fs[0]
	f.Line = line
	return f, true
}
