package events

import (
	"errors"
	"slices"
	"sync"
	"testing"
)

func TestEnabledSetSink(t *testing.T) {
	bus := NewBus(nil)
	var mu sync.Mutex
	var pushed [][]string
	bus.Subscribe(EnabledSetSink(func(set []string) error {
		mu.Lock()
		defer mu.Unlock()
		pushed = append(pushed, set)
		return errors.New("editor not attached") // must not matter
	}))
	bus.Emit(Event{Kind: ToolsetEnabled, Fields: map[string]any{"enabled": []string{"core", "scene_edit"}}})
	bus.Emit(Event{Kind: PluginStarted, Fields: map[string]any{"enabled": []string{"ignored"}}})
	bus.Emit(Event{Kind: ToolsetDisabled, Fields: map[string]any{"enabled": []string{"core"}}})
	bus.Close()
	want := [][]string{{"core", "scene_edit"}, {"core"}}
	if !slices.EqualFunc(pushed, want, slices.Equal) {
		t.Errorf("pushed %v, want %v", pushed, want)
	}
}
