package bridge_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/host/events"
	"github.com/godot-mcp/godot-mcp/internal/fakeaddon"
	"github.com/godot-mcp/godot-mcp/sdk"
	pb "github.com/godot-mcp/godot-mcp/sdk/proto"
)

var ctx = context.Background()

// slow scripts a command the editor never answers.
var slow = map[string]fakeaddon.Handler{"cmd_slow": func(map[string]any) fakeaddon.Reply { return fakeaddon.None() }}

func TestRoundTripAndNumbersArriveAsFloats(t *testing.T) {
	r := newRig(t, bridge.Options{})
	a := r.addon(fakeaddon.Options{Handlers: map[string]fakeaddon.Handler{
		"cmd_get_scene_tree": func(p map[string]any) fakeaddon.Reply {
			return fakeaddon.OK(map[string]any{"depth_type": fmt.Sprintf("%T", p["max_depth"]), "depth": p["max_depth"]})
		}}})
	r.attached()
	raw, err := r.b.Request(ctx, "cmd_get_scene_tree", map[string]any{"max_depth": 2, "lightweight": true}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if string(raw) != `{"depth":2,"depth_type":"float64"}` {
		t.Fatalf("result %s", raw)
	}
	calls := a.Calls("cmd_get_scene_tree")
	if len(calls) != 1 || calls[0].Params["lightweight"] != true || calls[0].Params["max_depth"] != 2.0 {
		t.Fatalf("calls %+v", calls)
	}
}

// TestFramesOnTheWire reads what the host sends with a bare WebSocket
// client, byte for byte, and answers as the addon does.
func TestFramesOnTheWire(t *testing.T) {
	r := newRig(t, bridge.Options{HostVersion: "1.2.3", Enabled: func() []string { return []string{"core", "inspection"} }})
	c, _, err := websocket.Dial(ctx, r.url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	hello := `{"id":"peer_hello","command":"cmd_peer_hello","params":{"addon_version":"0.9.0","godot_version":"4.7.2-stable","project_path":"/home/u/game/"}}`
	if err := c.Write(ctx, websocket.MessageText, []byte(hello)); err != nil {
		t.Fatal(err)
	}
	want := []struct{ frame, reply string }{
		{`{"id":"%s","command":"cmd_get_addon_info","params":{}}`, `{"id":"%s","ok":true,"result":{"addon_version":"0.9.0","commands":["cmd_ping"],"godot_version":"4.7.2-stable"}}`},
		{`{"id":"%s","command":"cmd_server_hello","params":{"version":"1.2.3"}}`, `{"id":"%s","ok":true,"result":{"received":true}}`},
		{`{"id":"%s","command":"cmd_toolsets_update","params":{"enabled":["core","inspection"]}}`, `{"id":"%s","ok":true,"result":{"count":2,"received":true}}`},
	}
	for _, w := range want {
		_, got, err := c.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var env struct{ ID string }
		if err := json.Unmarshal(got, &env); err != nil || env.ID == "" {
			t.Fatalf("frame %s has no string id", got)
		}
		if string(got) != fmt.Sprintf(w.frame, env.ID) {
			t.Fatalf("frame\n got %s\nwant %s", got, fmt.Sprintf(w.frame, env.ID))
		}
		if err := c.Write(ctx, websocket.MessageText, []byte(fmt.Sprintf(w.reply, env.ID))); err != nil {
			t.Fatal(err)
		}
	}
	st := r.b.Status()
	if !st.Connected || st.ProjectPath != "/home/u/game/" || st.GodotVersion != "4.7.2-stable" || st.AddonVersion != "0.9.0" {
		t.Fatalf("status %+v", st)
	}
	waitFor(t, "the addon info", func() bool { return r.b.Status().AddonCommands == 1 })
}

func TestNoEditorFailsAtOnce(t *testing.T) {
	r := newRig(t, bridge.Options{})
	_, err := r.b.Request(ctx, "cmd_ping", nil, time.Hour)
	e := sdkErr(t, err, sdk.CodeBridgeDisconnected)
	if !strings.Contains(e.Hint, r.url) {
		t.Errorf("hint %q does not say where the addon should connect", e.Hint)
	}
}

func TestAnyStartOrder(t *testing.T) {
	t.Run("editor first", func(t *testing.T) {
		url := "ws://" + freeAddr(t)
		a := startAddon(t, fakeaddon.Options{URL: url})
		waitFor(t, "the editor to retry", func() bool { return len(a.DockLog()) >= 2 })
		r := newRig(t, bridge.Options{URL: url})
		r.attached()
		if _, err := r.b.Request(ctx, "cmd_ping", nil, 0); err != nil {
			t.Fatal(err)
		}
		if !hasLine(strings.Join(a.DockLog(), "\n"), "reconnected (after") {
			t.Errorf("dock log %q has no reconnect line", a.DockLog())
		}
	})
	t.Run("host first", func(t *testing.T) {
		r := newRig(t, bridge.Options{})
		r.addon(fakeaddon.Options{})
		r.attached()
		if _, err := r.b.Request(ctx, "cmd_ping", nil, 0); err != nil {
			t.Fatal(err)
		}
	})
}

func TestReconnect(t *testing.T) {
	url := "ws://" + freeAddr(t)
	r := newRig(t, bridge.Options{URL: url})
	a := r.addon(fakeaddon.Options{})
	r.attached()
	a.Drop() // the editor's socket dies
	waitFor(t, "a second connection", func() bool { return a.Connects() >= 2 && r.b.Connected() })
	if _, err := r.b.Request(ctx, "cmd_ping", nil, 0); err != nil {
		t.Fatal(err)
	}
	if got := r.ev.of(events.PeerDetached); len(got) == 0 {
		t.Error("no detach event")
	}

	// The host restarts on the same port: the editor finds it again.
	_ = r.b.Close()
	waitFor(t, "the editor to notice", func() bool { return a.Status() != fakeaddon.Connected })
	r2 := newRig(t, bridge.Options{URL: url})
	r2.attached()
	if _, err := r2.b.Request(ctx, "cmd_ping", nil, 0); err != nil {
		t.Fatal(err)
	}
}

func TestAuth(t *testing.T) {
	const token = "s3cret-token-value"
	t.Run("ok", func(t *testing.T) {
		r := newRig(t, bridge.Options{Token: token})
		a := r.addon(fakeaddon.Options{Token: token, ProjectPath: "/p/ok/"})
		r.attached()
		if _, err := r.b.Request(ctx, "cmd_ping", nil, 0); err != nil {
			t.Fatal(err)
		}
		if p, _ := r.lastPeer(); p.ProjectPath != "/p/ok/" {
			t.Errorf("peer %+v: the hello after auth was lost", p)
		}
		if len(a.Notices()) != 0 {
			t.Errorf("notices %+v", a.Notices())
		}
		if strings.Contains(r.log.String(), token) {
			t.Error("the token appears in the log")
		}
	})
	t.Run("wrong", func(t *testing.T) {
		r := newRig(t, bridge.Options{Token: token})
		a := r.addon(fakeaddon.Options{Token: "not-the-token"})
		waitFor(t, "two refusals", func() bool { return len(a.Notices()) >= 2 })
		n := a.Notices()[0]
		if n.ID != "auth" || n.Error != "VALIDATION_ERROR" || n.Required != "bridge_token" || !strings.Contains(n.Hint, bridge.TokenEnv) {
			t.Fatalf("notice %+v", n)
		}
		if r.b.Connected() {
			t.Fatal("a refused editor is attached")
		}
		if a.Status() == fakeaddon.Replaced {
			t.Fatal("a refusal must leave the addon retrying")
		}
		if got := r.ev.of(events.PeerRefused); len(got) == 0 || got[0].Fields["reason"] != "wrong_token" {
			t.Fatalf("refusal events %+v", got)
		}
		if r.b.Status().AuthRefusals < 2 {
			t.Errorf("status %+v", r.b.Status())
		}
		log := r.log.String()
		if strings.Contains(log, token) || strings.Contains(log, "not-the-token") {
			t.Error("a token appears in the log")
		}
	})
	t.Run("missing", func(t *testing.T) {
		r := newRig(t, bridge.Options{Token: token})
		a := r.addon(fakeaddon.Options{})
		start := time.Now()
		waitFor(t, "the silent close", func() bool { return len(r.ev.of(events.PeerRefused)) > 0 })
		if waited := time.Since(start); waited < 1500*time.Millisecond {
			t.Errorf("closed after %s; the contract waits 2 s for cmd_auth", waited)
		}
		if got := r.ev.of(events.PeerRefused)[0]; got.Fields["reason"] != "no_token" {
			t.Fatalf("event %+v", got)
		}
		if len(a.Notices()) != 0 {
			t.Errorf("a missing token is closed without a notice; got %+v", a.Notices())
		}
		if r.b.Connected() {
			t.Fatal("an unauthenticated editor is attached")
		}
	})
	t.Run("harmless without a host token", func(t *testing.T) {
		r := newRig(t, bridge.Options{})
		r.addon(fakeaddon.Options{Token: token})
		r.attached()
		if _, err := r.b.Request(ctx, "cmd_ping", nil, 0); err != nil {
			t.Fatal(err)
		}
	})
}

func TestHelloDrivesTheGodotVersion(t *testing.T) {
	r := newRig(t, bridge.Options{})
	a := r.addon(fakeaddon.Options{GodotVersion: "4.3.0-stable", ProjectPath: "/p/one/"})
	r.attached()
	if p, _ := r.lastPeer(); p.GodotVersion != "4.3.0-stable" || p.ProjectPath != "/p/one/" {
		t.Fatalf("peer %+v", p)
	}
	a.Close()
	waitFor(t, "the detach", func() bool { p, _ := r.lastPeer(); return p == nil })

	// An addon older than the hello: the version comes from cmd_get_addon_info.
	r.addon(fakeaddon.Options{GodotVersion: "4.5.1-stable", NoHello: true})
	waitFor(t, "the version from addon info", func() bool {
		p, _ := r.lastPeer()
		return p != nil && p.GodotVersion == "4.5.1-stable"
	})
}

func TestReplacement(t *testing.T) {
	r := newRig(t, bridge.Options{})
	first := r.addon(fakeaddon.Options{ProjectPath: "/p/first/", Handlers: slow})
	r.attached()

	pending := make(chan error, 1)
	go func() {
		_, err := r.b.Request(ctx, "cmd_slow", nil, time.Hour)
		pending <- err
	}()
	waitFor(t, "the slow command to reach the first editor", func() bool { return len(first.Calls("cmd_slow")) == 1 })

	second := r.addon(fakeaddon.Options{ProjectPath: "/p/second/"})
	e := sdkErr(t, <-pending, sdk.CodeBridgeDisconnected)
	if !strings.Contains(e.Message, "Replaced by a new editor connection.") {
		t.Errorf("message %q", e.Message)
	}
	if err := first.WaitStatus(fakeaddon.Replaced, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	n := first.Notices()
	if len(n) != 1 || n[0].Error != "PEER_REPLACED" || !strings.Contains(n[0].Hint, "took over") {
		t.Fatalf("notices %+v", n)
	}
	waitFor(t, "the replacement event", func() bool { return len(r.ev.of(events.PeerReplaced)) == 1 })
	ev := r.ev.of(events.PeerReplaced)[0]
	if ev.Fields["previous_project_path"] != "/p/first/" || ev.Fields["project_path"] != "/p/second/" {
		t.Fatalf("event %+v", ev)
	}
	if !hasLine(r.log.String(), "previous_project=/p/first/ project=/p/second/") {
		t.Errorf("no log line names both projects:\n%s", r.log.String())
	}
	if _, err := r.b.Request(ctx, "cmd_ping", nil, 0); err != nil {
		t.Fatal(err)
	}
	if len(second.Calls("cmd_ping")) != 1 || len(first.Calls("cmd_ping")) != 0 {
		t.Fatal("the request did not go to the new editor")
	}
	time.Sleep(100 * time.Millisecond) // the replaced editor must not come back
	if first.Connects() != 1 {
		t.Fatalf("the replaced editor reconnected %d times", first.Connects()-1)
	}
	if st := r.b.Status(); st.Replacements != 1 || st.ProjectPath != "/p/second/" {
		t.Fatalf("status %+v", st)
	}
}

func TestDisconnectFailsPending(t *testing.T) {
	r := newRig(t, bridge.Options{})
	a := r.addon(fakeaddon.Options{Handlers: slow})
	r.attached()
	var wg sync.WaitGroup
	errs := make(chan error, 5)
	for range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := r.b.Request(ctx, "cmd_slow", nil, time.Hour)
			errs <- err
		}()
	}
	waitFor(t, "five pending requests", func() bool { return r.b.Status().InFlight == 5 && len(a.Calls("cmd_slow")) == 5 })
	a.Drop()
	wg.Wait()
	close(errs)
	for err := range errs {
		sdkErr(t, err, sdk.CodeBridgeDisconnected)
	}
}

func TestTimeouts(t *testing.T) {
	r := newRig(t, bridge.Options{Timeout: 150 * time.Millisecond})
	r.addon(fakeaddon.Options{Handlers: slow})
	r.attached()
	_, err := r.b.Request(ctx, "cmd_slow", nil, 0) // the default
	e := sdkErr(t, err, sdk.CodeTimeout)
	if !strings.Contains(e.Message, "150ms") {
		t.Errorf("message %q does not name the timeout", e.Message)
	}
	_, err = r.b.Request(ctx, "cmd_slow", nil, 30*time.Millisecond) // per call
	e = sdkErr(t, err, sdk.CodeTimeout)
	if !strings.Contains(e.Message, "30ms") {
		t.Errorf("message %q", e.Message)
	}
	if st := r.b.Status(); st.InFlight != 0 || !strings.Contains(st.LastError, "TIMEOUT") {
		t.Fatalf("status %+v", st)
	}
	// The caller's own cancellation is not a timeout.
	cctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if _, err := r.b.Request(cctx, "cmd_slow", nil, time.Hour); err != context.DeadlineExceeded {
		t.Fatalf("err %v", err)
	}
	// The link survives all of it.
	if _, err := r.b.Request(ctx, "cmd_ping", nil, 0); err != nil {
		t.Fatal(err)
	}
}

func TestDefaultTimeoutIsTenSeconds(t *testing.T) {
	if bridge.DefaultTimeout != 10*time.Second {
		t.Fatalf("DefaultTimeout %s", bridge.DefaultTimeout)
	}
}

func TestRepliesAndErrors(t *testing.T) {
	r := newRig(t, bridge.Options{Timeout: 200 * time.Millisecond})
	a := r.addon(fakeaddon.Options{Handlers: map[string]fakeaddon.Handler{"cmd_x": func(map[string]any) fakeaddon.Reply { return fakeaddon.OK(nil) }}})
	r.attached()
	cases := []struct {
		name  string
		reply fakeaddon.Reply
		code  string
		hint  string
		req   string
	}{
		// The addon's failures, as agents see them (addonerr.Refusal): its
		// words are in the message, the code is the SDK's, required kept.
		{"addon precondition", fakeaddon.Fail("PRECONDITION_FAILED", "No scene is open.", "active_scene"), "PRECONDITION_FAILED", "No scene is open.", "active_scene"},
		{"addon not found", fakeaddon.Fail("RESOURCE_NOT_FOUND", "No node at 'X'.", "node_path"), sdk.CodeNotFound, "No node at 'X'.", "node_path"},
		{"addon validation", fakeaddon.Fail("VALIDATION_ERROR", "count must be >= 1"), sdk.CodeInvalidArgument, "count must be >= 1", ""},
		{"crashed handler", fakeaddon.Crash(), sdk.CodeInternalError, "'cmd_x' failed inside the addon", ""},
		{"reply without ok", fakeaddon.Raw(`{"id":"{{id}}","result":{}}`), sdk.CodeInternalError, "GDScript error", ""},
		{"ok not a bool", fakeaddon.Raw(`{"id":"{{id}}","ok":"yes","result":{}}`), sdk.CodeInternalError, "GDScript error", ""},
		{"result not an object", fakeaddon.Raw(`{"id":"{{id}}","ok":true,"result":[1]}`), sdk.CodeInternalError, "GDScript error", ""},
		{"failure without code", fakeaddon.Raw(`{"id":"{{id}}","ok":false}`), sdk.CodeInternalError, "GDScript error", ""},
		{"junk times out", fakeaddon.Raw(`this is not json`), sdk.CodeTimeout, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a.Handle("cmd_x", func(map[string]any) fakeaddon.Reply { return c.reply })
			start := time.Now()
			_, err := r.b.Request(ctx, "cmd_x", nil, 0)
			e := sdkErr(t, err, c.code)
			if !strings.Contains(e.Message+e.Hint, c.hint) || e.Required != c.req {
				t.Fatalf("error %+v", e)
			}
			if c.code == sdk.CodeInternalError && time.Since(start) >= 200*time.Millisecond {
				t.Errorf("INTERNAL_ERROR came only at the timeout")
			}
		})
	}
	if !hasLine(r.log.String(), "dropped a frame from the editor") {
		t.Error("bad frames are not logged")
	}
	a.Handle("cmd_x", func(map[string]any) fakeaddon.Reply { return fakeaddon.OK(nil) })
	if raw, err := r.b.Request(ctx, "cmd_x", nil, 0); err != nil || string(raw) != "{}" {
		t.Fatalf("after bad frames: %s %v", raw, err)
	}
}

