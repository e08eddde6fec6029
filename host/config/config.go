// Package config reads the operator's policy file: which toolsets start
// enabled, who the callers are, and which tools each of them may see.
//
// The file is TOML and is passed to the host with --config. Every key is
// optional; a host started without a file has no policy beyond the built-in
// fail-closed rules of host/exposure:
//
//	# Toolsets enabled at start ("all" or names); GODOT_MCP_DEFAULT_TOOLSETS overrides.
//	default_toolsets = ["scene_edit"]
//
//	[stdio]
//	profile = "developer"            # the profile a stdio client runs as
//
//	[operator]                       # applies to every caller
//	deny = ["class:destructive"]
//
//	[profiles.developer]             # no allow list: everything not denied
//	deny = ["runtime"]
//
//	[profiles.ci]
//	inherit = "developer"            # can only narrow its parent
//	allow   = ["class:read_only"]
//
//	[[tokens]]                       # HTTP bearer tokens, each bound to a profile
//	name      = "ci-bot"
//	token_env = "GODOT_MCP_TOKEN_CI"
//	profile   = "ci"
//
//	[transport.http_remote]          # ceilings: stdio, http_loopback, http_remote
//	ceiling = "ci"
//
// # Lists
//
// An allow or deny list holds entries of four kinds: an exposed tool name
// ("godot_scene_edit_create_node"), a toolset name ("scene_edit"), a safety
// class ("class:read_only") and a pattern with '*' matched against tool and
// toolset names ("godot_scene_edit_*", or "*" for everything). Deny wins over
// allow.
//
// An allow list that is absent places no restriction. An allow list that is
// present hides everything it does not name, so a present but empty allow
// list ("allow = []") hides everything. The difference is carried in Go by
// nil (absent) versus a non-nil empty slice (present); Load preserves it.
//
// # Secrets
//
// A token's secret should come from the environment (token_env). An inline
// secret (token = "…") works but is reported in Config.Warnings, because a
// policy file is usually committed or shared. Secrets are never printed:
// Token's String and GoString redact them, and they are not serialized to JSON.
//
// Load validates everything it can without the plugin catalog (profiles,
// inheritance, tokens, ceilings, class names, patterns). Whether each name
// refers to an installed toolset or tool is checked later, once the catalog
// is open, by exposure.Chain.ValidateNames.
package config

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"maps"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// DefaultToolsetsEnv overrides default_toolsets: "all" or a comma list.
const DefaultToolsetsEnv = "GODOT_MCP_DEFAULT_TOOLSETS"

// OperatorPrincipal is the principal of the operator's own bearer token
// (GODOT_MCP_AUTH_TOKEN, which runs without a profile). It is reserved: no
// [[tokens]] entry may use it as its name, so that logs and events never
// mistake a profile-bound token for the operator.
const OperatorPrincipal = "operator"

// The transport keys a ceiling can be set for.
const (
	TransportStdio        = "stdio"
	TransportHTTPLoopback = "http_loopback"
	TransportHTTPRemote   = "http_remote"
)

// Transports lists the valid keys of Config.Transport.
var Transports = []string{TransportStdio, TransportHTTPLoopback, TransportHTTPRemote}

// ClassPrefix marks a list entry that names a safety class.
const ClassPrefix = "class:"

// Config is the parsed policy file. Build it with Load; a Config built in
// Go must be passed through Validate before use, which also resolves token
// secrets.
type Config struct {
	// Path is the file the config was read from ("" for defaults). Errors
	// and warnings name it.
	Path string `toml:"-" json:"path,omitempty"`

	// DefaultToolsets are the toolsets enabled at start: names, or ["all"].
	// nil means the gate's built-in default. The environment variable
	// GODOT_MCP_DEFAULT_TOOLSETS replaces it when set.
	DefaultToolsets []string `toml:"default_toolsets" json:"default_toolsets,omitempty"`

	// Stdio.Profile is the profile a stdio client runs as; "" means no
	// profile restriction (the operator lists and ceilings still apply).
	Stdio struct{ Profile string } `toml:"stdio" json:"stdio"`

	// Operator lists apply to every caller, before any profile.
	Operator OperatorLists `toml:"operator" json:"operator"`

	// Profiles by name.
	Profiles map[string]Profile `toml:"profiles" json:"profiles,omitempty"`

	// Tokens are the HTTP bearer tokens; each authenticates one principal.
	Tokens []Token `toml:"tokens" json:"tokens,omitempty"`

	// Transport maps a transport key (see Transports) to its ceiling.
	Transport map[string]Ceiling `toml:"transport" json:"transport,omitempty"`

	// Plugins is what the host grants toolset plugin processes: extra
	// environment variables, limits, and how strictly binaries are checked.
	Plugins PluginsConfig `toml:"plugins" json:"plugins"`

	// Warnings are problems that do not stop startup, each saying how to
	// fix it. The host logs them.
	Warnings []string `toml:"-" json:"warnings,omitempty"`
}

