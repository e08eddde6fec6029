package editorcmd

import "testing"

func TestAllowedInDryRun(t *testing.T) {
	for _, c := range []struct {
		cmd, params string
		ok          bool
	}{
		{"cmd_get_scene_tree", ``, true},
		{"cmd_node_persistence", `{"node_path":"."}`, true},
		{"cmd_open_scene", `{"scene_path":"res://a.tscn"}`, true},
		{"cmd_extract_scene", `{"preview":true}`, true},
		{"cmd_extract_scene", `{"preview":false}`, false},
		{"cmd_extract_scene", `{}`, false},
		{"cmd_apply_node_edits", `{"dry_run":"true"}`, false}, // a string is not the flag
		{"cmd_apply_node_edits", `not json`, false},
		{"cmd_create_node", `{"dry_run":true}`, false}, // not a preview command: the flag means nothing to it
		{"cmd_from_a_newer_addon", `{}`, false},
		{"", ``, false},
	} {
		if err := AllowedInDryRun(c.cmd, []byte(c.params)); (err == nil) != c.ok {
			t.Errorf("%s %s: err %v, want allowed=%v", c.cmd, c.params, err, c.ok)
		}
	}
	if Lookup("cmd_nobody_knows").Kind != Mutating {
		t.Error("an unknown command must count as mutating")
	}
}
