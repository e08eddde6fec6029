package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/godot-mcp/godot-mcp/host"
	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/host/catalog"
	"github.com/godot-mcp/godot-mcp/host/exposure"
	"github.com/godot-mcp/godot-mcp/host/server"
)

const serveUsage = `Usage: godot-mcp serve [flags]

Runs the MCP server. By default it speaks MCP over stdin/stdout, which is
how local clients (Claude Code, Cursor, VS Code) start it; logs go to
stderr. With --http ADDR it serves streamable HTTP at http://ADDR/mcp
instead.

HTTP listens on loopback unless told otherwise. A non-loopback address
refuses to start without a bearer token: set ` + server.AuthTokenEnv + ` (and
send "Authorization: Bearer <token>"), or configure [[tokens]] in --config.

Godot editor: serve listens for the godot-mcp editor addon at
` + bridge.DefaultURL + ` (set ` + bridge.URLEnv + ` or --bridge URL, the same in the
editor's environment; --bridge off disables it). The addon connects by
itself, so the host and the editor start in any order. A non-loopback
bridge address refuses to start without ` + bridge.TokenEnv + `, which the
editor must send too. After ` + "`godot-mcp bridge-token`" + ` has created this
user's token file, serve requires that token from the editor unless
` + bridge.TokenEnv + ` is set; start the editor with
` + bridge.TokenEnv + `="$(godot-mcp bridge-token)".

Toolsets: core and inspection are enabled at start; others are enabled by
the agent (godot_enable_toolset) or by GODOT_MCP_DEFAULT_TOOLSETS ("all" or
a comma list) or default_toolsets in --config.

Flags:
`

// hostFlags are the flags serve and call share.
type hostFlags struct {
	project, pluginsDir, godotVersion, config, logLevel string
}

func (h *hostFlags) register(fs *flag.FlagSet, defaultLevel string) {
	fs.StringVar(&h.project, "project", "", "Godot project `directory` (holding project.godot); default: the current directory if it holds one")
	fs.StringVar(&h.pluginsDir, "plugins-dir", "", "toolset plugins `directory`; default $"+catalog.PluginsDirEnv+" or beside the godot-mcp binary")
	fs.StringVar(&h.godotVersion, "godot-version", "", "Godot `version` to check toolsets against (e.g. 4.4); default: read from the project's config/features")
	fs.StringVar(&h.config, "config", "", "policy config `file` (TOML); default: built-in policy")
	fs.StringVar(&h.logLevel, "log-level", defaultLevel, "log `level` on stderr: trace, debug, info, warn, error")
}

// options resolves the flags into host options, with a logger on stderr.
func (h *hostFlags) options(stderr io.Writer, transport string) (host.Options, error) {
	level := hclog.LevelFromString(h.logLevel)
	if level == hclog.NoLevel {
		return host.Options{}, fmt.Errorf("--log-level %q: use trace, debug, info, warn or error", h.logLevel)
	}
	log := hclog.New(&hclog.LoggerOptions{Name: "godot-mcp", Level: level, Output: stderr})
	project := h.project
	if project != "" {
		abs, err := host.FindProject(project)
		if err != nil {
			return host.Options{}, fmt.Errorf("--project: %w; point it at the directory that holds project.godot", err)
		}
		project = abs
	} else if abs, err := host.FindProject("."); err == nil {
		project = abs
	}
	if project == "" {
		log.Info("no Godot project: pass --project DIR, or start godot-mcp in the project directory")
	}
	return host.Options{
		Version:      Version,
		ProjectDir:   project,
		PluginsDir:   h.pluginsDir,
		ConfigPath:   h.config,
		GodotVersion: strings.TrimSpace(h.godotVersion),
		Logger:       log,
		Transport:    transport,
	}, nil
}

// zeroMeansNever maps a flag's 0 ("never", "no cap") to HTTPOptions'
// negative value (0 there means "the default").
func zeroMeansNever[T int | time.Duration](v T) T {
	if v == 0 {
		return -1
	}
	return v
}

