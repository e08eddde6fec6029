package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/godot-mcp/godot-mcp/host/catalog"
	"github.com/godot-mcp/godot-mcp/host/config"
	"github.com/godot-mcp/godot-mcp/host/exposure"
	"github.com/godot-mcp/godot-mcp/host/server"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

const policyUsage = `Usage: godot-mcp policy explain [flags]

Prints the tools a caller would see under the policy config and, for every
withheld tool, the layer that removed it and why. It runs the same exposure
chain as the server, over the core tools and the toolsets in the plugins
directory.

The caller is described by --profile, or by --principal (a token name from
the config, which brings its profile and defaults --transport to
http_loopback), and --transport. A stdio or cli caller without either runs
as the [stdio] profile.

Exit status: 0 when the policy is valid, 1 when the server would refuse to
start with it (the errors are printed first), 2 on bad flags or config.

Flags:
`

// runPolicy implements `godot-mcp policy explain`.
func runPolicy(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "explain" {
		if len(args) > 0 && args[0] != "-h" && args[0] != "--help" && args[0] != "help" {
			fmt.Fprintf(stderr, "godot-mcp policy: unknown subcommand %q; the only one is explain\n\n", args[0])
		}
		fs, _ := explainFlags(stderr)
		fs.Usage()
		if len(args) == 0 || !slices.Contains([]string{"-h", "--help", "help"}, args[0]) {
			return 2
		}
		return 0
	}
	return runPolicyExplain(args[1:], stdout, stderr)
}

type explainOptions struct {
	config, profile, principal, transport, pluginsDir string
	json                                              bool
}

func explainFlags(stderr io.Writer) (*flag.FlagSet, *explainOptions) {
	o := &explainOptions{}
	fs := flag.NewFlagSet("godot-mcp policy explain", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.config, "config", "", "policy config `file` (TOML); empty: built-in defaults")
	fs.StringVar(&o.profile, "profile", "", "explain for this `profile`")
	fs.StringVar(&o.principal, "principal", "", "explain for the token with this `name` (and its profile)")
	fs.StringVar(&o.transport, "transport", config.TransportStdio, "caller `transport`: stdio, http_loopback, http_remote or cli")
	fs.StringVar(&o.pluginsDir, "plugins-dir", "", "plugins `directory`; default $"+catalog.PluginsDirEnv+" or beside the binary")
	fs.BoolVar(&o.json, "json", false, "print JSON instead of text")
	fs.Usage = func() {
		fmt.Fprint(stderr, policyUsage)
		fs.PrintDefaults()
	}
	return fs, o
}

// explanation is what explain prints; its JSON form is --json.
type explanation struct {
	Config     string          `json:"config"`
	Principal  string          `json:"principal,omitempty"`
	Profile    string          `json:"profile"`
	Inherits   []string        `json:"inherits,omitempty"`
	Transport  string          `json:"transport"`
	Ceiling    string          `json:"ceiling,omitempty"`
	PluginsDir string          `json:"plugins_dir,omitempty"`
	Candidates int             `json:"candidates"`
	Visible    []explainedTool `json:"visible"`
	Withheld   []explainedTool `json:"withheld"`
	Filtered   []filteredJSON  `json:"filtered"`
	Warnings   []string        `json:"warnings,omitempty"`
	Errors     []string        `json:"errors,omitempty"`
}

type explainedTool struct {
	Name    string `json:"name"`
	Toolset string `json:"toolset"`
	Class   string `json:"class"`
	Scope   string `json:"scope"`
	Layer   string `json:"layer,omitempty"`
	Reason  string `json:"reason,omitempty"`
	// Note says, for a visible tool, that its calls are held to other
	// tools' rules: every listed command (dispatch), or a tool whose work
	// it does (performs) that this caller is denied, so every call of it
	// is refused although it is listed.
	Note string `json:"note,omitempty"`
}

type filteredJSON struct {
	exposure.Filtered
	Message string `json:"message"`
}

