package exposure

import (
	"fmt"
	"slices"

	"github.com/godot-mcp/godot-mcp/host/events"
)

// FilteredEvents turns a decision into one events.ToolsFiltered event per
// layer that removed something; a decision that withheld nothing yields
// none. Fields carry by, excluded ([]string, sorted), remaining (int),
// profile, principal and transport (the ceiling key). The message names who
// withheld the tools, e.g. `profile "ci" withheld 3 tools (12 remain)`.
func FilteredEvents(d Decision) []events.Event {
	out := make([]events.Event, 0, len(d.Filtered))
	for _, f := range d.Filtered {
		subject := fmt.Sprintf("layer %q", f.By)
		if l, ok := d.layer(f.By).(subjecter); ok {
			subject = l.subject(d.Caller)
		}
		noun := "tools"
		if len(f.Excluded) == 1 {
			noun = "tool"
		}
		out = append(out, events.Event{
			Kind:    events.ToolsFiltered,
			Level:   events.Info,
			Message: fmt.Sprintf("%s withheld %d %s (%d remain)", subject, len(f.Excluded), noun, f.Remaining),
			Fields: map[string]any{
				"by":        f.By,
				"excluded":  slices.Clone(f.Excluded), // sinks run later, on their own goroutines
				"remaining": f.Remaining,
				"profile":   d.Caller.Profile,
				"principal": d.Caller.Principal,
				"transport": d.Caller.TransportKey(),
			},
		})
	}
	return out
}

// EmitFiltered emits the decision's ToolsFiltered events on bus (nil:
// no-op). Call it with the decision behind a tools/list answer; a decision
// that withheld nothing emits nothing.
func EmitFiltered(bus *events.Bus, d Decision) {
	if bus == nil {
		return
	}
	for _, e := range FilteredEvents(d) {
		bus.Emit(e)
	}
}
