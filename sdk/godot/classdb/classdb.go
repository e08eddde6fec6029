// Package classdb answers questions about Godot's engine classes: does
// this class exist, can a scene instantiate it, is it a Node, what type
// does this property take and what is its default, which signals does it
// emit, which project settings and key names does Godot know.
//
// # The embedded database
//
// Embedded returns Godot 4.6's class database, dumped from the real engine
// (the official web runtime, run headless; see Provenance) and embedded
// in a packed form (2.1 MB of read-only data in the executable). Its index
// is decoded on first use, in a few milliseconds, and shared; each class
// is decoded the first time something asks about its members, so a
// process holds only what it used. Beyond extension_api.json it knows
// property defaults in .tscn syntax (DB.Default, which honours subclasses
// that change an inherited default), hints and usage flags, signals,
// integer constants, the project settings the engine registers
// (DB.Setting) and key names (DB.KeyCode), each with a "did you mean"
// (Suggest, SuggestProperty, SuggestSignal, SuggestSetting, SuggestKey):
//
//	db := classdb.MustEmbedded()
//	d, _ := db.Default("Button", "focus_mode") // "2": Button changes Control's 0
//	if db.IsDefault("Node2D", "position", godot.Vector2{}) {
//		// Godot would leave position out of the saved scene
//	}
//	if _, ok := db.Setting(name); !ok {
//		fmt.Printf("unknown setting; did you mean %q?\n", db.SuggestSetting(name))
//	}
//
// It describes Godot 4.6 (db.Version()); projects on another 4.x version
// are checked against it, and results shown to users should say so. It
// was dumped from a web build: editor classes, OpenXR and Jolt are absent,
// and a few platform-dependent settings have their web defaults
// (rendering/renderer/rendering_method is "gl_compatibility"). Regenerate
// it with go generate ./sdk/godot/classdb (needs Chromium and the npm
// engine package; see docs/engine.md).
//
// # extension_api.json
//
// Load and LoadFile read the extension_api.json file that
// "godot --headless --dump-extension-api" writes, for other engine
// versions. Load the file once and query it:
//
//	db, err := classdb.LoadFile("extension_api.json")
//	if err != nil {
//		return err
//	}
//	fmt.Println(db.Version()) // 4.7
//
//	// Validate a [node type="..."] header.
//	if err := db.ValidNodeType("Sprite2d"); err != nil {
//		fmt.Println(err) // ... did you mean "Sprite2D"?
//	}
//
//	// Property lookups walk the inheritance chain.
//	p, _ := db.Property("CharacterBody2D", "disable_mode") // declared on CollisionObject2D
//	t, _ := db.PropertyType("CharacterBody2D", "disable_mode")
//	fmt.Println(p.Type, t) // int enum::CollisionObject2D.DisableMode
//
// # What the file does and does not say
//
// Each class lists only its own members; inherited ones are found by
// walking "inherits" up to Object, which every lookup here does for you.
// Property types are spelled as the engine's dump spells them, which differs
// from .tscn text in two ways this package bridges:
//
//   - Enum-valued properties are usually plain "int". The enum shows only
//     on the setter method's value argument, so PropertyType follows the
//     setter (enum::CollisionObject2D.DisableMode).
//   - Typed arrays are "typedarray::T", sometimes with an inspector hint
//     prefix ("typedarray::24/17:Font"); .tscn writes Array[T]. See
//     NormalizeType, TSCNType and JSONType.
//
// The file has no default values, no storage flags and no slash-named
// properties (tracks/0/keys, theme_override_colors/...), so "would Godot
// save this property" cannot be answered from it.
//
// Only the keys needed for these questions are decoded (header, classes
// and global_enums); the rest of the roughly 7 MB file is scanned and
// dropped. A DB is immutable after Load and safe for concurrent use.
package classdb

import (
	"fmt"
	"slices"
	"strconv"
)

