// Package host wires godot-mcp together, in one place: the catalog of
// installed toolsets, the supervisor that runs their plugins, the event bus,
// the exposure policy, the gate that owns the enabled set, and the MCP
// server in front of them.
//
//	h, err := host.New(ctx, host.Options{Version: "1.0.0", ProjectDir: dir, ConfigPath: "policy.toml"})
//	if err != nil { … }            // bad config, unreadable plugins dir, policy naming unknown tools
//	defer h.Close(context.Background())
//	err = h.Server.RunStdio(ctx)   // or h.ListenAndServe(ctx, "127.0.0.1:8765", nil)
//
// New does everything that can fail before a client connects, so a host
// that starts is a host that serves: it loads and checks the policy, scans
// the plugins, derives the Godot version, and seeds the enabled set
// (starting the default toolsets' plugins). Refused plugin binaries and
// refused default toolsets are logged and reported by godot_health_check;
// they do not stop the host.
package host

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/host/catalog"
	"github.com/godot-mcp/godot-mcp/host/config"
	"github.com/godot-mcp/godot-mcp/host/events"
	"github.com/godot-mcp/godot-mcp/host/exposure"
	"github.com/godot-mcp/godot-mcp/host/gate"
	"github.com/godot-mcp/godot-mcp/host/metrics"
	"github.com/godot-mcp/godot-mcp/host/pluginenv"
	"github.com/godot-mcp/godot-mcp/host/server"
	"github.com/godot-mcp/godot-mcp/host/supervisor"
	"github.com/godot-mcp/godot-mcp/host/workspace"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// Where the Godot version came from, as godot_get_server_info reports it.
const (
	VersionFromFlag    = "flag"
	VersionFromProject = "project.godot"
	VersionFromEditor  = "editor"
)

// Options configure a Host.
type Options struct {
	// Version is the host version.
	Version string
	// ProjectDir is the Godot project (holding project.godot); "" for none.
	ProjectDir string
	// PluginsDir is where toolset binaries live; "" means
	// $GODOT_MCP_PLUGINS_DIR or beside the host binary.
	PluginsDir string
	// ConfigPath is the policy config (TOML); "" means built-in defaults.
	ConfigPath string
	// GodotVersion overrides the version read from the project.
	GodotVersion string
	// Logger receives all logs (nil: discard). Serve passes a stderr logger:
	// stdout is the MCP stream.
	Logger hclog.Logger
	// Transport is how agents reach this host: exposure.TransportStdio
	// (default), exposure.TransportHTTP, or exposure.TransportCLI for
	// `godot-mcp call`.
	Transport string
	// NoSeed leaves the enabled set at core only instead of seeding the
	// default toolsets; `godot-mcp call` enables just what it needs.
	NoSeed bool
	// CatalogCacheDir overrides where the catalog caches manifests.
	CatalogCacheDir string
	// BridgeURL is where the editor bridge listens for the godot-mcp addon
	// (bridge.DefaultURL is ws://127.0.0.1:9080); "" leaves it off, as
	// `godot-mcp call` and most tests do. BridgeToken is the shared
	// GODOT_MCP_BRIDGE_TOKEN, required for a non-loopback URL;
	// BridgeTokenFile is the per-install token file it was read from, if
	// it was (bridge.DefaultTokenFile), so refusals can say how to pass it.
	BridgeURL       string
	BridgeToken     string
	BridgeTokenFile string
	// WatchInterval is how often the host looks for replaced plugin
	// binaries to swap in (hot upgrade, see upgrade.go); 0 means
	// DefaultWatchInterval, negative turns the watcher off.
	WatchInterval time.Duration
	// DevPlugins are toolsets under development outside the plugins
	// directory (serve --dev-plugin): a binary, or a Go package directory
	// the host builds and rebuilds when its sources change. See dev.go.
	DevPlugins []string
}