// runServe implements `godot-mcp serve`.
func runServe(args []string, _, stderr io.Writer) int {
	fs := flag.NewFlagSet("godot-mcp serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var hf hostFlags
	hf.register(fs, "info")
	addr := fs.String("http", "", "serve streamable HTTP on `addr` (e.g. 127.0.0.1:8765) instead of stdio")
	sessionTimeout := fs.Duration("session-timeout", server.DefaultSessionTimeout, "HTTP: end a 2025-11-25 session after this `duration` without a request (0: never)")
	maxSessions := fs.Int("max-sessions", server.DefaultMaxSessions, "HTTP: at most this `number` of 2025-11-25 sessions; past it a new one evicts the least recently used idle session, or is refused when none is idle (0: no cap)")
	maxPerPrincipal := fs.Int("max-sessions-per-principal", server.DefaultMaxSessionsPerPrincipal, "HTTP: at most this `number` of 2025-11-25 sessions per token (or for all unauthenticated local callers); past it a new one evicts that principal's least recently used idle session (0: no cap)")
	var devPlugins stringList
	fs.Var(&devPlugins, "dev-plugin", "run a toolset under development from `PATH`: its binary, or its Go package directory (rebuilt when a source changes); repeatable. Swapped in between calls when it changes; the lock file does not apply to it")
	bridgeURL := fs.String("bridge", "", "listen for the Godot editor addon at `URL` (ws://HOST:PORT), or \"off\"; default $"+bridge.URLEnv+" or "+bridge.DefaultURL)
	fs.Usage = func() {
		fmt.Fprint(stderr, serveUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "godot-mcp serve: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	transport := exposure.TransportStdio
	if *addr != "" {
		transport = exposure.TransportHTTP
	}
	opts, err := hf.options(stderr, transport)
	if err != nil {
		fmt.Fprintf(stderr, "godot-mcp serve: %v\n", err)
		return 2
	}
	bc, err := bridgeSettings(*bridgeURL, os.LookupEnv, bridge.DefaultTokenFile)
	if err != nil {
		fmt.Fprintf(stderr, "godot-mcp serve: %v\n", err)
		return 2
	}
	opts.BridgeURL, opts.BridgeToken, opts.BridgeTokenFile = bc.url, bc.token, bc.tokenFile
	opts.DevPlugins = devPlugins
	tuneGC(os.Getenv)
	ctx, stop := signalContext()
	defer stop()
	h, err := host.New(ctx, opts)
	if err != nil {
		fmt.Fprintf(stderr, "godot-mcp serve: %v\n", err)
		return 1
	}
	defer closeHost(ctx, h, stderr, "godot-mcp serve")
	if *addr != "" {
		err = h.ListenAndServe(ctx, *addr, &server.HTTPOptions{
			SessionTimeout: zeroMeansNever(*sessionTimeout),
			MaxSessions:    zeroMeansNever(*maxSessions),

			MaxSessionsPerPrincipal: zeroMeansNever(*maxPerPrincipal),
		})
	} else {
		err = h.Server.RunStdio(ctx)
	}
	if err != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "godot-mcp serve: %v\n", err)
		return 1
	}
	return 0
}

// bridgeConfig is the editor bridge's URL ("" when off), its token, and
// the per-install token file the token came from, if it did.
type bridgeConfig struct {
	url, token, tokenFile string
}

// bridgeSettings resolves the editor bridge's URL (flag, then
// $GODOT_MCP_BRIDGE_URL, then the default; "off" disables it) and token:
// $GODOT_MCP_BRIDGE_TOKEN when it is set at all (empty: none), else the
// per-install token file when `godot-mcp bridge-token` created one.
func bridgeSettings(flagURL string, lookup func(string) (string, bool), tokenFile func() (string, error)) (bridgeConfig, error) {
	var c bridgeConfig
	c.url = strings.TrimSpace(flagURL)
	if c.url == "" {
		c.url, _ = lookup(bridge.URLEnv)
		c.url = strings.TrimSpace(c.url)
	}
	if c.url == "" {
		c.url = bridge.DefaultURL
	}
	if strings.EqualFold(c.url, "off") {
		return bridgeConfig{}, nil
	}
	if tok, ok := lookup(bridge.TokenEnv); ok {
		c.token = tok
		return c, nil
	}
	file, err := tokenFile()
	if err != nil {
		return c, nil // no configuration directory, so no token file either
	}
	tok, ok, err := bridge.ReadTokenFile(file)
	if err != nil {
		return bridgeConfig{}, err
	}
	if ok {
		c.token, c.tokenFile = tok, file
	}
	return c, nil
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }

func (l *stringList) Set(v string) error {
	*l = append(*l, v)
	return nil
}