// Version is the engine version from the file's header.
type Version struct {
	Major, Minor, Patch int
	Status              string // "stable", "beta", ...
	Build               string // "official", "custom_build", ...
	FullName            string // "Godot Engine v4.7.stable.official"
	Precision           string // "single" or "double"
}

// String returns the version as Godot names its releases: "4.7", or
// "4.7.1" when there is a patch number.
func (v Version) String() string {
	s := strconv.Itoa(v.Major) + "." + strconv.Itoa(v.Minor)
	if v.Patch != 0 {
		s += "." + strconv.Itoa(v.Patch)
	}
	return s
}

// AtLeast reports whether v is major.minor or newer.
func (v Version) AtLeast(major, minor int) bool {
	return v.Major > major || v.Major == major && v.Minor >= minor
}

// APIType says which API a class belongs to.
type APIType string

// The api_type values the engine writes.
const (
	APICore            APIType = "core"
	APIEditor          APIType = "editor"
	APIExtension       APIType = "extension"
	APIEditorExtension APIType = "editor_extension"
)

// EditorOnly reports whether classes of this API exist only inside the
// editor, so a scene that runs in a game must not contain them.
func (a APIType) EditorOnly() bool { return a == APIEditor || a == APIEditorExtension }

// Class is one engine class. It holds only the members the class declares
// itself; use the DB's methods to search the inheritance chain.
type Class struct {
	Name string
	// Inherits is the parent class; empty only for Object.
	Inherits string
	APIType  APIType
	// Instantiable is ClassDB::can_instantiate: false for abstract and
	// virtual classes such as CanvasItem or CollisionObject3D.
	Instantiable bool
	RefCounted   bool
	// Disabled classes are compiled in but cannot be created in this
	// build (only known for the embedded database).
	Disabled   bool
	Enums      []Enum
	Methods    []Method
	Properties []Property
	// Signals and Constants (integer constants outside any enum) are only
	// known for the embedded database; extension_api.json loads leave them
	// empty.
	Signals   []Signal
	Constants []EnumValue

	methods map[string]int
	props   map[string]int
	enums   map[string]int
	signals map[string]int
	// overrides are defaults of inherited properties this class changes.
	overrides map[string]string
	// lazy, when set, holds the class's stored form until its members
	// are first asked for (the embedded database; see load).
	lazy *lazyClass
}

// Method returns a method the class declares itself.
func (c *Class) Method(name string) (Method, bool) {
	c.load()
	i, ok := c.methods[name]
	if !ok {
		return Method{}, false
	}
	return c.Methods[i], true
}

// Property returns a property the class declares itself.
func (c *Class) Property(name string) (Property, bool) {
	c.load()
	i, ok := c.props[name]
	if !ok {
		return Property{}, false
	}
	return c.Properties[i], true
}

// Enum returns an enum the class declares itself, by its short name
// ("DisableMode").
func (c *Class) Enum(name string) (Enum, bool) {
	c.load()
	i, ok := c.enums[name]
	if !ok {
		return Enum{}, false
	}
	return c.Enums[i], true
}

// Enum is a class or global enum.
type Enum struct {
	Name       string
	IsBitfield bool
	Values     []EnumValue
}

// Value returns the value of a constant by name.
func (e Enum) Value(name string) (int64, bool) {
	for _, v := range e.Values {
		if v.Name == name {
			return v.Value, true
		}
	}
	return 0, false
}

// EnumValue is one named constant of an Enum.
type EnumValue struct {
	Name  string `json:"n"`
	Value int64  `json:"v"`
}

// Method is a class method. Virtual methods (IsVirtual) are named with a
// leading underscore.
type Method struct {
	Name      string
	Arguments []Argument
	// ReturnType is the return type's spelling, or "" for void.
	ReturnType string
	IsVirtual  bool
	IsStatic   bool
	IsConst    bool
	IsVararg   bool
}

// Argument is one method argument.
type Argument struct {
	Name string
	Type string
	// Meta is the width of an int or float ("uint32", "double") or
	// "required" for object arguments that must not be null; often empty.
	Meta string
	// Default is the default value as a Variant construct string
	// ("Vector2(0, 0)"), or "" when the argument has none.
	Default string
}