func runPolicyExplain(args []string, stdout, stderr io.Writer) int {
	fs, o := explainFlags(stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if o.principal != "" {
		// A token is an HTTP credential: unless told otherwise, explain the
		// token as a local HTTP caller would be served.
		set := false
		fs.Visit(func(f *flag.Flag) { set = set || f.Name == "transport" })
		if !set {
			o.transport = config.TransportHTTPLoopback
		}
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "godot-mcp policy explain: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "godot-mcp policy explain: "+format+"\n", a...)
		return 2
	}

	// Explain never authenticates anyone, so it does not need the tokens'
	// secrets: an operator can inspect a policy on a machine without them.
	cfg, err := config.LoadWith(o.config, config.LoadOptions{InspectOnly: true})
	if err != nil {
		return fail("%v", err)
	}
	chain, err := exposure.NewChain(cfg)
	if err != nil {
		return fail("%v", err)
	}

	ctx, err := explainContext(cfg, o)
	if err != nil {
		return fail("%v", err)
	}

	ex := explanation{Config: o.config, Principal: ctx.Principal, Profile: ctx.Profile,
		Transport: ctx.TransportKey(), Warnings: cfg.Warnings}
	if ex.Config == "" {
		ex.Config = "(built-in defaults)"
	}
	if chainNames := cfg.InheritChain(ctx.Profile); len(chainNames) > 1 {
		ex.Inherits = chainNames[1:]
	}
	if c, ok := cfg.Transport[ex.Transport]; ok {
		ex.Ceiling = c.Profile
	}

	// Candidates: the core tools, then every cataloged toolset's tools.
	// Without --plugins-dir a missing default directory is not an error:
	// the core tools alone still show what the policy does.
	cands := server.CoreTools()
	specs := map[string]manifest.Tool{} // exposed name -> what its manifest declares
	dir := o.pluginsDir
	if dir == "" {
		dir = catalog.DefaultDir()
	}
	cat, err := catalog.Open(catalog.Options{Dir: dir, Reserved: server.CoreToolNames()})
	switch {
	case err != nil && o.pluginsDir != "":
		return fail("%v", err)
	case err != nil:
		ex.Warnings = append(ex.Warnings, fmt.Sprintf("no plugins catalog (%v); showing the core tools only, and toolset and tool names in the config are not checked", err))
	default:
		ex.PluginsDir = cat.Dir()
		for _, p := range cat.Problems() {
			ex.Warnings = append(ex.Warnings, "refused toolset binary: "+p.Error())
		}
		for _, e := range cat.Entries() {
			cands = append(cands, exposure.FromManifest(e.Manifest)...)
			for _, t := range e.Manifest.Tools {
				specs[exposure.ExposedName(e.Manifest.Name, t.Name)] = t
			}
		}
		if err := chain.ValidateNames(exposure.KnownTools(cands)); err != nil {
			ex.Errors = append(ex.Errors, strings.Split(err.Error(), "\n")...)
		}
	}
	ex.Candidates = len(cands)

	d := chain.Evaluate(ctx, cands)
	for _, t := range d.Visible {
		et := explained(t)
		et.Note = heldTo(specs[t.Name], d)
		ex.Visible = append(ex.Visible, et)
	}
	for _, t := range cands {
		if _, withheld := d.Withheld[t.Name]; !withheld {
			continue
		}
		et := explained(t)
		et.Layer, et.Reason = chain.Why(ctx, t)
		ex.Withheld = append(ex.Withheld, et)
	}
	order := chain.Layers()
	slices.SortStableFunc(ex.Withheld, func(a, b explainedTool) int {
		return slices.Index(order, a.Layer) - slices.Index(order, b.Layer)
	})
	events := exposure.FilteredEvents(d)
	for i, f := range d.Filtered {
		ex.Filtered = append(ex.Filtered, filteredJSON{Filtered: f, Message: events[i].Message})
	}

	if o.json {
		if ex.Visible == nil {
			ex.Visible = []explainedTool{}
		}
		if ex.Withheld == nil {
			ex.Withheld = []explainedTool{}
		}
		if ex.Filtered == nil {
			ex.Filtered = []filteredJSON{}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(ex); err != nil {
			return fail("%v", err)
		}
	} else {
		printExplanation(stdout, stderr, ex)
	}
	if len(ex.Errors) > 0 {
		return 1
	}
	return 0
}

// explainContext describes the caller from the flags, the way the server
// would for a real connection.
func explainContext(cfg *config.Config, o *explainOptions) (exposure.Caller, error) {
	var ctx exposure.Caller
	switch o.transport {
	case config.TransportStdio:
		ctx.Transport = exposure.TransportStdio
	case config.TransportHTTPLoopback:
		ctx.Transport, ctx.Loopback = exposure.TransportHTTP, true
	case config.TransportHTTPRemote:
		ctx.Transport = exposure.TransportHTTP
	case exposure.TransportCLI:
		ctx.Transport = exposure.TransportCLI
	default:
		return ctx, fmt.Errorf("--transport %q: use stdio, http_loopback, http_remote or cli", o.transport)
	}
	if o.principal != "" {
		i := slices.IndexFunc(cfg.Tokens, func(t config.Token) bool { return t.Name == o.principal })
		if i < 0 {
			var names []string
			for _, t := range cfg.Tokens {
				names = append(names, t.Name)
			}
			return ctx, fmt.Errorf("--principal %q: no token of that name in the config (tokens: %s)", o.principal, strings.Join(names, ", "))
		}
		ctx.Principal, ctx.Profile = o.principal, cfg.Tokens[i].Profile
	}
	if o.profile != "" {
		if _, ok := cfg.Profiles[o.profile]; !ok {
			var names []string
			for n := range cfg.Profiles {
				names = append(names, n)
			}
			slices.Sort(names)
			return ctx, fmt.Errorf("--profile %q is not defined in the config (profiles: %s)", o.profile, strings.Join(names, ", "))
		}
		ctx.Profile = o.profile
	}
	if ctx.Profile == "" && (ctx.Transport == exposure.TransportStdio || ctx.Transport == exposure.TransportCLI) {
		ctx.Profile = cfg.Stdio.Profile
	}
	return ctx, nil
}

// heldTo words the rules of other tools a visible tool's calls are held
// to (docs/policy.md, "Tools that run other tools' operations").
func heldTo(spec manifest.Tool, d exposure.Decision) string {
	for _, p := range spec.Performs {
		if layer, withheld := d.Withheld[p]; withheld {
			return fmt.Sprintf("every call refused: it does the work of %s, withheld by %s", p, layer)
		}
	}
	if spec.Dispatch != "" {
		return "each listed command is checked as a call of its own tool"
	}
	return ""
}

func explained(t exposure.Tool) explainedTool {
	scope := string(t.Scope)
	if scope == "" {
		scope = "agent"
	}
	return explainedTool{Name: t.Name, Toolset: t.Toolset, Class: string(t.Class), Scope: scope}
}

func printExplanation(stdout, stderr io.Writer, ex explanation) {
	for _, e := range ex.Errors {
		fmt.Fprintln(stderr, "error:", e)
	}
	if len(ex.Errors) > 0 {
		fmt.Fprintln(stderr, "godot-mcp serve would refuse to start with this policy; the surface below is what it would show once the names are fixed.")
	}
	for _, w := range ex.Warnings {
		fmt.Fprintln(stderr, "warning:", w)
	}

	profile := "(none)"
	if ex.Profile != "" {
		profile = fmt.Sprintf("%q", ex.Profile)
		if len(ex.Inherits) > 0 {
			profile += " inheriting " + strings.Join(ex.Inherits, " -> ")
		}
	}
	transport := ex.Transport
	if transport == "" {
		transport = "cli"
	}
	if ex.Ceiling != "" {
		transport += fmt.Sprintf(" (capped to profile %q)", ex.Ceiling)
	}
	fmt.Fprintf(stdout, "policy:     %s\n", ex.Config)
	if ex.Principal != "" {
		fmt.Fprintf(stdout, "principal:  %s\n", ex.Principal)
	}
	fmt.Fprintf(stdout, "profile:    %s\n", profile)
	fmt.Fprintf(stdout, "transport:  %s\n", transport)
	plugins := "none (core tools only)"
	if ex.PluginsDir != "" {
		plugins = ex.PluginsDir
	}
	fmt.Fprintf(stdout, "plugins:    %s\n", plugins)
	fmt.Fprintf(stdout, "candidates: %d tools\n", ex.Candidates)

	fmt.Fprintf(stdout, "\nvisible (%d):\n", len(ex.Visible))
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	for _, t := range ex.Visible {
		note := ""
		if t.Note != "" {
			note = "\t(" + t.Note + ")"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s%s\n", t.Name, t.Toolset, t.Class, note)
	}
	tw.Flush()

	fmt.Fprintf(stdout, "\nwithheld (%d):\n", len(ex.Withheld))
	tw = tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	for _, t := range ex.Withheld {
		class := t.Class
		if class == "" {
			class = "(none)"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\tby %s:\t%s\n", t.Name, t.Toolset, class, t.Layer, t.Reason)
	}
	tw.Flush()

	if len(ex.Filtered) > 0 {
		fmt.Fprintln(stdout, "\nlayers:")
		for _, f := range ex.Filtered {
			fmt.Fprintf(stdout, "  %s\n", f.Message)
		}
	}
}
