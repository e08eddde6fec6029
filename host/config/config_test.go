package config

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func writeFile(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "policy.toml")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func mustLoad(t *testing.T, body string, vars map[string]string) *Config {
	t.Helper()
	c, err := load(writeFile(t, body), env(vars))
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	return c
}

func loadErr(t *testing.T, body string, vars map[string]string) string {
	t.Helper()
	_, err := load(writeFile(t, body), env(vars))
	if err == nil {
		t.Fatalf("load succeeded, want an error")
	}
	return err.Error()
}

const full = `
default_toolsets = ["scene_edit"]

[stdio]
profile = "developer"

[operator]
deny = ["class:destructive"]

[profiles.developer]
description = "a human at the keyboard"

[profiles.ci]
inherit = "developer"
allow = ["class:read_only"]

[profiles.locked]
allow = []

[[tokens]]
name = "ci-bot"
token_env = "GODOT_MCP_TOKEN_CI"
profile = "ci"

[[tokens]]
name = "dev"
token_env = "GODOT_MCP_TOKEN_DEV"
profile = "developer"

[transport.http_remote]
ceiling = "ci"
`

var fullEnv = map[string]string{"GODOT_MCP_TOKEN_CI": "s3cret-ci", "GODOT_MCP_TOKEN_DEV": "s3cret-dev"}

