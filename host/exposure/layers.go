package exposure

import (
	"fmt"
	"path"
	"strings"

	"github.com/godot-mcp/godot-mcp/host/config"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// Layer is one step of the chain. Keep reports whether t stays visible to
// the caller described by ctx. A layer sees one tool at a time, so it can
// withhold tools but never introduce one. Keep must be deterministic and
// safe for concurrent use; a panic withholds the tool.
type Layer interface {
	Name() string
	Keep(ctx Caller, t Tool) bool
}

// Explainer is implemented by layers that can say why they withheld a tool,
// in words an operator can act on. Why is only called for tools Keep
// withheld.
type Explainer interface {
	Why(ctx Caller, t Tool) string
}

// The built-in layer names, in chain order. They appear as the "by" of
// ToolsFiltered events and as the layer of TOOL_NOT_EXPOSED errors.
const (
	LayerClassification = "classification"
	LayerOperator       = "operator"
	LayerProfile        = "profile"
	LayerTransport      = "transport"
	LayerScope          = "scope"
)

// subjecter names who withheld tools in event messages (`profile "ci"`).
type subjecter interface {
	subject(ctx Caller) string
}

// --- classification ---

type classificationLayer struct{}

func (classificationLayer) Name() string { return LayerClassification }

func (classificationLayer) Keep(_ Caller, t Tool) bool {
	return t.Class.Valid() && t.Toolset != "" && t.Name != ""
}

func (classificationLayer) Why(_ Caller, t Tool) string {
	switch {
	case !t.Class.Valid():
		return fmt.Sprintf("safety class %q is not one of read_only, mutating, destructive, runtime; unclassified tools are never exposed", t.Class)
	case t.Toolset == "":
		return "the tool belongs to no toolset; unattributed tools are never exposed"
	}
	return "the tool has no name"
}

func (classificationLayer) subject(Caller) string { return "classification" }

// --- lists ---

// matcher is one compiled allow or deny list.
type matcher struct {
	all      bool
	names    map[string]bool // exposed tool names and toolset names
	classes  uint8           // bit classBit(c) set for each listed class
	prefixes []string        // patterns of the form "prefix*"
	patterns []string        // other patterns, matched with path.Match
	entries  []string
}

// classBit maps a safety class to its bit in matcher.classes; 0 for an
// invalid class, which no list can name.
func classBit(c manifest.SafetyClass) uint8 {
	switch c {
	case manifest.ReadOnly:
		return 1
	case manifest.Mutating:
		return 2
	case manifest.Destructive:
		return 4
	case manifest.Runtime:
		return 8
	}
	return 0
}

func compileList(entries []string) (*matcher, error) {
	if entries == nil {
		return nil, nil
	}
	m := &matcher{names: map[string]bool{}, entries: entries}
	for _, e := range entries {
		if err := config.CheckEntry(e); err != nil {
			return nil, err
		}
		switch {
		case e == "*":
			m.all = true
		case strings.HasPrefix(e, config.ClassPrefix):
			m.classes |= classBit(manifest.SafetyClass(strings.TrimPrefix(e, config.ClassPrefix)))
		case strings.IndexAny(e, `*?[\`) == len(e)-1 && e[len(e)-1] == '*':
			// The common "godot_scene_edit_*" form: a prefix test is
			// what path.Match would do, without its cost per tool.
			m.prefixes = append(m.prefixes, e[:len(e)-1])
		case strings.Contains(e, "*"):
			m.patterns = append(m.patterns, e)
		default:
			m.names[e] = true
		}
	}
	return m, nil
}

// matches reports whether any entry matches t. It is the hot path of every
// decision and builds no strings.
func (m *matcher) matches(t Tool) bool {
	if m.all || m.classes&classBit(t.Class) != 0 || m.names[t.Name] || (t.Toolset != "" && m.names[t.Toolset]) {
		return true
	}
	for _, p := range m.prefixes {
		if strings.HasPrefix(t.Name, p) || (t.Toolset != "" && strings.HasPrefix(t.Toolset, p)) {
			return true
		}
	}
	for _, p := range m.patterns {
		if ok, _ := path.Match(p, t.Name); ok {
			return true
		}
		if ok, _ := path.Match(p, t.Toolset); ok && t.Toolset != "" {
			return true
		}
	}
	return false
}

// match returns the first entry, in list order, that matches t, or "". It
// explains a decision; matches makes it.
func (m *matcher) match(t Tool) string {
	for _, e := range m.entries {
		if one, err := compileList([]string{e}); err == nil && one.matches(t) {
			return e
		}
	}
	return ""
}

// lists is one allow/deny pair with the name it is reported under.
type lists struct {
	owner string // `operator policy`, `profile "ci"`
	allow *matcher
	deny  *matcher
}

func compileLists(owner string, allow, deny []string) (lists, error) {
	a, err := compileList(allow)
	if err != nil {
		return lists{}, fmt.Errorf("%s allow: %w", owner, err)
	}
	d, err := compileList(deny)
	if err != nil {
		return lists{}, fmt.Errorf("%s deny: %w", owner, err)
	}
	if d == nil {
		d = &matcher{}
	}
	return lists{owner: owner, allow: a, deny: d}, nil
}

// judge returns "" when l keeps t, else the reason it does not.
func (l lists) judge(t Tool) string {
	if e := l.deny.match(t); e != "" {
		return fmt.Sprintf("%s denies %q", l.owner, e)
	}
	if l.allow != nil && !l.allow.matches(t) {
		if len(l.allow.entries) == 0 {
			return fmt.Sprintf("%s has an empty allow list, which allows nothing", l.owner)
		}
		return fmt.Sprintf("%s allows only %s", l.owner, quoteList(l.allow.entries))
	}
	return ""
}

// keeps is judge without building a reason, for the hot path.
func (l lists) keeps(t Tool) bool {
	if l.deny.matches(t) {
		return false
	}
	return l.allow == nil || l.allow.matches(t)
}

func quoteList(s []string) string {
	q := make([]string, len(s))
	for i, e := range s {
		q[i] = fmt.Sprintf("%q", e)
	}
	return strings.Join(q, ", ")
}

// profile is a compiled profile: its own lists followed by its ancestors'.
// A tool passes only if every level keeps it.
type profile struct {
	name   string
	levels []lists
}

func (p *profile) keeps(t Tool) bool {
	for _, l := range p.levels {
		if !l.keeps(t) {
			return false
		}
	}
	return true
}

func (p *profile) judge(t Tool) string {
	for _, l := range p.levels {
		if r := l.judge(t); r != "" {
			if l.owner != p.levels[0].owner {
				r += fmt.Sprintf(" (inherited by profile %q)", p.name)
			}
			return r
		}
	}
	return ""
}

// compileProfiles resolves every profile's inherit chain once, so a
// decision never walks config.
func compileProfiles(cfg *config.Config) (map[string]*profile, error) {
	out := map[string]*profile{}
	for name := range cfg.Profiles {
		p := &profile{name: name}
		seen := map[string]bool{}
		for cur := name; cur != ""; cur = cfg.Profiles[cur].Inherit {
			if seen[cur] {
				return nil, fmt.Errorf("profile %q: inheritance cycle through %q; break the cycle in the policy config", name, cur)
			}
			seen[cur] = true
			pc, ok := cfg.Profiles[cur]
			if !ok {
				return nil, fmt.Errorf("profile %q inherits %q, which is not defined; define [profiles.%s]", name, cur, cur)
			}
			l, err := compileLists(fmt.Sprintf("profile %q", cur), pc.Allow, pc.Deny)
			if err != nil {
				return nil, err
			}
			p.levels = append(p.levels, l)
		}
		out[name] = p
	}
	return out, nil
}

// --- operator ---

type operatorLayer struct{ lists lists }

func (l operatorLayer) Name() string                { return LayerOperator }
func (l operatorLayer) Keep(_ Caller, t Tool) bool  { return l.lists.keeps(t) }
func (l operatorLayer) Why(_ Caller, t Tool) string { return l.lists.judge(t) }
func (operatorLayer) subject(Caller) string         { return "operator policy" }

// --- profile ---

type profileLayer struct{ profiles map[string]*profile }

func (l profileLayer) Name() string { return LayerProfile }

func (l profileLayer) Keep(ctx Caller, t Tool) bool {
	if ctx.Profile == "" {
		return true
	}
	p, ok := l.profiles[ctx.Profile]
	return ok && p.keeps(t)
}

func (l profileLayer) Why(ctx Caller, t Tool) string {
	p, ok := l.profiles[ctx.Profile]
	if !ok {
		return fmt.Sprintf("profile %q is not defined in the policy config, so it withholds everything; define [profiles.%s] or bind the caller to another profile", ctx.Profile, ctx.Profile)
	}
	return p.judge(t)
}

func (profileLayer) subject(ctx Caller) string { return fmt.Sprintf("profile %q", ctx.Profile) }

// --- transport ceiling ---

type transportLayer struct {
	ceilings map[string]*profile // transport key → ceiling profile
}

func (l transportLayer) Name() string { return LayerTransport }

func (l transportLayer) Keep(ctx Caller, t Tool) bool {
	p, capped := l.ceilings[ctx.TransportKey()]
	return !capped || p.keeps(t)
}

func (l transportLayer) Why(ctx Caller, t Tool) string {
	key := ctx.TransportKey()
	p := l.ceilings[key]
	if p == nil {
		return ""
	}
	return fmt.Sprintf("%s is capped to profile %q: %s", key, p.name, p.judge(t))
}

func (l transportLayer) subject(ctx Caller) string {
	key := ctx.TransportKey()
	if p := l.ceilings[key]; p != nil {
		return fmt.Sprintf("%s ceiling %q", key, p.name)
	}
	return key + " ceiling"
}

// --- scope ---

type scopeLayer struct{}

func (scopeLayer) Name() string { return LayerScope }

func (scopeLayer) Keep(ctx Caller, t Tool) bool {
	switch t.Scope {
	case "", manifest.AgentScope:
		return true
	case manifest.CLIScope:
		return ctx.Transport == TransportCLI
	}
	return false // an unknown scope fails closed
}

func (scopeLayer) Why(_ Caller, t Tool) string {
	if t.Scope == manifest.CLIScope {
		return "the tool is cli-scoped: it runs only through `godot-mcp call`"
	}
	return fmt.Sprintf("scope %q is not one of agent, cli", t.Scope)
}

func (scopeLayer) subject(Caller) string { return "scope (cli-only tools)" }

// Interface guards.
var (
	_ Explainer = classificationLayer{}
	_ Explainer = operatorLayer{}
	_ Explainer = profileLayer{}
	_ Explainer = transportLayer{}
	_ Explainer = scopeLayer{}
)
