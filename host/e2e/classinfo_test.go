package e2e

import (
	"slices"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// describeResult is the part of godot_describe_class's answer the tests read.
type describeResult struct {
	Class        string   `json:"class"`
	Brief        string   `json:"brief"`
	Inherits     []string `json:"inherits"`
	Instantiable bool     `json:"instantiable"`
	IsNode       bool     `json:"is_node"`
	Properties   []struct {
		Name    string   `json:"name"`
		Type    string   `json:"type"`
		Default string   `json:"default"`
		Hint    string   `json:"hint"`
		Enum    []string `json:"enum"`
		Class   string   `json:"class"`
	} `json:"properties"`
	Signals     []string `json:"signals"`
	Methods     []string `json:"methods"`
	MethodsNote string   `json:"methods_note"`
	MethodBrief []string `json:"method_briefs"`
	MemberCount int      `json:"member_count"`
	NextCursor  string   `json:"next_cursor"`
	RenamedFrom *struct {
		Godot3 string `json:"godot3"`
		Godot4 string `json:"godot4"`
	} `json:"renamed_from"`
	Godot struct {
		Database   string `json:"database"`
		Project    string `json:"project"`
		AnsweredBy string `json:"answered_by"`
		DescFrom   string `json:"descriptions_from"`
		Note       string `json:"note"`
	} `json:"godot"`
	// Search answers.
	Matches []struct {
		Name  string `json:"name"`
		Brief string `json:"brief"`
	} `json:"matches"`
	Total       int `json:"total"`
	More        int `json:"more"`
	Godot3Names []struct {
		Godot3 string `json:"godot3"`
		Godot4 string `json:"godot4"`
	} `json:"godot3_names"`
}

// TestDescribeClass asks the real host, over MCP, about engine classes:
// one class, a partial search, a Godot 3 name and a misspelt one.
func TestDescribeClass(t *testing.T) {
	s := stdioHost(t, legacy, "--godot-version", "4.4")

	t.Run("class", func(t *testing.T) {
		var r describeResult
		s.ok(t, "godot_describe_class", map[string]any{"class_name": "CharacterBody2D"}, &r)
		if r.Class != "CharacterBody2D" || !r.Instantiable || !r.IsNode ||
			!slices.Equal(r.Inherits, []string{"PhysicsBody2D", "CollisionObject2D", "Node2D", "CanvasItem", "Node", "Object"}) {
			t.Fatalf("CharacterBody2D = %+v", r)
		}
		var motion bool
		for _, p := range r.Properties {
			if p.Name == "motion_mode" {
				motion = p.Type == "CharacterBody2D.MotionMode" && p.Default == "0" &&
					slices.Contains(p.Enum, "MOTION_MODE_FLOATING=1")
			}
		}
		if !motion {
			t.Errorf("motion_mode is missing its enum type, default or values: %+v", r.Properties)
		}
		if !slices.Contains(r.Methods, "move_and_slide() -> bool") {
			t.Errorf("methods lack move_and_slide() -> bool: %v", r.Methods)
		}
		if r.Brief != "A 2D physics body specialized for characters moved by script." || !strings.Contains(r.Godot.DescFrom, "class reference") {
			t.Errorf("brief %q, descriptions_from %q", r.Brief, r.Godot.DescFrom)
		}
		if r.Godot.Database != "4.6" || r.Godot.Project != "4.4" || !strings.Contains(r.Godot.Note, "4.4") ||
			!strings.HasPrefix(r.Godot.AnsweredBy, "embedded") {
			t.Errorf("godot = %+v, want the 4.6 database answering for a 4.4 project, with a note", r.Godot)
		}
	})

	t.Run("argument names", func(t *testing.T) {
		for _, c := range []struct{ class, filter, want string }{
			{"AStar2D", "add_point", "add_point(id: int, position: Vector2, weight_scale: float = 1.0)"},
			{"Node", "add_child", "add_child(node: Node, force_readable_name: bool = false, internal: Node.InternalMode = 0)"},
			{"Tween", "tween_property", "tween_property(object: Object, property: NodePath, final_val: Variant, duration: float) -> PropertyTweener"},
			{"CharacterBody2D", "move_and_slide", "move_and_slide() -> bool"},
		} {
			var r describeResult
			s.ok(t, "godot_describe_class", map[string]any{"class_name": c.class, "members": "methods", "filter": c.filter}, &r)
			if !slices.Contains(r.Methods, c.want) || r.MethodsNote != "" {
				t.Errorf("%s methods %q: %q (note %q), want %q and no note", c.class, c.filter, r.Methods, r.MethodsNote, c.want)
			}
			if !slices.ContainsFunc(r.MethodBrief, func(b string) bool { return strings.HasPrefix(b, c.filter+": ") }) {
				t.Errorf("%s %s: method_briefs %q lack the method", c.class, c.filter, r.MethodBrief)
			}
		}
		var mv describeResult
		s.ok(t, "godot_describe_class", map[string]any{"class_name": "CharacterBody2D", "members": "methods", "filter": "move_and_slide"}, &mv)
		if !slices.Contains(mv.MethodBrief, "move_and_slide: Moves the body based on velocity.") {
			t.Errorf("move_and_slide brief: %q", mv.MethodBrief)
		}
		var unfiltered describeResult
		s.ok(t, "godot_describe_class", map[string]any{"class_name": "AStar2D", "members": "methods"}, &unfiltered)
		if len(unfiltered.MethodBrief) != 0 {
			t.Errorf("an unfiltered answer has method_briefs: %q", unfiltered.MethodBrief)
		}
		// A method new in 4.6 after the class reference the names come
		// from keeps bare types, and the answer says why.
		var r describeResult
		s.ok(t, "godot_describe_class", map[string]any{"class_name": "ChainIK3D", "members": "methods", "filter": "set_root_bone"}, &r)
		if !slices.Contains(r.Methods, "set_root_bone(int, int)") || !strings.Contains(r.MethodsNote, "class reference") {
			t.Errorf("ChainIK3D set_root_bone: %q, note %q", r.Methods, r.MethodsNote)
		}
	})

	t.Run("inherited members page", func(t *testing.T) {
		var r describeResult
		s.ok(t, "godot_describe_class", map[string]any{"class_name": "Button", "inherited": true, "members": "properties", "limit": 20}, &r)
		if len(r.Properties) != 20 || r.NextCursor != "20" || r.MemberCount <= 20 {
			t.Fatalf("first page: %d properties, next_cursor %q, of %d", len(r.Properties), r.NextCursor, r.MemberCount)
		}
		seen := map[string]bool{}
		for cursor := r.NextCursor; cursor != ""; {
			var page describeResult
			s.ok(t, "godot_describe_class", map[string]any{"class_name": "Button", "inherited": true, "members": "properties", "limit": 200, "cursor": cursor}, &page)
			for _, p := range page.Properties {
				seen[p.Name+"@"+p.Class] = true
			}
			cursor = page.NextCursor
		}
		if !seen["focus_mode@Control"] || !seen["process_mode@Node"] {
			t.Errorf("later pages lack Control.focus_mode or Node.process_mode: %v", seen)
		}
	})

	t.Run("filter", func(t *testing.T) {
		var r describeResult
		s.ok(t, "godot_describe_class", map[string]any{"class_name": "CharacterBody2D", "filter": "velocity", "inherited": true}, &r)
		if len(r.Properties) == 0 || len(r.Methods) == 0 {
			t.Fatalf("filter velocity: %+v", r)
		}
		for _, m := range r.Methods {
			if !strings.Contains(m, "velocity") {
				t.Errorf("method %q does not match the filter", m)
			}
		}
	})

	t.Run("Godot 3 member", func(t *testing.T) {
		for _, c := range []struct{ class, filter, want string }{
			{"RectangleShape2D", "extents", "extents is the Godot 3 name; in Godot 4 it is size"},
			{"PackedScene", "instance", "instance is the Godot 3 name; in Godot 4 it is instantiate"},
			{"LineEdit", "text_entered", "text_entered is the Godot 3 name; in Godot 4 it is text_submitted"},
		} {
			res := s.call(t, "godot_describe_class", map[string]any{"class_name": c.class, "filter": c.filter, "inherited": true})
			if res.IsError || !strings.Contains(text(res), c.want) {
				t.Errorf("%s filter %s: %s", c.class, c.filter, text(res))
			}
		}
	})

	t.Run("search", func(t *testing.T) {
		var r describeResult
		s.ok(t, "godot_describe_class", map[string]any{"query": "body2d"}, &r)
		var names []string
		for _, m := range r.Matches {
			names = append(names, m.Name)
			if m.Name == "RigidBody2D" && !strings.HasPrefix(m.Brief, "A 2D physics body") {
				t.Errorf("RigidBody2D brief %q", m.Brief)
			}
		}
		for _, want := range []string{"CharacterBody2D", "RigidBody2D", "StaticBody2D"} {
			if !slices.Contains(names, want) {
				t.Errorf("query body2d: %v lacks %s", names, want)
			}
		}
		if !slices.ContainsFunc(r.Godot3Names, func(n struct {
			Godot3 string `json:"godot3"`
			Godot4 string `json:"godot4"`
		}) bool {
			return n.Godot3 == "KinematicBody2D" && n.Godot4 == "CharacterBody2D"
		}) {
			t.Errorf("query body2d: godot3_names %+v lacks KinematicBody2D", r.Godot3Names)
		}
		var capped describeResult
		s.ok(t, "godot_describe_class", map[string]any{"query": "e", "limit": 5}, &capped)
		if len(capped.Matches) != 5 || capped.More != capped.Total-5 || capped.Total < 100 {
			t.Errorf("query e limit 5: %d matches, %d more of %d", len(capped.Matches), capped.More, capped.Total)
		}
	})

	t.Run("Godot 3 name", func(t *testing.T) {
		res := s.call(t, "godot_describe_class", map[string]any{"class_name": "KinematicBody2D", "members": "none"})
		var r describeResult
		decode(t, res, &r)
		if res.IsError || r.Class != "CharacterBody2D" || r.RenamedFrom == nil || r.RenamedFrom.Godot3 != "KinematicBody2D" {
			t.Fatalf("KinematicBody2D: %s", text(res))
		}
		if !strings.HasPrefix(text(res), "KinematicBody2D is the Godot 3 name; in Godot 4 it is CharacterBody2D") {
			t.Errorf("summary does not lead with the rename: %s", text(res))
		}
	})

	t.Run("unknown", func(t *testing.T) {
		te := toolError(t, s.call(t, "godot_describe_class", map[string]any{"class_name": "Sprite2d3"}))
		if te.Code != sdk.CodeNotFound || !strings.Contains(te.Message, "Godot 4.4") || !strings.Contains(te.Hint, `did you mean "Sprite2D"?`) {
			t.Errorf("Sprite2d3: %+v", te)
		}
		te = toolError(t, s.call(t, "godot_describe_class", map[string]any{}))
		if te.Code != sdk.CodeInvalidArgument {
			t.Errorf("no class_name or query: %+v", te)
		}
		te = toolError(t, s.call(t, "godot_describe_class", map[string]any{"class_name": "Node", "cursor": "x"}))
		if te.Code != sdk.CodeInvalidArgument {
			t.Errorf("bad cursor: %+v", te)
		}
	})

	t.Run("compact", func(t *testing.T) {
		res := s.call(t, "godot_describe_class", map[string]any{"class_name": "Control", "inherited": true, "limit": 500})
		if n := len(text(res)); n > 20<<10 {
			t.Errorf("Control with inherited members is %d bytes of text, want at most 20 KB", n)
		}
	})
}