// AuthTokenEnv names the variable holding the operator's HTTP bearer token
// (the same name host/server reads). It is never passed to a plugin.
const AuthTokenEnv = "GODOT_MCP_AUTH_TOKEN"

// PluginsConfig is the [plugins] table:
//
//	[plugins]
//	pass_env = ["GODOT_BIN"]          # host variables every plugin gets
//	refuse_unsafe_permissions = true  # refuse world-writable binaries instead of warning
//	memory_limit_mb = 2048            # address-space limit of every plugin (Linux)
//	max_result_mb = 16                # largest result a plugin may return
//	max_concurrent_calls = 8          # calls in flight per plugin
//
//	[plugins.toolsets.runtime]        # per toolset, added to / replacing the above
//	pass_env = ["DISPLAY"]
//	memory_limit_mb = 4096
//
// Zero values mean the host's defaults (docs/supervisor.md).
type PluginsConfig struct {
	PassEnv                 []string                  `toml:"pass_env" json:"pass_env,omitempty"`
	RefuseUnsafePermissions bool                      `toml:"refuse_unsafe_permissions" json:"refuse_unsafe_permissions,omitempty"`
	MemoryLimitMB           int                       `toml:"memory_limit_mb" json:"memory_limit_mb,omitempty"`
	MaxResultMB             int                       `toml:"max_result_mb" json:"max_result_mb,omitempty"`
	MaxConcurrentCalls      int                       `toml:"max_concurrent_calls" json:"max_concurrent_calls,omitempty"`
	Toolsets                map[string]PluginSettings `toml:"toolsets" json:"toolsets,omitempty"`
}

// PluginSettings are the per-toolset settings of [plugins.toolsets.<name>].
type PluginSettings struct {
	// PassEnv is added to plugins.pass_env for this toolset.
	PassEnv []string `toml:"pass_env" json:"pass_env,omitempty"`
	// MemoryLimitMB replaces plugins.memory_limit_mb for this toolset.
	MemoryLimitMB int `toml:"memory_limit_mb" json:"memory_limit_mb,omitempty"`
}

// PluginPassEnv returns the names of the host variables passed to the
// plugin of toolset (beyond the allow list of host/pluginenv).
func (c *Config) PluginPassEnv(toolset string) []string {
	out := slices.Clone(c.Plugins.PassEnv)
	return append(out, c.Plugins.Toolsets[toolset].PassEnv...)
}

// PluginMemoryLimit returns the memory limit in bytes of toolset's plugin;
// 0 means none.
func (c *Config) PluginMemoryLimit(toolset string) int64 {
	mb := c.Plugins.MemoryLimitMB
	if s, ok := c.Plugins.Toolsets[toolset]; ok && s.MemoryLimitMB > 0 {
		mb = s.MemoryLimitMB
	}
	return int64(mb) << 20
}

// SecretEnv names the variables that hold secrets of this host: the
// operator's token and every token_env. Plugins never get them.
func (c *Config) SecretEnv() []string {
	out := []string{AuthTokenEnv}
	for _, t := range c.Tokens {
		if t.TokenEnv != "" {
			out = append(out, t.TokenEnv)
		}
	}
	return out
}

// OperatorLists are the allow and deny lists of the [operator] table. See the
// package doc for the entry syntax and for absent versus empty allow lists.
type OperatorLists struct {
	Allow []string `toml:"allow" json:"allow"`
	Deny  []string `toml:"deny" json:"deny,omitempty"`
}

// Profile is a named selection of tools. A profile that inherits another can
// only narrow it: the tools it shows are those both it and its parent show.
type Profile struct {
	Description string   `toml:"description" json:"description,omitempty"`
	Inherit     string   `toml:"inherit" json:"inherit,omitempty"`
	Allow       []string `toml:"allow" json:"allow"`
	Deny        []string `toml:"deny" json:"deny,omitempty"`
}