// Host is a running godot-mcp. Its parts are exported for the commands and
// for tests; they are wired to each other and must not be replaced.
type Host struct {
	Config     *config.Config
	Catalog    *catalog.Catalog
	Supervisor *supervisor.Supervisor
	Bus        *events.Bus
	Ring       *events.Ring
	Policy     *exposure.Chain
	Gate       *gate.Gate
	Server     *server.Server
	Workspace  *workspace.Host
	// Bridge is the link to a Godot editor; nil when Options.BridgeURL is "".
	Bridge *bridge.Bridge
	// Metrics counts tool calls and plugin lifecycles (host/metrics).
	Metrics *metrics.Registry

	log      hclog.Logger
	upgrader *upgrader
	stop     context.CancelFunc // ends the watcher and the dev builders
	bg       sync.WaitGroup
}

// ringSize is how many recent events godot_get_server_info can show.
const ringSize = 500

// New builds and wires a host; see the package doc.
func New(ctx context.Context, opts Options) (*Host, error) {
	log := opts.Logger
	if log == nil {
		log = hclog.NewNullLogger()
	}
	if opts.Transport == "" {
		opts.Transport = exposure.TransportStdio
	}
	cfg, err := config.Load(opts.ConfigPath)
	if err != nil {
		return nil, err
	}
	for _, w := range cfg.Warnings {
		log.Warn("policy config", "warning", w)
	}
	// Plugins get the allow-listed environment plus what the operator
	// names (plugins.pass_env, $GODOT_MCP_PLUGIN_PASS_ENV), never a secret.
	passEnv := func(toolset string) []string {
		return append(cfg.PluginPassEnv(toolset), pluginenv.FromEnv(os.Getenv)...)
	}
	dev, err := newDevPlugins(ctx, opts.DevPlugins, log.Named("dev"))
	if err != nil {
		return nil, err
	}
	built := false // the dev builds' directory goes unless the host is built
	defer func() {
		if !built {
			dev.close()
		}
	}()
	cat, err := catalog.Open(catalog.Options{Dir: opts.PluginsDir, Logger: log.Named("catalog"), CacheDir: opts.CatalogCacheDir,
		PassEnv: passEnv, SecretEnv: cfg.SecretEnv(), RefuseUnsafe: cfg.Plugins.RefuseUnsafePermissions,
		Reserved: server.CoreToolNames(), Dev: dev.binaries()})
	if err != nil {
		return nil, err
	}
	for _, p := range cat.Problems() {
		log.Warn("plugin refused", "problem", p)
	}
	for _, w := range cat.Warnings() {
		log.Warn("plugin permissions", "warning", w)
	}
	entries := cat.Entries() // name clashes are already resolved by the catalog
	manifests := make([]*manifest.Manifest, 0, len(entries))
	candidates := server.CoreTools()
	for _, e := range entries {
		manifests = append(manifests, e.Manifest)
		candidates = append(candidates, exposure.FromManifest(e.Manifest)...)
	}
	chain, err := exposure.NewChain(cfg)
	if err != nil {
		return nil, err
	}
	if err := chain.ValidateNames(exposure.KnownTools(candidates)); err != nil {
		return nil, fmt.Errorf("the policy names things that are not installed:\n%w", err)
	}

	godot, source := opts.GodotVersion, VersionFromFlag
	if godot == "" {
		source = ""
		if opts.ProjectDir != "" {
			v, err := ProjectGodotVersion(opts.ProjectDir)
			switch {
			case err != nil:
				log.Warn("cannot read the Godot version from the project; toolsets with a Godot constraint stay off", "error", err)
			case v == "":
				log.Warn("project.godot lists no Godot version in config/features and is not a Godot 3 project (config_version=4); pass --godot-version for toolsets with a Godot constraint")
			default:
				godot, source = v, VersionFromProject
			}
		}
	}

	// Every part is built from parts built before it: a tree, no part
	// reaching for one assigned later.
	bus := events.NewBus(log.Named("events"))
	ring := events.NewRing(ringSize)
	bus.Subscribe(ring)
	bus.Subscribe(events.LogSink{Log: log.Named("event")})
	met := metrics.New()
	version := gate.NewVersion(godot, source)
	br, err := newBridge(opts, bus, log)
	if err != nil {
		bus.Close()
		return nil, err
	}
	ws, err := workspace.New(opts.ProjectDir, workspace.Options{})
	if err != nil {
		log.Warn("no headless workspace: file writes and undo are unavailable", "error", err)
		ws, _ = workspace.New("", workspace.Options{})
	}
	sup := supervisor.New(supervisor.Options{
		Workspace:    ws,
		Logger:       log.Named("plugin"),
		HostVersion:  opts.Version,
		ProjectDir:   opts.ProjectDir,
		GodotVersion: version.String,
		Verify:       cat.Verify,
		OnEvent:      pluginEvent(bus, met),
		PassEnv:      passEnv,
		SecretEnv:    cfg.SecretEnv(),
		MemoryLimit:  cfg.PluginMemoryLimit,

		MaxResultBytes:     cfg.Plugins.MaxResultMB << 20,
		MaxConcurrentCalls: cfg.Plugins.MaxConcurrentCalls,
		Editor:             hostEditor(br),
		GRPCCallsOnly:      os.Getenv(supervisor.CallsEnv) == "grpc",
	})
	tools := server.NewTools(server.ToolsOptions{
		Version:  opts.Version,
		Logger:   log.Named("server"),
		Toolsets: manifests,
		Bus:      bus,
	})
	up := newUpgrader(cat, sup, tools, nil, bus, log.Named("upgrade"))
	g := gate.New(gate.Options{
		Toolsets: manifests,
		Plugins:  plugins{cat: cat, sup: sup},
		Surface:  tools,
		Bus:      bus,
		Logger:   log.Named("gate"),
		Version:  version,
	})
	srv, err := server.New(server.Options{
		Version:        opts.Version,
		Tools:          tools,
		Logger:         log.Named("server"),
		Gate:           g,
		Plugins:        sup,
		Policy:         chain,
		Bus:            bus,
		Ring:           ring,
		LocalTransport: localTransport(opts.Transport),
		LocalProfile:   cfg.Stdio.Profile,
		ProjectDir:     opts.ProjectDir,
		Problems:       func() []error { return append(cat.Problems(), up.problems()...) },
		Workspace:      ws,
		Editor:         editorOf(br),
		Metrics:        met,
	})
	if err != nil {
		if br != nil {
			_ = br.Close()
		}
		sup.Shutdown(ctx)
		bus.Close()
		return nil, err
	}
	bus.Subscribe(srv.LoggingSink())
	up.gate = g
	h := &Host{Config: cfg, Catalog: cat, Supervisor: sup, Bus: bus, Ring: ring, Policy: chain, Gate: g, Server: srv, Workspace: ws, Bridge: br, Metrics: met, log: log, upgrader: up}
	if !opts.NoSeed {
		by := "startup"
		if cfg.DefaultToolsets == nil {
			by = gate.BuiltinDefault
		}
		h.Gate.Seed(ctx, gate.Defaults(cfg.DefaultToolsets), by)
	}
	if names := dev.names(); len(names) > 0 {
		h.Gate.Seed(ctx, names, "dev-plugin")
	}
	built = true
	h.startWatching(opts.WatchInterval, dev)
	startBridge(br, g, ws, bus, log, godot, source)
	return h, nil
}

