package events

import (
	"errors"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// collect is a sink that records what it receives.
type collect struct {
	mu  sync.Mutex
	got []Event
}

func (c *collect) Handle(e Event) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.got = append(c.got, e)
	return nil
}

func (c *collect) kinds() []Kind {
	c.mu.Lock()
	defer c.mu.Unlock()
	var ks []Kind
	for _, e := range c.got {
		ks = append(ks, e.Kind)
	}
	return ks
}

func TestBusDeliversInOrderToEverySink(t *testing.T) {
	bus := NewBus(nil)
	a, b := &collect{}, &collect{}
	bus.Subscribe(a)
	bus.Subscribe(b)
	want := []Kind{ToolsetEnabled, PluginStarted, ListChanged}
	for _, k := range want {
		bus.Emit(Event{Kind: k})
	}
	bus.Close()
	for name, c := range map[string]*collect{"a": a, "b": b} {
		got := c.kinds()
		if len(got) != len(want) {
			t.Fatalf("sink %s got %v, want %v", name, got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("sink %s got %v, want %v", name, got, want)
			}
		}
		if c.got[0].Seq >= c.got[1].Seq || c.got[0].Level != Info || c.got[0].Time.IsZero() {
			t.Fatalf("events not stamped: %+v", c.got[:2])
		}
	}
}

func TestFailingOrPanickingSinkNeverBlocksEmit(t *testing.T) {
	bus := NewBus(nil)
	good := &collect{}
	bus.Subscribe(SinkFunc(func(Event) error { return errors.New("broken pipe") }))
	bus.Subscribe(SinkFunc(func(Event) error { panic("sink bug") }))
	block := make(chan struct{})
	bus.Subscribe(SinkFunc(func(Event) error { <-block; return nil })) // stuck sink
	bus.Subscribe(good)

	// More events than one queue holds, in batches that the healthy sink
	// drains in between: the stuck sink must drop, not block Emit, while a
	// sink that keeps up loses nothing.
	batches, per := 10, queueSize/8
	n := batches * per
	done := make(chan struct{})
	go func() {
		defer close(done)
		for b := 1; b <= batches; b++ {
			for i := 0; i < per; i++ {
				bus.Emit(Event{Kind: ToolsFiltered})
			}
			for len(good.kinds()) < b*per {
				time.Sleep(time.Millisecond)
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("Emit blocked behind a stuck sink (healthy sink has %d of %d)", len(good.kinds()), n)
	}
	if bus.Dropped() == 0 {
		t.Fatal("expected the stuck sink's overflow to be counted as dropped")
	}
	close(block)
	bus.Close()
	if got := len(good.kinds()); got != n {
		t.Fatalf("healthy sink got %d events, want %d", got, n)
	}
}

func TestUnsubscribeStopsDelivery(t *testing.T) {
	bus := NewBus(nil)
	c := &collect{}
	unsub := bus.Subscribe(c)
	bus.Emit(Event{Kind: ToolsetEnabled})
	unsub()
	unsub() // idempotent
	bus.Emit(Event{Kind: ToolsetDisabled})
	bus.Close()
	if got := c.kinds(); len(got) != 1 || got[0] != ToolsetEnabled {
		t.Fatalf("got %v, want only the event before unsubscribe", got)
	}
}

func TestRingKeepsMostRecentOldestFirst(t *testing.T) {
	r := NewRing(3)
	if len(r.Recent()) != 0 {
		t.Fatal("new ring not empty")
	}
	for i := 1; i <= 5; i++ {
		_ = r.Handle(Event{Seq: uint64(i)})
	}
	got := r.Recent()
	if len(got) != 3 || got[0].Seq != 3 || got[2].Seq != 5 {
		t.Fatalf("got %+v, want seq 3,4,5", got)
	}
}

func TestEmitAfterCloseIsHarmless(t *testing.T) {
	bus := NewBus(nil)
	bus.Close()
	bus.Emit(Event{Kind: ToolsetEnabled})
	c := &collect{}
	unsub := bus.Subscribe(c)
	bus.Emit(Event{Kind: ToolsetEnabled})
	unsub()
	bus.Close()
	if got := c.kinds(); len(got) != 0 {
		t.Fatalf("a closed bus delivered %v", got)
	}
}