// Ceiling caps every caller of a transport to a profile: a caller on that
// transport sees at most what the ceiling profile shows, whatever its own
// profile allows.
type Ceiling struct {
	Profile string `toml:"ceiling" json:"ceiling"`
}

// Token is one HTTP bearer token bound to a profile. Exactly one of Token
// (inline secret) and TokenEnv (name of the environment variable holding
// the secret) is set.
type Token struct {
	Name     string `toml:"name" json:"name"`
	Token    string `toml:"token" json:"-"`
	TokenEnv string `toml:"token_env" json:"token_env,omitempty"`
	Profile  string `toml:"profile" json:"profile"`

	secret []byte // resolved by Validate; never printed
}

// String describes t without its secret.
func (t Token) String() string {
	src := "inline secret"
	if t.TokenEnv != "" {
		src = "secret from $" + t.TokenEnv
	}
	return fmt.Sprintf("token %q (profile %q, %s, [REDACTED])", t.Name, t.Profile, src)
}

// GoString keeps %#v from printing the secret.
func (t Token) GoString() string { return t.String() }

// Defaults returns the configuration used when no file is given: no
// profiles, no tokens, no ceilings, no operator lists.
func Defaults() *Config {
	return &Config{}
}

// Load reads and validates the policy file at path. An empty path returns
// Defaults (with the environment override of default toolsets applied).
func Load(path string) (*Config, error) {
	return load(path, os.Getenv)
}

// LoadOptions adjust LoadWith.
type LoadOptions struct {
	// InspectOnly is for tools that read the policy without serving it
	// (`godot-mcp policy explain`): a token whose environment variable is
	// unset becomes a warning instead of an error, so the policy can be
	// inspected without its secrets. Such a token authenticates nobody.
	InspectOnly bool
}

// LoadWith is Load with options.
func LoadWith(path string, o LoadOptions) (*Config, error) {
	return loadWith(path, os.Getenv, o)
}

func load(path string, getenv func(string) string) (*Config, error) {
	return loadWith(path, getenv, LoadOptions{})
}

func loadWith(path string, getenv func(string) string, o LoadOptions) (*Config, error) {
	c := Defaults()
	if path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("policy config: %w; check the --config path", err)
		}
		c, err = parse(path, data)
		if err != nil {
			return nil, err
		}
	}
	if err := c.validate(getenv, o); err != nil {
		return nil, err
	}
	return c, nil
}

// parse decodes data strictly: any key the schema does not know is an error
// naming the key and its line, because a misspelt key ("alow") would
// otherwise silently widen the policy.
func parse(file string, data []byte) (*Config, error) {
	c := Defaults()
	c.Path = file
	md, err := toml.Decode(string(data), c)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s:%d: %s", file, pe.Position.Line, pe.Message)
		}
		return nil, fmt.Errorf("%s: %s; check the value's type: lists are written [\"a\", \"b\"], names are quoted strings",
			file, strings.TrimPrefix(err.Error(), "toml: "))
	}
	if undecoded := md.Undecoded(); len(undecoded) > 0 {
		lines := keyLines(data)
		reported := map[string]bool{}
		var errs []error
		for _, k := range undecoded {
			// Report the outermost unknown key only: an unknown table
			// makes every key inside it unknown too.
			if hasReportedPrefix(k, reported) {
				continue
			}
			ks := k.String()
			reported[ks] = true
			where := file
			if n, ok := lines[ks]; ok {
				where = fmt.Sprintf("%s:%d", file, n)
			}
			errs = append(errs, fmt.Errorf("%s: unknown key %q; %s", where, ks, keyHint(k)))
		}
		return nil, errors.Join(errs...)
	}
	// Keep "allow = []" distinct from an absent allow list: the decoder may
	// leave an empty array as nil, and nil means "no restriction".
	if md.IsDefined("operator", "allow") && c.Operator.Allow == nil {
		c.Operator.Allow = []string{}
	}
	for name, p := range c.Profiles {
		if md.IsDefined("profiles", name, "allow") && p.Allow == nil {
			p.Allow = []string{}
			c.Profiles[name] = p
		}
	}
	if md.IsDefined("default_toolsets") && c.DefaultToolsets == nil {
		c.DefaultToolsets = []string{}
	}
	return c, nil
}

