package events

// EnabledSetSink returns a sink that calls push with the enabled set every
// time it changes. The gate puts the set (core first, then sorted names)
// into Fields["enabled"] of every ToolsetEnabled and ToolsetDisabled event;
// this is how the editor bridge keeps the editor dock current without the
// gate knowing the editor exists.
//
// push runs on the sink's own goroutine like any sink, so a slow or broken
// editor link delays only later pushes, never a toggle; an error is logged
// by the bus.
func EnabledSetSink(push func(enabled []string) error) Sink {
	return SinkFunc(func(e Event) error {
		if e.Kind != ToolsetEnabled && e.Kind != ToolsetDisabled {
			return nil
		}
		set, ok := e.Fields["enabled"].([]string)
		if !ok {
			return nil
		}
		return push(append([]string(nil), set...))
	})
}
