package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/coder/websocket"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/addonerr"
)

// Request sends command with params to the attached editor and returns the
// addon's result object. params is nil (no parameters), a json.RawMessage
// holding a JSON object, or a value that marshals to one. timeout bounds the
// whole round trip; 0 means Options.Timeout (10 s by default).
//
// Every failure the caller can act on is an *sdk.Error:
//   - BRIDGE_DISCONNECTED: no editor is attached (returned at once), or it
//     disconnected or was replaced while the request was pending;
//   - TIMEOUT: the editor did not answer within timeout;
//   - INTERNAL_ERROR: the editor answered with something that is not a
//     response envelope (returned as soon as it arrives);
//   - the addon's own failure, mapped by [addonerr.Refusal] to the code an
//     agent gets for the same mistake headless (RESOURCE_NOT_FOUND is
//     NOT_FOUND, VALIDATION_ERROR is INVALID_ARGUMENT), with the addon's
//     hint quoted in the message and its required kept;
//   - PRECONDITION_FAILED with required "addon_command" when the addon
//     lacks command (version drift): without sending it when the addon's
//     command list is known, else when the addon answers "Unknown command";
//   - INVALID_ARGUMENT when params do not encode to a JSON object or the
//     frame would exceed 32 MiB.
//
// When ctx ends first, Request returns ctx's error. Request is safe for
// concurrent use; replies are matched to requests by id, in any order.
func (b *Bridge) Request(ctx context.Context, command string, params any, timeout time.Duration) (json.RawMessage, error) {
	p := b.active.Load()
	if p == nil {
		return nil, b.noEditor(command)
	}
	if !handshakeCommand(command) && p.lacks(command) {
		err := addonerr.UnknownCommand(command, p.identity().AddonVersion, "")
		b.noteError(err.Error())
		return nil, err
	}
	return p.request(ctx, command, params, timeout)
}

// handshakeCommand is a command the bridge sends itself to every addon,
// whatever its command list says.
func handshakeCommand(c string) bool {
	return c == cmdGetAddonInfo || c == cmdServerHello || c == cmdToolsetsUpdate
}

// request is one round trip on this peer.
func (p *peer) request(ctx context.Context, command string, params any, timeout time.Duration) (json.RawMessage, error) {
	b := p.b
	if timeout <= 0 {
		timeout = b.opts.Timeout
	}
	id := strconv.FormatUint(b.nextID.Add(1), 10)
	msg, err := encodeCommand(id, command, params)
	if err != nil && !errors.Is(err, errTooBig) {
		return nil, &sdk.Error{Code: sdk.CodeInvalidArgument,
			Message: fmt.Sprintf("editor command %s: %v", command, err),
			Hint:    "pass the command's parameters as a JSON object (a Go struct or map)"}
	}
	if err != nil || len(msg) > MaxFrame {
		return nil, &sdk.Error{Code: sdk.CodeInvalidArgument,
			Message: fmt.Sprintf("editor command %s does not fit the addon's 32 MiB frame limit", command),
			Hint:    "send less at once: split the data over several commands"}
	}
	w, serr := p.register(id, command)
	if serr != nil {
		return nil, serr
	}
	r, err := p.roundTrip(ctx, id, msg, w, timeout)
	waiterPool.Put(w) // every path below leaves its channel empty
	if err != nil {
		return nil, err
	}
	res, err := b.outcome(command, r)
	if err != nil && r.err == nil && addonerr.IsUnknownCommand(err) {
		// Drift the addon's command list did not announce (or it sent
		// none): record it, and name the addon's version as the check
		// before sending does.
		if !handshakeCommand(command) {
			p.noteMissing(command)
		}
		err = addonerr.UnknownCommand(command, p.identity().AddonVersion, r.f.hint)
	}
	return res, err
}