func hasReportedPrefix(k toml.Key, reported map[string]bool) bool {
	for i := 1; i < len(k); i++ {
		if reported[k[:i].String()] {
			return true
		}
	}
	return false
}

// keyHint says what the valid keys are at the place of an unknown key.
func keyHint(k toml.Key) string {
	switch {
	case len(k) == 1:
		return "valid top-level keys are default_toolsets, [stdio], [operator], [profiles.NAME], [[tokens]], [transport.KEY]"
	case k[0] == "stdio":
		return "[stdio] takes only profile"
	case k[0] == "operator":
		return "[operator] takes only allow and deny"
	case k[0] == "profiles":
		return "a profile takes description, inherit, allow and deny"
	case k[0] == "tokens":
		return "a [[tokens]] entry takes name, token_env (or token) and profile"
	case k[0] == "transport":
		return "a [transport.KEY] table takes only ceiling"
	}
	return "remove it or check its spelling"
}

// keyLines maps dotted keys to the line defining them. The TOML decoder
// knows key positions but does not export them, so this light scan of
// table headers and "key =" lines recovers them for error messages; a key it
// cannot place is reported without a line.
func keyLines(data []byte) map[string]int {
	out := map[string]int{}
	var table toml.Key
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "["):
			h := strings.Trim(strings.SplitN(line, "#", 2)[0], " \t[]")
			table = splitKey(h)
			for i := 1; i <= len(table); i++ {
				if _, ok := out[table[:i].String()]; !ok {
					out[table[:i].String()] = n
				}
			}
		default:
			eq := strings.IndexByte(line, '=')
			if eq <= 0 {
				continue
			}
			full := append(slices.Clone(table), splitKey(line[:eq])...)
			if _, ok := out[full.String()]; !ok {
				out[full.String()] = n
			}
		}
	}
	return out
}

func splitKey(s string) toml.Key {
	var k toml.Key
	for _, p := range strings.Split(s, ".") {
		k = append(k, strings.Trim(strings.TrimSpace(p), `"'`))
	}
	return k
}

var profileNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)

// Validate checks c and resolves token secrets from the environment. Load
// calls it; call it yourself on a Config built in Go. It reports every
// problem at once, each naming the file, the key and the fix.
func (c *Config) Validate() error { return c.validate(os.Getenv, LoadOptions{}) }

