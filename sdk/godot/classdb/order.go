package classdb

import (
	"math"
	"strings"
)

// PropertyRank orders the properties of an object of class as Godot saves
// them in a scene or resource file: the class's property list from Object
// down to the class (each class's own properties in declaration order, a
// Control's theme overrides after its own), then script, script variables
// and metadata last. Use it with godot's Section.SetOrdered so that a new
// property goes where the editor would put it.
func (db *DB) PropertyRank(class string) func(key string) int {
	chain := db.Chain(class) // class first, then ancestors
	order := map[string]int{}
	i, themed := 0, -1
	for j := len(chain) - 1; j >= 0; j-- {
		c, ok := db.Class(chain[j])
		if !ok {
			continue
		}
		for _, p := range c.Properties {
			if _, seen := order[p.Name]; !seen {
				order[p.Name] = 2 * i
				i++
			}
		}
		if c.Name == "Control" || c.Name == "Window" {
			themed = 2*i - 1 // theme overrides follow the class's own properties
		}
	}
	return func(k string) int {
		switch {
		case strings.HasPrefix(k, "metadata/"):
			return 1 << 30
		case k == "script":
			return 1<<29 - 1
		}
		if r, ok := order[k]; ok {
			return r
		}
		if strings.HasPrefix(k, "theme_override_") && themed >= 0 {
			return themed
		}
		if strings.Contains(k, "/") {
			return 1 << 28
		}
		return 1 << 29 // script variables
	}
}

// SettingRank orders the keys of a project.godot section as
// ProjectSettings saves them: settings the engine registers in their
// registration order (Setting.Order), every other one (autoloads, input
// actions a project adds, feature overrides such as config/name.android,
// a project's own settings) after them. Settings of equal rank keep the
// order they have in the file, and a new one goes after them, as the
// engine numbers unregistered settings in the order it reads or adds them.
// The database comes from a release runtime, so settings only debug and
// editor builds register (debug/gdscript/warnings/*) count as the
// project's own: a new one goes after the registered keys of its section.
func (db *DB) SettingRank(name string) int {
	db.loadSettings()
	if s, ok := db.settings[name]; ok && s.Order > 0 {
		return s.Order
	}
	return math.MaxInt32
}
