package classdb

import (
	"fmt"

	"github.com/godot-mcp/godot-mcp/sdk/godot/renames"
)

// ClassRename returns the rename when name is a Godot 3 class name this
// database does not have and whose Godot 4 name it does have: KinematicBody2D
// is CharacterBody2D. Names both versions share (Texture, Light2D) are
// not renames here, since the Godot 4 class of that name is what was
// asked for.
func (db *DB) ClassRename(name string) (renames.Rename, bool) {
	if db.Exists(name) {
		return renames.Rename{}, false
	}
	r, ok := renames.Class(name)
	if !ok || !db.Exists(r.New) {
		return renames.Rename{}, false
	}
	return r, true
}

// PropertyRename returns the rename when prop is a Godot 3 property name
// that class does not have and whose Godot 4 name it does have:
// RectangleShape2D's extents is size, Control's rect_position is position.
func (db *DB) PropertyRename(class, prop string) (renames.Rename, bool) {
	if _, ok := db.Property(class, prop); ok {
		return renames.Rename{}, false
	}
	for _, r := range renames.Property(prop) {
		if _, ok := db.Property(class, r.New); ok {
			return r, true
		}
	}
	return renames.Rename{}, false
}

// PropertyHint is the did-you-mean of a refused property of class: the
// Godot 4 spelling of a Godot 3 name ("extents is the Godot 3 name; in
// Godot 4 it is size"), else the closest property (`did you mean
// "position"?`), else "".
func (db *DB) PropertyHint(class, prop string) string {
	if r, ok := db.PropertyRename(class, prop); ok {
		return r.Message()
	}
	if s := db.SuggestProperty(class, prop); s != "" {
		return fmt.Sprintf("did you mean %q?", s)
	}
	return ""
}

// SignalHint is PropertyHint for a refused signal of class: the Godot 4
// name of a Godot 3 signal (text_entered is text_submitted), else the
// closest signal, else "".
func (db *DB) SignalHint(class, signal string) string {
	if _, ok := db.Signal(class, signal); !ok {
		if r, ok := renames.Signal(signal); ok {
			if _, ok := db.Signal(class, r.New); ok {
				return r.Message()
			}
		}
	}
	if s := db.SuggestSignal(class, signal); s != "" {
		return fmt.Sprintf("did you mean %q?", s)
	}
	return ""
}

// VersionFor is the Godot version a message about a project names: the
// project's own ("4.4") when known, else the database's ("4.6"). Refusals
// say "not a class in Godot 4.4", the version the user runs, even though
// the answer comes from the 4.6 database.
func (db *DB) VersionFor(project string) string {
	if project != "" {
		return project
	}
	return db.version.String()
}

// ValidNodeTypeFor is ValidNodeType for a project of Godot version
// project ("" when unknown): the refusal names the project's version.
func (db *DB) ValidNodeTypeFor(name, project string) error {
	err := db.ValidNodeType(name)
	if nte, ok := err.(*NodeTypeError); ok {
		nte.Project = project
	}
	return err
}

// MethodRename returns the rename when method is a Godot 3 method name
// that class does not have and whose Godot 4 name it does have:
// CanvasItem's update is queue_redraw, PackedScene's instance instantiate.
func (db *DB) MethodRename(class, method string) (renames.Rename, bool) {
	if _, ok := db.Method(class, method); ok {
		return renames.Rename{}, false
	}
	r, ok := renames.Method(method)
	if !ok {
		return renames.Rename{}, false
	}
	if _, ok := db.Method(class, r.New); !ok {
		return renames.Rename{}, false
	}
	return r, true
}

// MethodHint is PropertyHint for a refused method of class: the Godot 4
// name of a Godot 3 method the class has under that name ("update is the
// Godot 3 name; in Godot 4 it is queue_redraw"), else "".
func (db *DB) MethodHint(class, method string) string {
	if r, ok := db.MethodRename(class, method); ok {
		return r.Message()
	}
	return ""
}