func (c *Config) validate(getenv func(string) string, o LoadOptions) error {
	file := c.Path
	if file == "" {
		file = "policy config"
	}
	var errs []error
	add := func(key, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s: %s", file, key, fmt.Sprintf(format, args...)))
	}
	c.Warnings = nil
	warn := func(key, format string, args ...any) {
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: %s: %s", file, key, fmt.Sprintf(format, args...)))
	}

	if v := getenv(DefaultToolsetsEnv); v != "" {
		c.DefaultToolsets = SplitList(v)
	}
	for i, n := range c.DefaultToolsets {
		if strings.TrimSpace(n) == "" {
			add(fmt.Sprintf("default_toolsets[%d]", i), "empty toolset name; remove it")
		}
		if n == "all" && len(c.DefaultToolsets) > 1 {
			add("default_toolsets", `"all" already enables every toolset; use ["all"] alone or list names`)
			break
		}
	}

	profileKnown := func(key, name string) {
		if _, ok := c.Profiles[name]; !ok {
			add(key, "profile %q is not defined; define [profiles.%s] or use one of: %s", name, name, c.profileList())
		}
	}

	checkLists(c.Operator.Allow, c.Operator.Deny, "operator", add)
	if c.Operator.Allow != nil && len(c.Operator.Allow) == 0 {
		warn("operator.allow", "the list is empty, so every tool is withheld from every caller; remove the key to allow all tools not denied")
	}

	for _, name := range c.profileNames() {
		p := c.Profiles[name]
		key := "profiles." + name
		if !profileNameRE.MatchString(name) {
			add(key, "profile name %q is invalid: use up to 64 letters, digits, '_' or '-'", name)
		}
		checkLists(p.Allow, p.Deny, key, add)
		if p.Inherit != "" {
			profileKnown(key+".inherit", p.Inherit)
		}
	}
	if cycle := c.inheritCycle(); cycle != nil {
		add("profiles."+cycle[0]+".inherit", "inheritance cycle %s; a profile may only inherit a profile that does not inherit it back", strings.Join(cycle, " -> "))
	}

	if c.Stdio.Profile != "" {
		profileKnown("stdio.profile", c.Stdio.Profile)
	}

	for _, k := range sortedKeys(c.Transport) {
		key := "transport." + k
		if !slices.Contains(Transports, k) {
			add(key, "unknown transport %q; use one of %s", k, strings.Join(Transports, ", "))
			continue
		}
		if c.Transport[k].Profile == "" {
			add(key+".ceiling", "missing; name the profile that caps callers on %s, or remove the table", k)
			continue
		}
		profileKnown(key+".ceiling", c.Transport[k].Profile)
	}

	names := map[string]int{}
	for i := range c.Tokens {
		t := &c.Tokens[i]
		key := fmt.Sprintf("tokens[%d]", i)
		if t.Name != "" {
			key = fmt.Sprintf("tokens[%d] (%q)", i, t.Name)
		}
		t.secret = nil
		switch {
		case t.Name == "":
			add(key+".name", "missing; give every token a name, it identifies the principal in logs and events")
		case strings.EqualFold(t.Name, OperatorPrincipal):
			add(key+".name", "%q is reserved for the operator's token ($GODOT_MCP_AUTH_TOKEN); choose another name", OperatorPrincipal)
		case names[t.Name] > 0:
			add(key+".name", "also used by tokens[%d]; token names must be unique", names[t.Name]-1)
		default:
			names[t.Name] = i + 1
		}
		if t.Profile == "" {
			add(key+".profile", "missing; bind the token to a profile")
		} else {
			profileKnown(key+".profile", t.Profile)
		}
		switch {
		case t.Token != "" && t.TokenEnv != "":
			add(key, "sets both token and token_env; keep token_env and remove the inline token")
		case t.TokenEnv != "":
			v := getenv(t.TokenEnv)
			if v == "" && o.InspectOnly {
				warn(key+".token_env", "environment variable %s is unset; the token's secret was not checked", t.TokenEnv)
			} else if strings.TrimSpace(v) == "" {
				add(key+".token_env", "environment variable %s is unset or empty; export the token's secret in it", t.TokenEnv)
			} else {
				t.secret = []byte(v)
			}
		case t.Token != "":
			if strings.TrimSpace(t.Token) == "" {
				add(key+".token", "is blank; an empty token would let anyone in")
			} else {
				t.secret = []byte(t.Token)
				warn(key+".token", "inline secret in the policy file; move it to an environment variable and set token_env instead")
			}
		default:
			add(key, "has no secret; set token_env to the name of an environment variable holding it")
		}
	}
	for i := range c.Tokens {
		for j := i + 1; j < len(c.Tokens); j++ {
			a, b := c.Tokens[i].secret, c.Tokens[j].secret
			if a != nil && b != nil && subtle.ConstantTimeCompare(a, b) == 1 {
				add(fmt.Sprintf("tokens[%d]", j), "has the same secret as tokens[%d] (%q); every token needs its own secret so callers can be told apart", i, c.Tokens[i].Name)
			}
		}
	}
	c.validatePlugins(add)
	return errors.Join(errs...)
}

// validatePlugins checks the [plugins] table: variable names, no secret
// passed on, and limits that are not negative.
func (c *Config) validatePlugins(add func(key, format string, args ...any)) {
	secrets := c.SecretEnv()
	checkEnv := func(key string, names []string) {
		for i, n := range names {
			k := fmt.Sprintf("%s[%d]", key, i)
			switch {
			case !envNameRE.MatchString(n):
				add(k, "%q is not an environment variable name; use letters, digits and '_', not starting with a digit (no patterns)", n)
			case slices.Contains(secrets, n):
				add(k, "%s holds a secret of this host (its bearer token); a plugin must never get it, so remove it from pass_env", n)
			}
		}
	}
	nonNegative := func(key string, v int) {
		if v < 0 {
			add(key, "must not be negative; use 0 for the default")
		}
	}
	checkEnv("plugins.pass_env", c.Plugins.PassEnv)
	nonNegative("plugins.memory_limit_mb", c.Plugins.MemoryLimitMB)
	nonNegative("plugins.max_result_mb", c.Plugins.MaxResultMB)
	nonNegative("plugins.max_concurrent_calls", c.Plugins.MaxConcurrentCalls)
	for _, name := range sortedKeys(c.Plugins.Toolsets) {
		key := "plugins.toolsets." + name
		if err := manifest.CheckName(name); err != nil {
			add(key, "%v", err)
		}
		s := c.Plugins.Toolsets[name]
		checkEnv(key+".pass_env", s.PassEnv)
		nonNegative(key+".memory_limit_mb", s.MemoryLimitMB)
	}
}