func TestStrayFramesLoseNothing(t *testing.T) {
	r := newRig(t, bridge.Options{})
	a := r.addon(fakeaddon.Options{})
	r.attached()
	for _, junk := range []string{`garbage`, `[1,2]`, `{"id":"999","ok":true,"result":{}}`, `{"command":"cmd_ping","id":"x"}`, `{"id":"","ok":false,"error":"VALIDATION_ERROR","hint":"Malformed JSON envelope."}`} {
		if err := a.Send(junk); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.b.Request(ctx, "cmd_ping", nil, 0); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the log lines", func() bool { return hasLine(r.log.String(), "could not read a frame from the host") })
	if !r.b.Connected() {
		t.Fatal("stray frames dropped the editor")
	}
}

func TestParamsMustBeAnObject(t *testing.T) {
	r := newRig(t, bridge.Options{})
	r.addon(fakeaddon.Options{})
	r.attached()
	for _, p := range []any{[]int{1}, json.RawMessage(`"x"`), json.RawMessage(`{bad`)} {
		_, err := r.b.Request(ctx, "cmd_ping", p, 0)
		sdkErr(t, err, sdk.CodeInvalidArgument)
	}
	if _, err := r.b.Request(ctx, "cmd_ping", json.RawMessage(` {} `), 0); err != nil {
		t.Fatal(err)
	}
}

func TestBigFrames(t *testing.T) {
	if testing.Short() {
		t.Skip("moves 32 MiB frames")
	}
	r := newRig(t, bridge.Options{})
	// Host → editor: a command frame of exactly 32 MiB.
	head, tail := `{"data":"`, `"}`
	frameHead := `{"id":"99","command":"cmd_big","params":`
	data := strings.Repeat("A", bigFrame-len(frameHead)-len(head)-len(tail)-1)
	params := json.RawMessage(head + data + tail)
	// Editor → host: a reply of exactly 32 MiB, like a large screenshot.
	replyHead, replyTail := `{"id":"{{id}}","ok":true,"result":{"base64":"`, `"}}`
	reply := replyHead + strings.Repeat("B", bigFrame-len(replyHead)-len(replyTail)+len("{{id}}")-2) + replyTail
	r.addon(fakeaddon.Options{Handlers: map[string]fakeaddon.Handler{
		"cmd_big": func(p map[string]any) fakeaddon.Reply {
			s, _ := p["data"].(string)
			return fakeaddon.OK(map[string]any{"len": len(s)})
		},
		"cmd_screenshot": func(map[string]any) fakeaddon.Reply { return fakeaddon.Raw(reply) },
	}})
	r.attached()
	raw, err := r.b.Request(ctx, "cmd_big", params, 60*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf(`{"len":%d}`, len(data)); string(raw) != want {
		t.Fatalf("got %s, want %s", raw, want)
	}
	// The reply frame is bigFrame bytes with a two-digit id, one less with
	// a one-digit id.
	raw, err = r.b.Request(ctx, "cmd_screenshot", nil, 60*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if want := bigFrame - len(`{"id":"NN","ok":true,"result":`) - 1; len(raw) != want {
		t.Fatalf("result of %d bytes, want %d", len(raw), want)
	}
	over := strings.Repeat("A", bridge.MaxFrame)
	_, err = r.b.Request(ctx, "cmd_big", json.RawMessage(head+over+tail), 0)
	sdkErr(t, err, sdk.CodeInvalidArgument)
}

// TestSlowEditorManyInFlight: an editor that handles one command per frame,
// with a hundred requests in flight; every reply reaches its own caller.
func TestSlowEditorManyInFlight(t *testing.T) {
	r := newRig(t, bridge.Options{})
	a := r.addon(fakeaddon.Options{Frame: time.Millisecond, PerFrame: 1, Handlers: map[string]fakeaddon.Handler{
		"cmd_echo": func(p map[string]any) fakeaddon.Reply { return fakeaddon.OK(map[string]any{"n": p["n"]}) },
	}})
	r.attached()
	const n = 100
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			raw, err := r.b.Request(ctx, "cmd_echo", map[string]int{"n": i}, 0)
			if err != nil {
				errs <- err
				return
			}
			if want := fmt.Sprintf(`{"n":%d}`, i); string(raw) != want {
				errs <- fmt.Errorf("request %d got %s", i, raw)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := len(a.Calls("cmd_echo")); got != n {
		t.Fatalf("%d calls", got)
	}
}

func TestDockPushes(t *testing.T) {
	var mu sync.Mutex
	set := []string{"core", "inspection"}
	current := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), set...)
	}
	r := newRig(t, bridge.Options{Enabled: current})
	a := r.addon(fakeaddon.Options{})
	waitFor(t, "the push on connect", func() bool {
		got, _ := a.Toolsets()
		return strings.Join(got, ",") == "core,inspection"
	})
	for _, next := range [][]string{{"core", "inspection", "scene_edit"}, {"core", "scene_edit"}, {"core"}} {
		mu.Lock()
		set = next
		mu.Unlock()
		r.b.PushToolsets(next)
		waitFor(t, "the dock to show "+strings.Join(next, ","), func() bool {
			got, _ := a.Toolsets()
			return strings.Join(got, ",") == strings.Join(next, ",")
		})
	}
	if _, pushes := a.Toolsets(); pushes != 4 {
		t.Errorf("%d pushes for 1 connect and 3 toggles", pushes)
	}
}

// TestPushNeverBlocks: a stalled editor must not stall a toggle.
func TestPushNeverBlocks(t *testing.T) {
	r := newRig(t, bridge.Options{})
	a := r.addon(fakeaddon.Options{})
	block := make(chan struct{})
	a.Handle("cmd_toolsets_update", func(map[string]any) fakeaddon.Reply { <-block; return fakeaddon.OK(nil) })
	r.attached()
	done := make(chan struct{})
	go func() {
		for i := range 1000 {
			r.b.PushToolsets([]string{"core", fmt.Sprint(i)})
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("PushToolsets blocked on a stalled editor")
	}
	close(block)
	a.Remove("cmd_toolsets_update")
}

func TestDrift(t *testing.T) {
	r := newRig(t, bridge.Options{})
	a := r.addon(fakeaddon.Options{AddonVersion: "0.8.0"})
	r.attached()
	waitFor(t, "the addon info", func() bool { return r.b.Status().AddonCommands > 0 })
	_, err := r.b.Request(ctx, "cmd_from_the_future", nil, 0)
	e := sdkErr(t, err, sdk.CodePreconditionFailed)
	if e.Required != "addon_command" || !strings.Contains(e.Message, "0.8.0") || !strings.Contains(e.Hint, "update the godot-mcp addon") {
		t.Fatalf("error %+v", e)
	}
	if len(a.Calls("cmd_from_the_future")) != 0 {
		t.Fatal("a command the addon lacks was sent")
	}
	if d := r.b.Status().Drift; len(d) != 1 || d[0] != "cmd_from_the_future" {
		t.Fatalf("drift %v", d)
	}

	// Without a command list (an older addon) the command is sent; the
	// addon's "Unknown command" is the same refusal, quoting its answer,
	// and the command is drift from then on.
	r2 := newRig(t, bridge.Options{})
	r2.addon(fakeaddon.Options{NoAddonInfo: true, AddonVersion: "0.7.0"})
	r2.attached()
	_, err = r2.b.Request(ctx, "cmd_from_the_future", nil, 0)
	e = sdkErr(t, err, sdk.CodePreconditionFailed)
	if e.Required != "addon_command" || !strings.Contains(e.Message, "Unknown command 'cmd_from_the_future'.") ||
		!strings.Contains(e.Message, "0.7.0") || !strings.Contains(e.Hint, "update the godot-mcp addon") {
		t.Fatalf("error %+v", e)
	}
	if d := r2.b.Status().Drift; len(d) != 1 || d[0] != "cmd_from_the_future" {
		t.Fatalf("drift %v", d)
	}
}

func TestStatus(t *testing.T) {
	r := newRig(t, bridge.Options{Token: "t"})
	st := r.b.Status()
	if !st.Listening || st.Connected || !st.AuthRequired || st.URL != r.url || st.AddonCommands != -1 {
		t.Fatalf("status %+v", st)
	}
	r.addon(fakeaddon.Options{Token: "t", ProjectPath: "/p/x/", GodotVersion: "4.6-stable", AddonVersion: "1.0"})
	r.attached()
	waitFor(t, "the handshake", func() bool { return r.b.Status().CommandsSent >= 2 })
	st = r.b.Status()
	if !st.Connected || st.ProjectPath != "/p/x/" || st.GodotVersion != "4.6-stable" || st.AddonVersion != "1.0" ||
		st.ConnectedAt == nil || st.AddonCommands < 5 {
		t.Fatalf("status %+v", st)
	}
	b, _ := json.Marshal(st)
	if strings.Contains(string(b), `"t"`) {
		t.Fatalf("the status shows the token: %s", b)
	}
}

func TestOptions(t *testing.T) {
	for _, c := range []struct {
		url, token, err string
	}{
		{"ws://0.0.0.0:9080", "", bridge.TokenEnv},
		{"ws://192.168.1.5:9080", "", "not a loopback"},
		{"http://127.0.0.1:9080", "", "ws://"},
		{"ws://:9080", "", "no host"},
	} {
		_, err := bridge.New(bridge.Options{URL: c.url, Token: c.token})
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: err %v, want it to mention %q", c.url, err, c.err)
		}
	}
	b, err := bridge.New(bridge.Options{URL: "ws://0.0.0.0:9080", Token: "x"})
	if err != nil {
		t.Fatal(err)
	}
	_ = b.Close()
	b, err = bridge.New(bridge.Options{URL: "ws://localhost:9999/any/path"})
	if err != nil {
		t.Fatal(err)
	}
	_ = b.Close()
}

// TestPortTaken: a second host on the same port keeps running without an
// editor, says why, and takes over when the port frees up.
func TestPortTaken(t *testing.T) {
	r := newRig(t, bridge.Options{})
	b2, err := bridge.New(bridge.Options{URL: r.url})
	if err != nil {
		t.Fatal(err)
	}
	defer b2.Close()
	if err := b2.Start(bridge.Hooks{}); err == nil || !strings.Contains(err.Error(), "--bridge") {
		t.Fatalf("err %v", err)
	}
	st := b2.Status()
	if st.Listening || st.ListenError == "" {
		t.Fatalf("status %+v", st)
	}
	_, err = b2.Request(ctx, "cmd_ping", nil, 0)
	if e := sdkErr(t, err, sdk.CodeBridgeDisconnected); !strings.Contains(e.Message, "not listening") {
		t.Fatalf("error %v", e)
	}
}

// TestBrowserOriginRefused: a web page must not reach the editor through the
// loopback port.
func TestBrowserOriginRefused(t *testing.T) {
	r := newRig(t, bridge.Options{})
	_, resp, err := websocket.Dial(ctx, r.url, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"http://evil.example"}}})
	if err == nil {
		t.Fatal("a cross-origin browser connection was accepted")
	}
	if resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("response %v", resp)
	}
}

