package host

import (
	"github.com/godot-mcp/godot-mcp/host/metrics"
	"github.com/godot-mcp/godot-mcp/host/supervisor"
)

// countPluginEvent counts a supervisor lifecycle event in m. A crash loop
// is the crash that ended the restarts, so it counts as a crash.
func countPluginEvent(m *metrics.Registry, e supervisor.Event) {
	switch e.Kind {
	case supervisor.EventStarted:
		m.PluginEvent(e.Toolset, metrics.PluginStart)
	case supervisor.EventCrashed, supervisor.EventCrashLoop:
		m.PluginEvent(e.Toolset, metrics.PluginCrash)
	case supervisor.EventRestarted:
		m.PluginEvent(e.Toolset, metrics.PluginRestart)
	case supervisor.EventUpgraded:
		m.PluginEvent(e.Toolset, metrics.PluginUpgrade)
	case supervisor.EventUpgradeFailed:
		m.PluginEvent(e.Toolset, metrics.PluginUpgradeFailed)
	}
}