// envNameRE is a portable environment variable name.
var envNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// checkLists validates the entries of one allow/deny pair for what can be
// checked without the catalog: emptiness, class names and pattern syntax.
func checkLists(allow, deny []string, key string, add func(key, format string, args ...any)) {
	for _, l := range []struct {
		name    string
		entries []string
	}{{"allow", allow}, {"deny", deny}} {
		for i, e := range l.entries {
			k := fmt.Sprintf("%s.%s[%d]", key, l.name, i)
			if err := CheckEntry(e); err != nil {
				add(k, "%v", err)
			}
		}
	}
}

// CheckEntry validates the syntax of one list entry. It does not check that
// a name refers to an installed toolset or tool.
func CheckEntry(e string) error {
	switch {
	case strings.TrimSpace(e) == "":
		return errors.New("empty entry; remove it")
	case e != strings.TrimSpace(e):
		return fmt.Errorf("entry %q has surrounding spaces; remove them", e)
	case strings.HasPrefix(e, ClassPrefix):
		c := manifest.SafetyClass(strings.TrimPrefix(e, ClassPrefix))
		if !c.Valid() {
			return fmt.Errorf("%q is not a safety class; use one of %s", e, classList())
		}
	case strings.Contains(e, "*"):
		if _, err := path.Match(e, ""); err != nil {
			return fmt.Errorf("pattern %q is malformed: %v; use '*' as a wildcard", e, err)
		}
	}
	return nil
}

func classList() string {
	var s []string
	for _, c := range manifest.Classes {
		s = append(s, ClassPrefix+string(c))
	}
	return strings.Join(s, ", ")
}

// inheritCycle returns a cycle in the inherit graph, starting and ending at
// the same profile, or nil.
func (c *Config) inheritCycle() []string {
	for _, start := range c.profileNames() {
		seen := map[string]int{}
		var walk []string
		for cur := start; cur != ""; cur = c.Profiles[cur].Inherit {
			if i, ok := seen[cur]; ok {
				return append(walk[i:], cur)
			}
			if _, ok := c.Profiles[cur]; !ok {
				break
			}
			seen[cur] = len(walk)
			walk = append(walk, cur)
		}
	}
	return nil
}

func (c *Config) profileNames() []string { return sortedKeys(c.Profiles) }

func (c *Config) profileList() string {
	if len(c.Profiles) == 0 {
		return "(none defined)"
	}
	return strings.Join(c.profileNames(), ", ")
}

// InheritChain returns profile followed by its ancestors, nearest first.
// It stops at an undefined name or a cycle, which Validate reports.
func (c *Config) InheritChain(profile string) []string {
	var out []string
	for cur := profile; cur != "" && !slices.Contains(out, cur); cur = c.Profiles[cur].Inherit {
		if _, ok := c.Profiles[cur]; !ok {
			break
		}
		out = append(out, cur)
	}
	return out
}

// Principal authenticates an HTTP bearer token. It returns the token's name
// (the principal) and the profile bound to it.
//
// Every configured token is compared, with no early exit, and the comparison
// runs over SHA-256 digests so that neither the position of a match nor the
// length of a secret shows in the timing.
func (c *Config) Principal(token string) (name, profile string, ok bool) {
	presented := sha256.Sum256([]byte(token))
	match := -1
	for i := range c.Tokens {
		secret := c.Tokens[i].secret
		want := sha256.Sum256(secret)
		eq := subtle.ConstantTimeCompare(presented[:], want[:])
		// A token without a resolved secret (Validate not run) never
		// matches, even the empty presented token.
		eq &= subtle.ConstantTimeLessOrEq(1, len(secret))
		match = subtle.ConstantTimeSelect(eq, i, match)
	}
	if match < 0 || token == "" {
		return "", "", false
	}
	return c.Tokens[match].Name, c.Tokens[match].Profile, true
}

// SplitList parses a comma-separated list, trimming spaces and dropping
// empty items.
func SplitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