// localTransport is the transport of callers that reach the server without
// HTTP. An HTTP host has none; treat any as stdio.
func localTransport(t string) string {
	if t == exposure.TransportCLI {
		return exposure.TransportCLI
	}
	return exposure.TransportStdio
}

// ListenAndServe serves the streamable HTTP endpoint on addr until ctx
// ends. The operator token comes from GODOT_MCP_AUTH_TOKEN unless o sets
// one, principals from the policy config's tokens; o (may be nil) supplies
// the rest, such as Ready and AllowedOrigins.
func (h *Host) ListenAndServe(ctx context.Context, addr string, o *server.HTTPOptions) error {
	var opts server.HTTPOptions
	if o != nil {
		opts = *o
	}
	opts.Addr = addr
	if opts.Token == "" {
		opts.Token = os.Getenv(server.AuthTokenEnv)
	}
	if len(h.Config.Tokens) > 0 {
		opts.Principal = h.Config.Principal
		opts.HasPrincipals = true
	}
	return h.Server.ListenAndServe(ctx, opts)
}

// OnEnabledSet subscribes push to every change of the enabled set; the
// editor bridge uses it to keep the editor dock current.
func (h *Host) OnEnabledSet(push func(enabled []string) error) (unsubscribe func()) {
	return h.Bus.Subscribe(events.EnabledSetSink(push))
}

