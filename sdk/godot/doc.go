// Package godot reads, edits and writes Godot 4 text files: scenes (.tscn),
// resources (.tres), project.godot and other ConfigFiles, using only the
// standard library.
//
// The package is lossless. Every statement of a file keeps the exact bytes it
// was read from, so writing an unmodified file reproduces it byte for byte,
// and an edit re-renders only the statements it touches, in the spelling the
// Godot editor uses (see FormatValue). A diff of an edited file shows the
// edit and nothing else.
//
// A typical edit: parse a scene, change a property, add a node that uses a
// texture, and write the file back.
//
//	src, err := os.ReadFile("main.tscn")
//	if err != nil { ... }
//	scene, err := godot.ParseFile("main.tscn", src)
//	if err != nil {
//		// A *godot.SyntaxError; it prints as "main.tscn:12:8: expected ..."
//		...
//	}
//
//	// Properties are Variant values: godot.Float, godot.Vector2, ...
//	scene.Node("MobTimer").Set("wait_time", godot.Float(0.75))
//
//	// Declare the texture once (an existing path keeps its id) and add a
//	// Sprite2D under the root that uses it.
//	tex, err := scene.AddExtResource("Texture2D", "res://art/icon.png", "")
//	if err != nil { ... }
//	sprite, err := scene.AddNode(".", "Icon", "Sprite2D")
//	if err != nil { ... }
//	sprite.Set("texture", tex)
//	sprite.Set("position", godot.Vector2{X: 240, Y: 450})
//
//	err = os.WriteFile("main.tscn", scene.Bytes(), 0o644)
//
// The diff of main.tscn is then one changed line (wait_time), one new
// [ext_resource] line, and one new [node] section with its two properties.
//
// # Model
//
// Values are the Value interface, implemented by one Go type per Variant type
// (Int, Float, String, Vector2, Transform3D, Array, Dictionary,
// PackedByteArray, Object, ExtResource, ...). ParseValue and FormatValue
// convert single values.
//
// A File is a .tscn or .tres. Its sections are exposed as typed views: Node
// (header fields such as name, type, parent, unique_id, groups, plus
// properties), ExtResourceDecl, SubResourceDecl, the main [resource] Section
// of a .tres, and Connection values. Editing methods keep the file
// consistent the way the editor's saver would: removing a node removes its
// subtree and its connections, renaming or moving one updates every path
// through it, and a sub resource (or ext resource) whose last reference
// disappears is dropped. When an edit adds a byte array over 64 bytes or a
// PackedVector4Array the header becomes format=4 and every byte array is
// written as base64, and back to format=3 when it goes away.
//
// A ConfigFile is a project.godot, export_presets.cfg, plugin.cfg or .import
// file; Project adds the project.godot conventions: "section/key" setting
// names, alphabetical section order, input actions, and Version.
//
// # Float spelling
//
// Godot 4.5 changed how floats are written (Grisu2 shortest digits, fixed
// notation up to 15 digits: 10000000.0) from printf's "%g" (six digits:
// 1e+07). An edit writes the spelling of the Godot version the file
// belongs to, its FloatStyle: set it with File.SetFloatStyle or
// ConfigFile.SetFloatStyle from FloatStyleFor(version); ParseProject takes
// the project's own version. The default, and FormatValue's, is the
// current spelling, FloatsShortest. FormatValueFor renders one value in a
// given style.
//
// # Errors
//
// Parse errors are *SyntaxError values with the file name, a 1-based line
// and column (in characters), and a message that says what was expected and
// what was found. Editing errors wrap ErrNotFound, ErrExists or ErrInvalid.
// No input makes the parser panic, and nesting is bounded, so untrusted
// files are safe to parse.
//
// Values of parsed files share memory with the file's buffer; File and
// ConfigFile are not safe for concurrent use.
package godot
