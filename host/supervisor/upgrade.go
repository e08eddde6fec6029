package supervisor

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/godot-mcp/godot-mcp/host/catalog"
	"github.com/godot-mcp/godot-mcp/sdk"
)

// Upgrade swaps a new binary of a toolset in while the host serves (a hot
// upgrade): e is the re-cataloged entry (catalog.Refresh has verified and
// described it). For a running toolset the new plugin is started beside the
// old one, brought to ready (verify, handshake, the manifest check against
// e.Manifest, Configure), and then installed in one step under the
// toolset's mutex: every call that starts after that goes to the new
// plugin; the calls the old one already took finish there, and then the old
// process is stopped. No call is lost or refused on the way.
//
// If the new plugin fails to start, the old one serves on, untouched;
// Upgrade emits EventUpgradeFailed and returns the error (an *sdk.Error).
// A toolset that is not running only has its entry replaced: its next
// start runs the new binary. ctx bounds the start.
func (s *Supervisor) Upgrade(ctx context.Context, e catalog.Entry) error {
	ts, err := s.toolset(e.Name, true)
	if err != nil {
		return err
	}
	if err := ts.lock(ctx); err != nil {
		return cancelled(e.Name, "upgrading", err)
	}
	defer ts.unlock()
	ts.mu.Lock()
	if ts.state != Running {
		// Stopped, crashed or failed: the next (re)start takes the new
		// binary. Starting cannot be seen here: launches hold ops.
		ts.entry = e
		ts.mu.Unlock()
		return nil
	}
	gen := ts.gen
	ts.mu.Unlock()

	sctx, cancel := context.WithTimeout(ctx, s.opts.StartTimeout)
	defer cancel()
	inst, err := s.spawn(sctx, ts, e)
	if err != nil {
		msg := fmt.Sprintf("the new binary of toolset %q (%s) did not start; the old one serves on: %v", e.Name, e.Path, err)
		var se *sdk.Error
		if errors.As(err, &se) {
			se.Message = msg
		}
		s.emit(Event{Kind: EventUpgradeFailed, Toolset: e.Name, Message: msg})
		return err
	}

	ts.mu.Lock()
	if ts.gen != gen || ts.state != Running || s.closed.Load() {
		// Stopped (or crashed) while the new plugin started: it is not
		// wanted any more; a crashed toolset restarts with the new entry.
		if ts.state == Crashed || ts.state == Failed {
			ts.entry = e
		}
		ts.mu.Unlock()
		s.stopInstance(context.Background(), inst)
		return nil
	}
	old := ts.inst
	ts.inst = inst
	ts.entry = e
	ts.started = time.Now()
	if ts.draining == nil {
		ts.draining = map[*instance]bool{}
	}
	ts.draining[old] = true
	ts.mu.Unlock()
	s.emit(Event{Kind: EventUpgraded, Toolset: e.Name, PID: inst.pid(), Message: fmt.Sprintf("%s %s (was pid %d)", e.Path, e.SHA256, old.pid())})

	s.goroutine(func() {
		old.inflight.Wait()
		ts.mu.Lock()
		mine := ts.draining[old]
		delete(ts.draining, old)
		ts.mu.Unlock()
		if mine { // else Stop took it
			s.stopInstance(context.Background(), old)
		}
	})
	return nil
}