func TestLoadDefaults(t *testing.T) {
	c, err := load("", env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Operator.Allow != nil || len(c.Profiles) != 0 || len(c.Tokens) != 0 || c.DefaultToolsets != nil {
		t.Errorf("defaults are not empty: %+v", c)
	}
}

func TestLoadFull(t *testing.T) {
	c := mustLoad(t, full, fullEnv)
	if got := c.Stdio.Profile; got != "developer" {
		t.Errorf("stdio profile = %q", got)
	}
	if c.Operator.Allow != nil {
		t.Errorf("absent operator.allow decoded as %#v, want nil", c.Operator.Allow)
	}
	if a := c.Profiles["developer"].Allow; a != nil {
		t.Errorf("absent profile allow decoded as %#v, want nil", a)
	}
	if a := c.Profiles["locked"].Allow; a == nil || len(a) != 0 {
		t.Errorf("allow = [] decoded as %#v, want a non-nil empty list", a)
	}
	if got := c.Transport[TransportHTTPRemote].Profile; got != "ci" {
		t.Errorf("ceiling = %q", got)
	}
	if got := c.InheritChain("ci"); strings.Join(got, ",") != "ci,developer" {
		t.Errorf("InheritChain(ci) = %v", got)
	}
	if len(c.Warnings) != 0 {
		t.Errorf("unexpected warnings: %v", c.Warnings)
	}
}

func TestDefaultToolsetsEnv(t *testing.T) {
	vars := map[string]string{DefaultToolsetsEnv: " tilemap, runtime ,"}
	for k, v := range fullEnv {
		vars[k] = v
	}
	c := mustLoad(t, full, vars)
	if got := strings.Join(c.DefaultToolsets, ","); got != "tilemap,runtime" {
		t.Errorf("DefaultToolsets = %q", got)
	}
	c = mustLoad(t, `default_toolsets = []`, nil)
	if c.DefaultToolsets == nil {
		t.Error("default_toolsets = [] decoded as nil")
	}
	if msg := loadErr(t, `default_toolsets = ["all", "x"]`, nil); !strings.Contains(msg, `"all"`) {
		t.Error(msg)
	}
}

func TestValidationErrors(t *testing.T) {
	tests := []struct {
		name string
		body string
		env  map[string]string
		want []string // substrings of the error
	}{
		{"unknown top-level key", "default_toolset = []\n", nil,
			[]string{"policy.toml:1", `unknown key "default_toolset"`, "valid top-level keys"}},
		{"misspelt allow", "[profiles.ci]\ninherit = \"\"\nalow = [\"x\"]\n", nil,
			[]string{"policy.toml:3", `"profiles.ci.alow"`, "a profile takes"}},
		{"unknown table reported once", "[operater]\ndeny = []\nallow = []\n", nil,
			[]string{"policy.toml:1", `"operater"`}},
		{"syntax error", "[operator\n", nil, []string{"policy.toml:", "table name"}},
		{"type error", "[operator]\ndeny = \"x\"\n", nil, []string{"policy.toml", "operator.deny"}},
		{"unknown inherit", "[profiles.ci]\ninherit = \"dev\"\n", nil,
			[]string{"profiles.ci.inherit", `profile "dev" is not defined`, "[profiles.dev]"}},
		{"cycle", "[profiles.a]\ninherit = \"b\"\n[profiles.b]\ninherit = \"c\"\n[profiles.c]\ninherit = \"a\"\n", nil,
			[]string{"inheritance cycle a -> b -> c -> a"}},
		{"self inherit", "[profiles.a]\ninherit = \"a\"\n", nil, []string{"inheritance cycle a -> a"}},
		{"unknown stdio profile", "[stdio]\nprofile = \"dev\"\n", nil, []string{"stdio.profile", `"dev"`, "(none defined)"}},
		{"unknown token profile", "[[tokens]]\nname = \"x\"\ntoken_env = \"T\"\nprofile = \"nope\"\n", map[string]string{"T": "v"},
			[]string{`tokens[0] ("x").profile`, `profile "nope" is not defined`}},
		{"unknown ceiling profile", "[transport.http_remote]\nceiling = \"ci\"\n", nil,
			[]string{"transport.http_remote.ceiling", `profile "ci" is not defined`}},
		{"unknown transport", "[profiles.ci]\n[transport.http]\nceiling = \"ci\"\n", nil,
			[]string{"transport.http", "use one of stdio, http_loopback, http_remote"}},
		{"missing ceiling", "[transport.stdio]\n", nil, []string{"transport.stdio.ceiling: missing"}},
		{"empty token env", "[profiles.p]\n[[tokens]]\nname = \"x\"\ntoken_env = \"T\"\nprofile = \"p\"\n", nil,
			[]string{"environment variable T is unset or empty"}},
		{"blank inline token", "[profiles.p]\n[[tokens]]\nname = \"x\"\ntoken = \"  \"\nprofile = \"p\"\n", nil,
			[]string{"is blank"}},
		{"no secret", "[profiles.p]\n[[tokens]]\nname = \"x\"\nprofile = \"p\"\n", nil, []string{"has no secret", "token_env"}},
		{"both secrets", "[profiles.p]\n[[tokens]]\nname = \"x\"\ntoken = \"a\"\ntoken_env = \"T\"\nprofile = \"p\"\n", map[string]string{"T": "v"},
			[]string{"sets both token and token_env"}},
		{"duplicate secret", "[profiles.p]\n[[tokens]]\nname = \"a\"\ntoken_env = \"A\"\nprofile = \"p\"\n[[tokens]]\nname = \"b\"\ntoken_env = \"B\"\nprofile = \"p\"\n",
			map[string]string{"A": "same", "B": "same"}, []string{"tokens[1]", `same secret as tokens[0] ("a")`}},
		{"duplicate name", "[profiles.p]\n[[tokens]]\nname = \"a\"\ntoken_env = \"A\"\nprofile = \"p\"\n[[tokens]]\nname = \"a\"\ntoken_env = \"B\"\nprofile = \"p\"\n",
			map[string]string{"A": "1", "B": "2"}, []string{"also used by tokens[0]"}},
		{"missing token name", "[profiles.p]\n[[tokens]]\ntoken_env = \"A\"\nprofile = \"p\"\n", map[string]string{"A": "1"},
			[]string{"tokens[0].name: missing"}},
		{"bad class", "[operator]\ndeny = [\"class:destructve\"]\n", nil,
			[]string{"operator.deny[0]", `"class:destructve" is not a safety class`, "class:destructive"}},
		{"bad pattern", "[profiles.p]\nallow = [\"godot_[*\"]\n", nil, []string{"profiles.p.allow[0]", "malformed"}},
		{"empty entry", "[operator]\nallow = [\"\"]\n", nil, []string{"operator.allow[0]: empty entry"}},
		{"bad profile name", "[profiles.\"a b\"]\n", nil, []string{"profile name \"a b\" is invalid"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg := loadErr(t, tt.body, tt.env)
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q\ndoes not contain %q", msg, w)
				}
			}
		})
	}
}

func TestUnknownTableReportedOnce(t *testing.T) {
	msg := loadErr(t, "[operater]\ndeny = []\nallow = []\n", nil)
	if n := strings.Count(msg, "unknown key"); n != 1 {
		t.Errorf("%d unknown-key errors, want 1:\n%s", n, msg)
	}
}

func TestWarnings(t *testing.T) {
	c := mustLoad(t, "[operator]\nallow = []\n[profiles.p]\n[[tokens]]\nname = \"x\"\ntoken = \"inline-secret\"\nprofile = \"p\"\n", nil)
	got := strings.Join(c.Warnings, "\n")
	for _, w := range []string{"operator.allow: the list is empty", `tokens[0] ("x").token: inline secret`, "token_env"} {
		if !strings.Contains(got, w) {
			t.Errorf("warnings %q lack %q", got, w)
		}
	}
	if strings.Contains(got, "inline-secret") {
		t.Error("a warning contains the secret")
	}
}

