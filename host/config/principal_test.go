package config

import (
	"strings"
	"testing"
)

// "operator" is the principal of GODOT_MCP_AUTH_TOKEN; a config token may
// not take the name, in any case.
func TestOperatorNameIsReserved(t *testing.T) {
	for _, name := range []string{"operator", "Operator"} {
		msg := loadErr(t, "[profiles.p]\n[[tokens]]\nname = \""+name+"\"\ntoken_env = \"T\"\nprofile = \"p\"\n",
			map[string]string{"T": "secret-1"})
		if !strings.Contains(msg, `tokens[0] ("`+name+`").name`) || !strings.Contains(msg, "reserved") {
			t.Errorf("name %q: error %q", name, msg)
		}
		if strings.Contains(msg, "secret-1") {
			t.Errorf("error shows the secret: %q", msg)
		}
	}
	mustLoad(t, "[profiles.p]\n[[tokens]]\nname = \"operator-bot\"\ntoken_env = \"T\"\nprofile = \"p\"\n",
		map[string]string{"T": "secret-1"})
}
