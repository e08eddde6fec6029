package main

import (
	"strings"
	"testing"
)

func TestUnknownToolMessageSuggestsTheFix(t *testing.T) {
	names := []string{"godot_list_toolsets", "godot_scene_edit_add_node", "godot_todo_list"}
	for _, tt := range []struct {
		tool, want string
	}{
		{"godot_todo_lst", "Did you mean: godot_todo_list?"},  // typo
		{"godot_todo", "Did you mean: godot_todo_list?"},      // toolset prefix
		{"godot_scene_add_node", "godot_scene_edit_add_node"}, // same last word
		{"godot_nothing_like_it", "godot-mcp plugins list"},   // no guess, still a way on
	} {
		msg := unknownToolMessage(tt.tool, names)
		if !strings.Contains(msg, tt.want) || !strings.Contains(msg, `"`+tt.tool+`"`) {
			t.Errorf("unknownToolMessage(%q) = %q, want it to name the tool and contain %q", tt.tool, msg, tt.want)
		}
	}
	if msg := unknownToolMessage("godot_nothing_like_it", names); strings.Contains(msg, "Did you mean") {
		t.Errorf("no near name, but the message guesses: %q", msg)
	}
}

// --args goes through the server's argument check before anything runs:
// a key named twice is refused (a map would keep only the last), as is
// anything but an object.
func TestCallRefusesBadArgs(t *testing.T) {
	for _, tt := range []struct{ args, want string }{
		{`{"confirm":false,"confirm":true}`, `name "confirm" more than once`},
		{`[1]`, "must be a JSON object"},
		{`null`, "must be a JSON object"},
		{`{"a":`, "not valid JSON"},
	} {
		var out, errOut strings.Builder
		code := runCall([]string{"godot_list_toolsets", "--args", tt.args}, &out, &errOut)
		if code != 2 || !strings.Contains(errOut.String(), tt.want) {
			t.Errorf("--args %s: exit %d, stderr %q; want 2 and %q", tt.args, code, errOut.String(), tt.want)
		}
	}
}
