package server

import (
	"context"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/godot-mcp/godot-mcp/host/events"
	"github.com/godot-mcp/godot-mcp/host/gate"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// ToolsOptions configure Tools.
type ToolsOptions struct {
	// Version is the host version reported to clients.
	Version string
	// Logger receives the go-sdk's logs and refused tool definitions (nil:
	// discard).
	Logger hclog.Logger
	// Toolsets are the installed toolsets (from the catalog): every one of
	// their tools is registered, enabled or not.
	Toolsets []*manifest.Manifest
	// Bus receives a ListChanged event per show and hide; may be nil.
	Bus *events.Bus
	// ListTTL is the ttlMs hint on tools/list and server/discover results.
	// The default 0 tells clients to re-list every time, because any
	// connection may toggle a toolset; list_changed covers clients that
	// keep a cache, but a client may list again before it arrives.
	ListTTL time.Duration
}

// Tools is the server's table of tools: the registry every tools/call is
// looked up in, and the go-sdk server whose tool list mirrors the tools of
// enabled toolsets for tools/list and notifications/tools/list_changed. It
// is the gate's Surface.
//
// It is built first, so the host wires a tree with no back-references:
//
//	tools := server.NewTools(server.ToolsOptions{Toolsets: manifests, Bus: bus})
//	g := gate.New(gate.Options{Toolsets: manifests, Surface: tools, Plugins: plugins})
//	srv, err := server.New(server.Options{Tools: tools, Gate: g, Plugins: sup, Policy: chain})
type Tools struct {
	log       hclog.Logger
	reg       *registry
	mcp       *mcp.Server
	bus       *events.Bus
	ttl       time.Duration
	listeners atomic.Int64 // open subscriptions/listen streams
}

var _ gate.Surface = (*Tools)(nil)

// NewTools registers every installed toolset's tools. A tool whose
// definition is refused (its schema, a clash of exposed names, a definition
// the MCP server rejects) is logged and left out; the rest of its toolset
// is served.
func NewTools(o ToolsOptions) *Tools {
	if o.Logger == nil {
		o.Logger = hclog.NewNullLogger()
	}
	t := &Tools{log: o.Logger, reg: newRegistry(), bus: o.Bus, ttl: o.ListTTL}
	t.mcp = mcp.NewServer(&mcp.Implementation{Name: Name, Title: "Godot MCP", Version: o.Version}, &mcp.ServerOptions{
		Logger: slog.New(newSlogHandler(o.Logger.Named("mcp"))),
		// Declared, not inferred: tools (with list_changed, which the gate
		// relies on), the fixed prompts and resources (prompts.go,
		// resources.go; no list changes, no subscriptions) and logging (the
		// events sink). No completions: the middleware refuses them.
		Capabilities: &mcp.ServerCapabilities{
			Tools:     &mcp.ToolCapabilities{ListChanged: true},
			Prompts:   &mcp.PromptCapabilities{},
			Resources: &mcp.ResourceCapabilities{},
			//lint:ignore SA1019 delivered to 2025-11-25 sessions by LoggingSink
			Logging: &mcp.LoggingCapabilities{},
		},
		SetCacheable: t.setCacheable,
	})
	for _, m := range o.Toolsets {
		if m == nil || m.Name == gate.Core {
			continue
		}
		for _, err := range t.reg.addToolset(m) {
			t.log.Error("tool not exposed", "error", err)
		}
	}
	return t
}

// Show mirrors a toolset's tools on the go-sdk server (gate.Surface). The
// SDK then sends list_changed to every session and listen stream, after a
// short debounce and without blocking this call; a failed send is logged
// by the SDK through the logger.
func (t *Tools) Show(toolset string) {
	entries := t.reg.toolset(toolset)
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if err := addTool(t.mcp, e.tool, mirrorOnly); err != nil {
			t.log.Error("tool not exposed", "tool", e.ref.Name, "error", err)
			continue
		}
		names = append(names, e.ref.Name)
	}
	t.listChanged(toolset, "added", names)
}

// Hide removes a toolset's tools from the mirror (gate.Surface).
func (t *Tools) Hide(toolset string) {
	entries := t.reg.toolset(toolset)
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.ref.Name)
	}
	t.mcp.RemoveTools(names...)
	t.listChanged(toolset, "removed", names)
}

func (t *Tools) listChanged(toolset, verb string, names []string) {
	if len(names) == 0 || t.bus == nil {
		return
	}
	sessions := 0
	for range t.mcp.Sessions() {
		sessions++
	}
	listeners := t.listeners.Load()
	t.bus.Emit(events.Event{
		Kind:    events.ListChanged,
		Level:   events.Debug,
		Toolset: toolset,
		Message: fmt.Sprintf("tools/list_changed queued for %d sessions and %d listen streams (%d tools %s)", sessions, listeners, len(names), verb),
		Fields:  map[string]any{verb: names, "sessions": sessions, "listen_streams": listeners},
	})
}

// setCacheable fills ttlMs and cacheScope. tools/list answers differ per
// caller (policy), so they are private; discover carries instructions
// derived from the caller's view, so it is private too.
func (t *Tools) setCacheable(_ context.Context, req mcp.Request, c *mcp.Cacheable) {
	switch req.(type) {
	case *mcp.ListToolsRequest, *mcp.ServerRequest[*mcp.DiscoverParams]:
		c.TTLMs = int(t.ttl / time.Millisecond)
		c.CacheScope = "private"
	}
}

// Replace swaps a toolset's tool definitions for those of m, after a hot
// upgrade changed them. When shown (the toolset is enabled) the mirror is
// updated too, and every session gets notifications/tools/list_changed.
// Definitions refused are returned, as NewTools logs them.
func (t *Tools) Replace(m *manifest.Manifest, shown bool) []error {
	old := t.reg.toolset(m.Name)
	errs := t.reg.replaceToolset(m)
	if shown {
		// Tools the new build dropped leave the mirror; Show re-adds the
		// rest with their new definitions, and the SDK sends list_changed.
		keep := map[string]bool{}
		for _, e := range t.reg.toolset(m.Name) {
			keep[e.ref.Name] = true
		}
		var gone []string
		for _, e := range old {
			if !keep[e.ref.Name] {
				gone = append(gone, e.ref.Name)
			}
		}
		t.mcp.RemoveTools(gone...)
		t.Show(m.Name)
	}
	return errs
}