// TestHostEditor: a plugin's Call.Editor goes through the bridge and gets
// the addon's result unchanged, and its failure as agents see it
// (addonerr.Refusal: RESOURCE_NOT_FOUND is NOT_FOUND, the addon's words in
// the message).
func TestHostEditor(t *testing.T) {
	r := newRig(t, bridge.Options{})
	r.addon(fakeaddon.Options{Handlers: map[string]fakeaddon.Handler{
		"cmd_slow": slow["cmd_slow"],
		"cmd_get_node_properties": func(p map[string]any) fakeaddon.Reply {
			if p["node_path"] == "Missing" {
				return fakeaddon.Fail("RESOURCE_NOT_FOUND", "No node at 'Missing'.")
			}
			return fakeaddon.OK(map[string]any{"node_path": p["node_path"]})
		}}})
	r.attached()
	he := r.b.HostEditor()
	resp, err := he.Command(ctx, &pb.EditorRequest{Command: "cmd_get_node_properties", ParamsJson: []byte(`{"node_path":"Player"}`)})
	if err != nil || !resp.GetOk() || string(resp.GetResultJson()) != `{"node_path":"Player"}` {
		t.Fatalf("%v %v", resp, err)
	}
	resp, err = he.Command(ctx, &pb.EditorRequest{Command: "cmd_get_node_properties", ParamsJson: []byte(`{"node_path":"Missing"}`)})
	if err != nil || resp.GetOk() || resp.GetError().GetCode() != sdk.CodeNotFound ||
		resp.GetError().GetMessage() != "the Godot editor refused cmd_get_node_properties: No node at 'Missing'." || resp.GetError().GetHint() == "" {
		t.Fatalf("%v %v", resp, err)
	}
	// The plugin's deadline is the request's timeout.
	dctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	resp, _ = he.Command(dctx, &pb.EditorRequest{Command: "cmd_slow"})
	if resp.GetError().GetCode() != sdk.CodeTimeout {
		t.Fatalf("deadline: %v", resp)
	}
	_ = r.b.Close()
	resp, _ = he.Command(ctx, &pb.EditorRequest{Command: "cmd_ping"})
	if resp.GetError().GetCode() != sdk.CodeBridgeDisconnected {
		t.Fatalf("after close: %v", resp)
	}
}

