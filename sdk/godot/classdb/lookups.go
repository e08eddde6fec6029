package classdb

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/godot-mcp/godot-mcp/sdk/suggest"
)

// Provenance says where the database came from; zero for databases
// loaded from extension_api.json.
func (db *DB) Provenance() Provenance { return db.provenance }

// Default returns the default value of a stored property on an instance
// of class, in .tscn text syntax: the value Godot leaves out of a saved
// scene. It honours a class that changes an inherited default (Button's
// focus_mode differs from Control's). ok is false when the property does
// not exist, is not stored, or the database does not know defaults
// (loaded from extension_api.json).
func (db *DB) Default(class, prop string) (value string, ok bool) {
	db.walk(class, func(c *Class) bool {
		if d, found := c.overrides[prop]; found {
			value, ok = d, true
			return false
		}
		if p, found := c.Property(prop); found {
			value, ok = p.Default, p.HasDefault
			return false
		}
		return true
	})
	return value, ok
}

// Signal finds a signal on class or its nearest ancestor that declares it.
func (db *DB) Signal(class, name string) (Signal, bool) {
	var s Signal
	var found bool
	db.walk(class, func(c *Class) bool {
		if i, ok := c.signals[name]; ok {
			s, found = c.Signals[i], true
		}
		return !found
	})
	return s, found
}

// Signals returns every signal of class, its own first and then each
// ancestor's.
func (db *DB) Signals(class string) []Signal {
	var out []Signal
	db.walk(class, func(c *Class) bool {
		out = append(out, c.Signals...)
		return true
	})
	return out
}

// Constant finds an integer constant (in an enum or not) on class or an
// ancestor: "NOTIFICATION_READY", "PROCESS_MODE_ALWAYS".
func (db *DB) Constant(class, name string) (int64, bool) {
	var v int64
	var found bool
	db.walk(class, func(c *Class) bool {
		for _, k := range c.Constants {
			if k.Name == name {
				v, found = k.Value, true
				return false
			}
		}
		for _, e := range c.Enums {
			if x, ok := e.Value(name); ok {
				v, found = x, true
				return false
			}
		}
		return true
	})
	return v, found
}

// Setting is a project setting the engine registers.
type Setting struct {
	Name string
	// Type is the Variant type name ("bool", "int", "String", "Vector2i").
	Type       string
	Hint       int
	HintString string
	Usage      uint32
	// Default is the value in project.godot text syntax.
	Default string
	// Order is the setting's place in the engine's registration order,
	// which is the order ProjectSettings saves the keys of a section in
	// (1 for the first registered; 0 when unknown). Settings a project
	// invents come after every registered one, in the order they were
	// added.
	Order int
}

// Setting returns a project setting by its full name
// ("display/window/size/viewport_width"). Settings a project invents
// (autoloads, input actions, its own sections) are not listed.
func (db *DB) Setting(name string) (Setting, bool) {
	db.loadSettings()
	s, ok := db.settings[name]
	return s, ok
}

// Settings returns every known setting name, sorted.
func (db *DB) Settings() []string {
	db.loadSettings()
	return slices.Clone(db.settingNames)
}

// KeyCode returns the keycode of a key name as Godot spells it ("Space",
// "Ctrl", "A", "F12").
func (db *DB) KeyCode(name string) (int64, bool) {
	db.loadKeys()
	c, ok := db.keys[name]
	return c, ok
}

// KeyName returns the name of a keycode.
func (db *DB) KeyName(code int64) (string, bool) {
	db.loadKeys()
	n, ok := db.keyNames[code]
	return n, ok
}

// KeyNames returns every key name, sorted.
func (db *DB) KeyNames() []string {
	db.loadKeys()
	out := make([]string, 0, len(db.keys))
	for k := range db.keys {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// SuggestProperty returns the property of class (or its ancestors)
// closest to name, or "" when none is a likely typo. A Godot 3 name gets
// its Godot 4 spelling (extents is size), however far apart they are.
func (db *DB) SuggestProperty(class, name string) string {
	if r, ok := db.PropertyRename(class, name); ok {
		return r.New
	}
	var cands []string
	for _, p := range db.Properties(class) {
		cands = append(cands, p.Name)
	}
	return closest(name, cands)
}

// SuggestSignal returns the signal of class closest to name, or "".
func (db *DB) SuggestSignal(class, name string) string {
	var cands []string
	for _, s := range db.Signals(class) {
		cands = append(cands, s.Name)
	}
	return closest(name, cands)
}

// SuggestSetting returns the known project setting closest to name, or "".
// When settings live beside it (the same section path), only their keys
// compete, and a key's trailing words count as well as the whole key, the
// way people shorten them: "size/widht" is "size/viewport_width",
// "size/heigth" "size/viewport_height". Otherwise the typo is in the path,
// and the whole name is compared.
func (db *DB) SuggestSetting(name string) string {
	db.loadSettings()
	i := strings.LastIndexByte(name, '/')
	if i < 0 || i == len(name)-1 {
		return closest(name, db.settingNames)
	}
	parent, leaf := strings.ToLower(name[:i+1]), strings.ToLower(name[i+1:])
	limit := max(1, utf8.RuneCountInString(leaf)/4+1)
	best, bestD, siblings := "", limit+1, false
	for _, c := range db.settingNames {
		if len(c) <= len(parent) || !strings.EqualFold(c[:len(parent)], parent) || strings.Contains(c[len(parent):], "/") {
			continue
		}
		siblings = true
		words := strings.Split(strings.ToLower(c[len(parent):]), "_")
		for k := range words {
			d := suggest.Distance(leaf, strings.Join(words[k:], "_"), bestD)
			if d < bestD || d == bestD && best != "" && len(c) < len(best) {
				best, bestD = c, d
			}
		}
	}
	if !siblings {
		// No setting lives beside it: the typo is in the section path.
		return closest(name, db.settingNames)
	}
	if bestD > limit {
		return ""
	}
	return best
}

// SuggestKey returns the key name closest to name, or "".
func (db *DB) SuggestKey(name string) string { return closest(name, db.KeyNames()) }

// closest returns the candidate nearest to name by edit distance, ignoring
// case, within roughly one typo per four characters; ties go to a
// candidate that starts with name, then to the first in order.
func closest(name string, cands []string) string {
	if name == "" {
		return ""
	}
	lname := strings.ToLower(name)
	limit := max(1, utf8.RuneCountInString(name)/4+1)
	best, bestD, bestPf := "", limit+1, false
	for _, c := range cands {
		lc := strings.ToLower(c)
		d := suggest.Distance(lname, lc, bestD)
		if d > limit {
			continue
		}
		pf := strings.HasPrefix(lc, lname)
		if d < bestD || d == bestD && pf && !bestPf {
			best, bestD, bestPf = c, d, pf
		}
	}
	return best
}
