package classdb

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/godot-mcp/godot-mcp/sdk/suggest"
)

// Reasons ValidNodeType rejects a type. Test for them with errors.Is; the
// *NodeTypeError carries the details.
var (
	ErrUnknownClass = errors.New("unknown class")
	ErrNotNode      = errors.New("not a Node")
	ErrEditorOnly   = errors.New("editor-only class")
	ErrAbstract     = errors.New("abstract class")
)

// NodeTypeError explains why a class cannot be the type of a scene node.
type NodeTypeError struct {
	Type string
	// Reason is ErrUnknownClass, ErrNotNode, ErrEditorOnly or ErrAbstract.
	Reason error
	// Version is the engine version of the class database, if known.
	Version Version
	// Project is the project's Godot version ("4.4"), when known; the
	// message names it rather than Version (see ValidNodeTypeFor).
	Project string
	// Suggestion is the closest class name, for ErrUnknownClass; may be "".
	Suggestion string
	// Godot3 is set when Type is a Godot 3 class name and Suggestion its
	// Godot 4 name.
	Godot3 bool
	// Chain is the class and its ancestors, for ErrNotNode.
	Chain []string
	// APIType is the class's API, for ErrEditorOnly.
	APIType APIType
	// Concrete lists a few instantiable subclasses, for ErrAbstract.
	Concrete []string
}

func (e *NodeTypeError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "classdb: node type %q ", e.Type)
	switch e.Reason {
	case ErrUnknownClass:
		b.WriteString("is not an engine class")
		if e.Project != "" {
			fmt.Fprintf(&b, " in Godot %s", e.Project)
		} else if e.Version != (Version{}) {
			fmt.Fprintf(&b, " in Godot %s", e.Version)
		}
		switch {
		case e.Godot3:
			fmt.Fprintf(&b, ": %s is the Godot 3 name; in Godot 4 it is %s", e.Type, e.Suggestion)
		case e.Suggestion != "":
			fmt.Fprintf(&b, "; did you mean %q?", e.Suggestion)
		default:
			b.WriteString("; check the spelling (class names are case-sensitive), or instance a scene for custom types")
		}
	case ErrNotNode:
		fmt.Fprintf(&b, "is not a Node (%s); a scene node needs a class that inherits Node",
			strings.Join(e.Chain, " -> "))
	case ErrEditorOnly:
		fmt.Fprintf(&b, "is editor-only (api_type %q) and does not exist in a running game", e.APIType)
	case ErrAbstract:
		b.WriteString("is abstract and cannot be instantiated")
		if len(e.Concrete) > 0 {
			fmt.Fprintf(&b, "; use a concrete subclass such as %s", quoteList(e.Concrete))
		}
	default:
		fmt.Fprintf(&b, "is invalid: %v", e.Reason)
	}
	return b.String()
}

// Unwrap returns Reason, so errors.Is(err, ErrAbstract) works.
func (e *NodeTypeError) Unwrap() error { return e.Reason }

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	switch len(q) {
	case 1:
		return q[0]
	case 2:
		return q[0] + " or " + q[1]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// ValidNodeType reports whether name can be the type of a [node] in a
// scene that runs in a game, and if not, why, as a *NodeTypeError:
//
//   - ErrUnknownClass: no such class (with a did-you-mean suggestion);
//   - ErrNotNode: the class does not inherit Node (with its chain);
//   - ErrEditorOnly: the class exists only in the editor (api_type
//     "editor" or "editor_extension");
//   - ErrAbstract: the class cannot be instantiated (with concrete
//     subclasses to use instead).
//
// Classes from GDExtensions (api_type "extension") are accepted.
func (db *DB) ValidNodeType(name string) error {
	c, ok := db.classes[name]
	if !ok {
		if r, ok := db.ClassRename(name); ok {
			return &NodeTypeError{Type: name, Reason: ErrUnknownClass, Version: db.version, Suggestion: r.New, Godot3: true}
		}
		return &NodeTypeError{Type: name, Reason: ErrUnknownClass, Version: db.version, Suggestion: db.Suggest(name)}
	}
	if !db.IsNode(name) {
		return &NodeTypeError{Type: name, Reason: ErrNotNode, Chain: db.Chain(name)}
	}
	if c.APIType.EditorOnly() {
		return &NodeTypeError{Type: name, Reason: ErrEditorOnly, APIType: c.APIType}
	}
	if !c.Instantiable {
		return &NodeTypeError{Type: name, Reason: ErrAbstract, Concrete: db.concreteSubclasses(name, 3)}
	}
	return nil
}

// validNode is ValidNodeType without building an error.
func (db *DB) validNode(name string) bool {
	c, ok := db.classes[name]
	return ok && c.Instantiable && !c.APIType.EditorOnly() && db.IsNode(name)
}

// concreteSubclasses returns up to max valid node classes below name,
// nearest generation first and alphabetical within one, so the suggestion
// for CanvasItem is Node2D before Sprite2D.
func (db *DB) concreteSubclasses(name string, max int) []string {
	var out []string
	level := db.children[name]
	for len(level) > 0 && len(out) < max {
		var next []string
		for _, n := range level {
			if len(out) < max && db.validNode(n) {
				out = append(out, n)
			}
			next = append(next, db.children[n]...)
		}
		level = next
	}
	return out
}

// Suggest returns the class name closest to name by edit distance, ignoring
// case, or "" when nothing is close enough to be a likely typo. Ties go to
// classes that are valid node types, then to names that start with the
// input (a truncated "Node2" means "Node2D" more often than "Node"), then
// to the alphabetically first.
func (db *DB) Suggest(name string) string {
	if name == "" {
		return ""
	}
	lname := strings.ToLower(name)
	// Allow roughly one typo per four characters, and at least one.
	limit := max(1, utf8.RuneCountInString(name)/4+1)
	type rank struct {
		dist           int
		notNode, notPf bool
	}
	less := func(a, b rank) bool {
		if a.dist != b.dist {
			return a.dist < b.dist
		}
		if a.notNode != b.notNode {
			return !a.notNode
		}
		return !a.notPf && b.notPf
	}
	best, bestRank := "", rank{dist: limit + 1, notNode: true, notPf: true}
	for _, cand := range db.names { // sorted, so the first of equals wins
		lcand := strings.ToLower(cand)
		d := suggest.Distance(lname, lcand, bestRank.dist)
		if d > limit {
			continue
		}
		r := rank{dist: d, notNode: !db.validNode(cand), notPf: !strings.HasPrefix(lcand, lname)}
		if less(r, bestRank) {
			best, bestRank = cand, r
		}
	}
	return best
}