// stalledEditor connects, says hello and then never reads again, like an
// editor frozen in a breakpoint: the socket's buffers fill up.
func stalledEditor(t *testing.T, url string) {
	t.Helper()
	c, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.CloseNow() })
	hello := `{"id":"peer_hello","command":"cmd_peer_hello","params":{"project_path":"/p/frozen/","godot_version":"4.4","addon_version":"1"}}`
	if err := c.Write(ctx, websocket.MessageText, []byte(hello)); err != nil {
		t.Fatal(err)
	}
}

func TestStalledEditor(t *testing.T) {
	t.Run("a big frame times out and drops the editor", func(t *testing.T) {
		r := newRig(t, bridge.Options{})
		stalledEditor(t, r.url)
		r.attached()
		big := json.RawMessage(`{"data":"` + strings.Repeat("A", 16<<20) + `"}`)
		_, err := r.b.Request(ctx, "cmd_big", big, 300*time.Millisecond)
		sdkErr(t, err, sdk.CodeTimeout)
		waitFor(t, "the stalled editor to be dropped", func() bool { return !r.b.Connected() })
	})
	t.Run("the watchdog drops an editor that stopped reading", func(t *testing.T) {
		r := newRig(t, bridge.Options{Timeout: 300 * time.Millisecond})
		stalledEditor(t, r.url)
		r.attached()
		frame := json.RawMessage(`{"data":"` + strings.Repeat("A", 60<<10) + `"}`) // below the per-write deadline size
		var wg sync.WaitGroup
		errs := make(chan error, 400)
		for range 400 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := r.b.Request(ctx, "cmd_fill", frame, time.Hour)
				errs <- err
			}()
		}
		wg.Wait() // returns only because the watchdog closed the socket
		close(errs)
		for err := range errs {
			sdkErr(t, err, sdk.CodeBridgeDisconnected)
		}
		if !strings.Contains(r.b.Status().LastError, "has not read a frame") && !hasLine(r.log.String(), "has not read a frame") {
			t.Errorf("no word of the stall:\n%s", r.log.String())
		}
	})
}