// Property is a class property as listed in the file.
type Property struct {
	Name string
	// Type is spelled as in the file, e.g. "int", "Texture2D",
	// "typedarray::24/17:Font". See DB.PropertyType for the resolved type.
	Type   string
	Setter string
	Getter string
	// Index is passed to Setter and Getter before the value when one
	// accessor serves several properties (Control's offset_left..bottom);
	// -1 when absent.
	Index int
	// Class is the class that declares the property, which differs from
	// the class asked about when the property is inherited.
	Class string

	// The fields below are only known for the embedded database, which
	// was dumped from the running engine.

	// Hint and HintString are the inspector hint (PropertyHint) and its
	// text ("0,1,0.001,or_greater", "Texture2D").
	Hint       int
	HintString string
	// Usage is the PropertyUsageFlags bitmask; see Stored.
	Usage uint32
	// Default is the value a new instance has, in .tscn text syntax
	// ("Vector2(0, 0)", "true", "null"), when HasDefault. Godot leaves a
	// property out of a saved scene when its value equals Default.
	Default    string
	HasDefault bool
	// Float32 is set for a float property the engine holds as a 32-bit
	// float (real_t in official builds): it saves float32 digits
	// (0.33333334), where a double-precision one saves up to 17. Probed
	// on the running engine; see DB.Stored.
	Float32    bool
	fromEngine bool // Usage is known
}

// Saved reports whether the engine saves the property in scenes and
// resources (PROPERTY_USAGE_STORAGE). Always true for databases loaded
// from extension_api.json, which does not say.
func (p Property) Saved() bool { return !p.fromEngine || p.Usage&UsageStorage != 0 }

// Signal is a signal a class declares.
type Signal struct {
	Name string
	Args []Argument
}

// DB is a loaded class database. Build one with Load or LoadFile.
type DB struct {
	version     Version
	classes     map[string]*Class
	names       []string            // sorted, for Classes and suggestions
	children    map[string][]string // sorted direct subclasses
	globalEnums map[string]Enum

	// Only for the embedded database:
	provenance   Provenance
	settings     map[string]Setting
	settingNames []string // sorted
	keys         map[string]int64
	keyNames     map[int64]string
	// lazy is set for the embedded database, whose settings and keys are
	// decoded on first use.
	lazy *lazyDB
	// docs is the class reference table (docs.go), for the embedded
	// database.
	docs *docTable
}

// Version returns the engine version the file was dumped from, or the zero
// Version when the file has no header.
func (db *DB) Version() Version { return db.version }

// Len returns the number of classes.
func (db *DB) Len() int { return len(db.classes) }

// Classes returns every class name, sorted.
func (db *DB) Classes() []string { return slices.Clone(db.names) }

// Class returns a class by exact name.
func (db *DB) Class(name string) (*Class, bool) {
	c, ok := db.classes[name]
	if ok {
		c.load()
	}
	return c, ok
}

// Exists reports whether a class of that exact name exists.
func (db *DB) Exists(name string) bool {
	_, ok := db.classes[name]
	return ok
}

// Instantiable reports whether the class exists and can be instantiated
// (is not abstract).
func (db *DB) Instantiable(name string) bool {
	c, ok := db.classes[name]
	return ok && c.Instantiable
}

// Chain returns name followed by its ancestors, nearest first, ending at
// Object (or at the last class present if the file lacks a parent). It is
// nil when the class does not exist.
func (db *DB) Chain(name string) []string {
	var out []string
	db.walkIndex(name, func(c *Class) bool {
		out = append(out, c.Name)
		return true
	})
	return out
}

// walk calls fn for the class and then each ancestor, nearest first, until
// fn returns false or the chain ends, with each class's members decoded.
func (db *DB) walk(name string, fn func(*Class) bool) {
	db.walkIndex(name, func(c *Class) bool {
		c.load()
		return fn(c)
	})
}

