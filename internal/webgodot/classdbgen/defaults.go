package classdbgen

import (
	"slices"

	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

// resolveDefaults fixes the defaults the per-class dump gets wrong and
// records the ones subclasses change:
//
//   - An abstract class cannot be instantiated, so the engine answers null
//     for the defaults of the properties it declares (CanvasItem.visible).
//     Such a property takes its default from the nearest instantiable
//     subclass instead (the first by name among the nearest); without one
//     the engine's answer stays.
//   - A class may change an inherited default (Button sets focus_mode to
//     FOCUS_ALL; Control's is FOCUS_NONE). Each instantiable class whose
//     default differs from what its ancestors say gets an override, so
//     DB.Default(class, prop) answers for the concrete class, which is
//     what Godot compares with when it decides to leave a property out of
//     a saved scene.
func resolveDefaults(raw *Raw, st *classdb.Stored) {
	full := make(map[string]map[string]string, len(raw.Classes))
	for _, rc := range raw.Classes {
		if rc.CanInstantiate {
			full[rc.Name] = rc.Defaults
		}
	}
	idx := make(map[string]*classdb.StoredClass, len(st.Classes))
	children := map[string][]string{}
	for i := range st.Classes {
		c := &st.Classes[i]
		idx[c.Name] = c
		if c.Parent != "" {
			children[c.Parent] = append(children[c.Parent], c.Name)
		}
	}
	for _, k := range children {
		slices.Sort(k)
	}
	// nearestConcrete finds the default of prop in the nearest
	// instantiable subclass of name, breadth first.
	nearestConcrete := func(name, prop string) *string {
		level := children[name]
		for len(level) > 0 {
			var next []string
			for _, n := range level {
				if d, ok := full[n][prop]; ok {
					return &d
				}
				next = append(next, children[n]...)
			}
			level = next
		}
		return nil
	}
	for i := range st.Classes {
		c := &st.Classes[i]
		if _, concrete := full[c.Name]; concrete {
			continue
		}
		for j := range c.Properties {
			p := &c.Properties[j]
			// Singletons such as Input answer with real values; only a
			// null answer is the engine saying it could not tell.
			if p.Usage&classdb.UsageStorage != 0 && (p.Default == nil || *p.Default == "null") {
				if d := nearestConcrete(c.Name, p.Name); d != nil {
					p.Default = d
				}
			}
		}
	}
	// effective is what a DB lookup answers for prop on the chain that
	// starts at name, given the overrides recorded so far.
	effective := func(name, prop string) (string, bool) {
		for n := name; n != ""; {
			c, ok := idx[n]
			if !ok {
				return "", false
			}
			if d, ok := c.Overrides[prop]; ok {
				return d, true
			}
			for _, p := range c.Properties {
				if p.Name == prop {
					if p.Default == nil {
						return "", false
					}
					return *p.Default, true
				}
			}
			n = c.Parent
		}
		return "", false
	}
	// Parents before children, so a child compares with its parent's
	// overrides.
	var visit func(name string)
	visit = func(name string) {
		c := idx[name]
		if defs, ok := full[name]; ok {
			keys := make([]string, 0, len(defs))
			for k := range defs {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, prop := range keys {
				if cur, ok := effective(name, prop); !ok || cur != defs[prop] {
					if c.Overrides == nil {
						c.Overrides = map[string]string{}
					}
					c.Overrides[prop] = defs[prop]
				}
			}
		}
		for _, k := range children[name] {
			visit(k)
		}
	}
	for _, c := range st.Classes {
		if c.Parent == "" {
			visit(c.Name)
		}
	}
}