// Close stops every plugin and drains the event sinks.
func (h *Host) Close(ctx context.Context) {
	if h.stop != nil {
		h.stop()
	}
	if h.Bridge != nil {
		_ = h.Bridge.Close()
	}
	if h.Supervisor != nil {
		h.Supervisor.Shutdown(ctx)
	}
	if h.Bus != nil {
		h.Bus.Close()
	}
}

// pluginEvent turns supervisor lifecycle events into bus events, and
// counts them.
func pluginEvent(bus *events.Bus, m *metrics.Registry) func(supervisor.Event) {
	return func(e supervisor.Event) {
		countPluginEvent(m, e)
		bus.Emit(busEvent(e))
	}
}

func busEvent(e supervisor.Event) events.Event {
	ev := events.Event{Toolset: e.Toolset, Message: e.Message, Fields: map[string]any{"pid": e.PID}}
	switch e.Kind {
	case supervisor.EventStarted:
		ev.Kind = events.PluginStarted
	case supervisor.EventExited:
		ev.Kind = events.PluginExited
	case supervisor.EventCrashed:
		ev.Kind, ev.Level = events.PluginCrashed, events.Error
	case supervisor.EventRestarted:
		ev.Kind, ev.Level = events.PluginRestarted, events.Warning
	case supervisor.EventCrashLoop:
		ev.Kind, ev.Level = events.PluginCrashed, events.Error
		ev.Fields["crash_loop"] = true
	case supervisor.EventUpgradeFailed:
		ev.Kind, ev.Level = events.Kind("plugin_"+e.Kind), events.Warning
	default:
		ev.Kind = events.Kind("plugin_" + e.Kind)
	}
	if ev.Message == "" {
		ev.Message = fmt.Sprintf("plugin %s: %s", e.Toolset, e.Kind)
	}
	return ev
}

// plugins adapts catalog and supervisor to the gate: the gate names
// toolsets, the supervisor starts catalog entries.
type plugins struct {
	cat *catalog.Catalog
	sup *supervisor.Supervisor
}

func (p plugins) Start(ctx context.Context, name string) error {
	e, ok := p.cat.Lookup(name)
	if !ok {
		return fmt.Errorf("toolset %q is not in the catalog", name)
	}
	return p.sup.Start(ctx, e)
}

func (p plugins) Stop(ctx context.Context, name string) error { return p.sup.Stop(ctx, name) }

// ProjectGodotVersion reads the Godot version a project was saved with from
// the config/features key of its project.godot ("4.7"), or "3" for a Godot
// 3 project (config_version=4, no features). It returns "" when neither
// tells, and a file:line:col error when project.godot does not parse.
func ProjectGodotVersion(dir string) (string, error) {
	path := filepath.Join(dir, "project.godot")
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	p, err := godot.ParseProject(path, data)
	if err != nil {
		return "", err
	}
	// A Godot 3 project is "3", which constraints read as 3.0.0: a toolset
	// that supports Godot 3 projects declares ">= 3.0".
	return p.GodotVersion(), nil
}

// ErrNoProject is returned by FindProject when the directory holds no
// project.godot.
var ErrNoProject = errors.New("no project.godot")

// FindProject returns dir as an absolute path when it holds a project.godot.
func FindProject(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(abs, "project.godot")); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("%s: %w", abs, ErrNoProject)
		}
		return "", err
	}
	return abs, nil
}