func TestInspectOnly(t *testing.T) {
	p := writeFile(t, full)
	if _, err := LoadWith(p, LoadOptions{}); err == nil {
		t.Fatal("secrets missing from the environment were accepted")
	}
	c, err := LoadWith(p, LoadOptions{InspectOnly: true})
	if err != nil {
		t.Fatalf("InspectOnly: %v", err)
	}
	if got := strings.Join(c.Warnings, "\n"); !strings.Contains(got, "GODOT_MCP_TOKEN_CI is unset; the token's secret was not checked") {
		t.Errorf("warnings = %q", got)
	}
	if _, _, ok := c.Principal(""); ok {
		t.Error("a token without a secret authenticated the empty token")
	}
	// Other mistakes still fail.
	if _, err := LoadWith(writeFile(t, "[stdio]\nprofile = \"x\"\n"), LoadOptions{InspectOnly: true}); err == nil {
		t.Error("InspectOnly accepted an undefined profile")
	}
}

func TestPrincipal(t *testing.T) {
	c := mustLoad(t, full, fullEnv)
	tests := []struct {
		token, name, profile string
		ok                   bool
	}{
		{"s3cret-ci", "ci-bot", "ci", true},
		{"s3cret-dev", "dev", "developer", true},
		{"s3cret-c", "", "", false},
		{"s3cret-ci ", "", "", false},
		{"", "", "", false},
	}
	for _, tt := range tests {
		name, profile, ok := c.Principal(tt.token)
		if name != tt.name || profile != tt.profile || ok != tt.ok {
			t.Errorf("Principal(%q) = %q, %q, %v; want %q, %q, %v", tt.token, name, profile, ok, tt.name, tt.profile, tt.ok)
		}
	}
}

func TestPrincipalNeedsValidate(t *testing.T) {
	c := &Config{Profiles: map[string]Profile{"p": {}}, Tokens: []Token{{Name: "x", Token: "abc", Profile: "p"}}}
	if _, _, ok := c.Principal("abc"); ok {
		t.Error("an unvalidated config authenticated a token")
	}
	if _, _, ok := c.Principal(""); ok {
		t.Error("the empty token authenticated")
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if name, _, ok := c.Principal("abc"); !ok || name != "x" {
		t.Errorf("after Validate: %q %v", name, ok)
	}
}

func TestSecretsNeverPrinted(t *testing.T) {
	c := mustLoad(t, "[profiles.p]\n[[tokens]]\nname = \"x\"\ntoken = \"inline-secret\"\nprofile = \"p\"\n[[tokens]]\nname = \"y\"\ntoken_env = \"T\"\nprofile = \"p\"\n",
		map[string]string{"T": "env-secret"})
	j, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	outs := []string{string(j)}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x"} {
		outs = append(outs, fmt.Sprintf(verb, c.Tokens[0]), fmt.Sprintf(verb, c.Tokens[1]), fmt.Sprintf(verb, c.Tokens))
	}
	outs = append(outs, fmt.Sprintf("%v", *c), fmt.Sprintf("%+v", *c))
	for _, o := range outs {
		if strings.Contains(o, "inline-secret") || strings.Contains(o, "env-secret") ||
			strings.Contains(o, fmt.Sprintf("%x", "inline-secret")) {
			t.Errorf("secret printed: %s", o)
		}
	}
}

func TestExampleFileLoads(t *testing.T) {
	vars := map[string]string{}
	for _, k := range []string{"GODOT_MCP_TOKEN_CI", "GODOT_MCP_TOKEN_SUBAGENT", "GODOT_MCP_TOKEN_REMOTE", "GODOT_MCP_TOKEN_DEV"} {
		vars[k] = "secret-" + k
	}
	c, err := load(filepath.Join("..", "..", "docs", "policy.example.toml"), env(vars))
	if err != nil {
		t.Fatalf("docs/policy.example.toml: %v", err)
	}
	if len(c.Warnings) != 0 {
		t.Errorf("the example should not warn: %v", c.Warnings)
	}
	if len(c.Profiles) == 0 || len(c.Tokens) == 0 || len(c.Transport) == 0 {
		t.Errorf("the example should show profiles, tokens and ceilings: %+v", c)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(full)
	f.Add("[operator]\nallow = []\n")
	f.Fuzz(func(t *testing.T, body string) {
		c, err := parse("f.toml", []byte(body))
		if err != nil {
			return
		}
		_ = c.validate(env(nil), LoadOptions{})
		_ = c.InheritChain("a")
	})
}