// walkIndex is walk for questions the index answers (names, parents,
// flags), which leaves the members of a lazily decoded class undecoded.
// Load rejects inheritance cycles, but the walk is still bounded by the
// number of classes so that no input can make it loop forever.
func (db *DB) walkIndex(name string, fn func(*Class) bool) {
	for range len(db.classes) {
		c, ok := db.classes[name]
		if !ok || !fn(c) || c.Inherits == "" {
			return
		}
		name = c.Inherits
	}
}

// Inherits reports whether class is ancestor or derives from it, like the
// engine's ClassDB::is_parent_class. Both must exist.
func (db *DB) Inherits(class, ancestor string) bool {
	if !db.Exists(ancestor) {
		return false
	}
	found := false
	db.walkIndex(class, func(c *Class) bool {
		found = c.Name == ancestor
		return !found
	})
	return found
}

// IsNode reports whether class is Node or derives from it.
func (db *DB) IsNode(class string) bool { return db.Inherits(class, "Node") }

// Property finds a property on class or its nearest ancestor that declares
// it. The returned Property's Class field names the declaring class.
func (db *DB) Property(class, prop string) (Property, bool) {
	var p Property
	var found bool
	db.walk(class, func(c *Class) bool {
		p, found = c.Property(prop)
		return !found
	})
	return p, found
}

// Method finds a method on class or its nearest ancestor that declares it.
func (db *DB) Method(class, method string) (Method, bool) {
	var m Method
	var found bool
	db.walk(class, func(c *Class) bool {
		m, found = c.Method(method)
		return !found
	})
	return m, found
}

// Properties returns every property of class, its own first and then each
// ancestor's, nearest first. A property redeclared lower in the chain hides
// the ancestor's.
func (db *DB) Properties(class string) []Property {
	var out []Property
	seen := map[string]bool{}
	db.walk(class, func(c *Class) bool {
		for _, p := range c.Properties {
			if !seen[p.Name] {
				seen[p.Name] = true
				out = append(out, p)
			}
		}
		return true
	})
	return out
}

// PropertyType returns the type a property takes, resolved further than
// the file's "type" field:
//
//   - an "int" property whose setter's value argument (its last argument,
//     also when the property has an index) is an enum::/bitfield:: type
//     takes that type, since the dump spells enum properties as int;
//   - a typed array hint prefix is stripped ("typedarray::24/17:Font"
//     becomes "typedarray::Font").
//
// Other properties keep their declared type, which can be more specific
// than the setter's (a resource hint such as
// "CanvasItemMaterial,ShaderMaterial" against a Material argument).
func (db *DB) PropertyType(class, prop string) (string, bool) {
	p, ok := db.Property(class, prop)
	if !ok {
		return "", false
	}
	t := p.Type
	if t == "int" && p.Setter != "" {
		// The setter is declared with the property, or above it.
		if m, ok := db.Method(p.Class, p.Setter); ok && len(m.Arguments) > 0 {
			if at := m.Arguments[len(m.Arguments)-1].Type; isEnumType(at) {
				t = at
			}
		}
	}
	return NormalizeType(t), true
}

// Enum resolves an enum by qualified name ("CollisionObject2D.DisableMode")
// or global name ("Side", "Variant.Type"), with or without the "enum::" or
// "bitfield::" prefix the file uses in type spellings.
func (db *DB) Enum(name string) (Enum, bool) {
	name = trimEnumPrefix(name)
	if e, ok := db.globalEnums[name]; ok {
		return e, true
	}
	for i := len(name) - 1; i > 0; i-- {
		if name[i] == '.' {
			if c, ok := db.classes[name[:i]]; ok {
				return c.Enum(name[i+1:])
			}
			break
		}
	}
	return Enum{}, false
}

// String describes the DB briefly, for logs.
func (db *DB) String() string {
	return fmt.Sprintf("classdb: Godot %s, %d classes", db.version, len(db.classes))
}