// roundTrip writes msg and waits for w's reply. It returns the reply, or a
// timeout, disconnect or context error.
func (p *peer) roundTrip(ctx context.Context, id string, msg []byte, w *waiter, timeout time.Duration) (reply, error) {
	b := p.b
	timer := time.NewTimer(timeout)
	defer timer.Stop()

	// The write is not bound to the caller's context: coder/websocket
	// closes the socket when a write's context ends mid-frame, and a caller
	// giving up must not cut the editor off. A large frame gets the
	// request's timeout as its deadline; small ones, which the kernel takes
	// at once unless the editor stopped reading, are left to the watchdog,
	// since a deadline costs a timer registration per command.
	wctx := context.Background()
	if len(msg) > bigWrite {
		var cancel context.CancelFunc
		wctx, cancel = context.WithTimeout(p.ctx, timeout)
		defer cancel()
	}
	p.writesStarted.Add(1)
	// One writer at a time on our own mutex: coder/websocket's write lock
	// is a channel, which costs far more than sync.Mutex when hundreds of
	// requests are in flight.
	p.writeMu.Lock()
	err := p.conn.Write(wctx, websocket.MessageText, msg)
	p.writeMu.Unlock()
	p.writesDone.Add(1)
	if err != nil {
		taken := p.take(id) != nil
		if !taken {
			// The peer failed meanwhile and completed the waiter.
			r := <-w.ch
			if !errors.Is(err, context.DeadlineExceeded) {
				return r, nil // replaced or disconnected says more
			}
		}
		if errors.Is(err, context.DeadlineExceeded) {
			// The frame did not go out in time; the socket is closed
			// (an editor that cannot take a frame is dropped).
			return reply{}, b.timedOut(w.command, timeout)
		}
		e := disconnected(fmt.Sprintf("sending %s to the Godot editor failed: %v", w.command, err))
		b.noteError(e.Message)
		return reply{}, e
	}
	b.sent.Add(1)
	select {
	case r := <-w.ch:
		return r, nil
	case <-timer.C:
		if p.take(id) == nil {
			return <-w.ch, nil // the reply won the race with the timer
		}
		return reply{}, b.timedOut(w.command, timeout)
	case <-ctx.Done():
		if p.take(id) == nil {
			return <-w.ch, nil
		}
		return reply{}, ctx.Err()
	}
}

// bigWrite is the frame size from which a write gets its own deadline.
const bigWrite = 64 << 10

// outcome turns a reply into Request's results. This is where the addon's
// failure envelope becomes the error agents see: addonerr.Refusal is the
// one mapping of its codes, shared with sdktest's scripted editor.
func (b *Bridge) outcome(command string, r reply) (json.RawMessage, error) {
	if r.err != nil {
		b.noteError(r.err.Error())
		return nil, r.err
	}
	if r.f.ok {
		return r.f.result, nil
	}
	return nil, addonerr.Refusal(command, r.f.code, r.f.hint, r.f.required)
}

func (b *Bridge) timedOut(command string, timeout time.Duration) *sdk.Error {
	e := &sdk.Error{
		Code:    sdk.CodeTimeout,
		Message: fmt.Sprintf("no response from Godot to %s within %s", command, timeout),
		Hint:    "check that the editor is responsive (not paused in the debugger or behind a modal dialog) and retry",
	}
	b.noteError(e.Error())
	return e
}

func (b *Bridge) noEditor(command string) *sdk.Error {
	msg := "Godot is not connected to the bridge, so " + command + " cannot run"
	b.mu.Lock()
	lerr := b.listenErr
	b.mu.Unlock()
	if lerr != nil {
		msg += " (the bridge is not listening: " + lerr.Error() + ")"
	}
	return &sdk.Error{
		Code:     sdk.CodeBridgeDisconnected,
		Message:  msg,
		Hint:     "open the project in the Godot editor with the godot-mcp addon enabled; it connects to " + b.url + " by itself",
		Required: "bridge_connected",
	}
}

func disconnected(why string) *sdk.Error {
	return &sdk.Error{
		Code:     sdk.CodeBridgeDisconnected,
		Message:  why,
		Hint:     "wait for the editor to reconnect (the addon retries by itself) and retry; godot_get_server_info shows the bridge",
		Required: "bridge_connected",
	}
}
