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
