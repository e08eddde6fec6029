package main

import "testing"

func TestBridgeSettings(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, c := range []struct {
		flag string
		env  map[string]string
		url  string
	}{
		{"", nil, "ws://127.0.0.1:9080"},
		{"", map[string]string{"GODOT_MCP_BRIDGE_URL": "ws://127.0.0.1:9555"}, "ws://127.0.0.1:9555"},
		{"ws://127.0.0.1:7000", map[string]string{"GODOT_MCP_BRIDGE_URL": "ws://127.0.0.1:9555"}, "ws://127.0.0.1:7000"},
		{"off", nil, ""},
		{"", map[string]string{"GODOT_MCP_BRIDGE_URL": "OFF"}, ""},
	} {
		url, _ := bridgeSettings(c.flag, env(c.env))
		if url != c.url {
			t.Errorf("flag %q env %v: url %q, want %q", c.flag, c.env, url, c.url)
		}
	}
	if _, tok := bridgeSettings("", env(map[string]string{"GODOT_MCP_BRIDGE_TOKEN": "t"})); tok != "t" {
		t.Errorf("token %q", tok)
	}
}
