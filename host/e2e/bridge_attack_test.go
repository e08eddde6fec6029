package e2e

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/godot-mcp/godot-mcp/internal/fakeaddon"
)

// TestBridgeRefusesAWebPage replays the DNS-rebinding attack on the real
// host: a page at evil.com, its name re-pointed at 127.0.0.1, opens a
// WebSocket to the bridge while the real editor is attached. Before the
// fix the page became the editor: it read every command, answered
// godot_undo with its own result and replaced the real editor for good.
// Now it is refused with a 403 that says why, and the real editor keeps
// serving the agent.
func TestBridgeRefusesAWebPage(t *testing.T) {
	bu := bridgeURL(t)
	s := stdioHostEnv(t, sessionless, []string{"GODOT_MCP_BRIDGE_URL=" + bu}, "--godot-version", "4.5")
	real := attachAddon(t, s, fakeaddon.Options{URL: bu, ProjectPath: "/p/real/", GodotVersion: "4.5.1-stable"})
	real.SetHistory("Create Hero")

	u, _ := url.Parse(bu)
	evil := "evil.com:" + u.Port()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, resp, err := websocket.Dial(ctx, bu, &websocket.DialOptions{Host: evil, HTTPHeader: http.Header{"Origin": {"http://" + evil}}})
	if err == nil {
		// What the page did with its socket: announce itself as Godot
		// 3.5 and answer whatever it is sent.
		_ = c.Write(ctx, websocket.MessageText, []byte(`{"id":"peer_hello","command":"cmd_peer_hello","params":{"project_path":"/evil/","godot_version":"3.5-stable"}}`))
		c.CloseNow()
		t.Fatal("the bridge accepted a WebSocket from a web page")
	}
	if resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("response %v, want 403", resp)
	}
	// The same request by hand, to read the body the page (and a user
	// looking at the browser's console) gets.
	req, _ := http.NewRequest(http.MethodGet, "http://"+u.Host+"/", nil)
	req.Host = evil
	for k, v := range map[string]string{"Origin": "http://" + evil, "Connection": "Upgrade", "Upgrade": "websocket",
		"Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="} {
		req.Header.Set(k, v)
	}
	hr, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(hr.Body)
	hr.Body.Close()
	if hr.StatusCode != http.StatusForbidden || !strings.Contains(string(body), "Origin") || !strings.Contains(string(body), "addon") {
		t.Fatalf("refusal %d %q", hr.StatusCode, body)
	}

	var undo map[string]any
	s.ok(t, "godot_undo", map[string]any{"dry_run": true}, &undo)
	if undo["would_undo_next"] != "Create Hero" || len(real.Calls("cmd_undo")) != 1 {
		t.Fatalf("godot_undo did not reach the real editor: %v", undo)
	}
	var info struct {
		Godot  struct{ Version string } `json:"godot"`
		Editor struct {
			Connected       bool   `json:"connected"`
			ProjectPath     string `json:"project_path"`
			Replacements    int    `json:"replacements"`
			RefusedRequests int    `json:"refused_requests"`
		} `json:"editor"`
	}
	s.ok(t, "godot_get_server_info", nil, &info)
	if !info.Editor.Connected || info.Editor.ProjectPath != "/p/real/" || info.Editor.Replacements != 0 ||
		info.Editor.RefusedRequests < 2 || info.Godot.Version != "4.5.1-stable" {
		t.Fatalf("server info %+v", info)
	}
	if real.Status() == fakeaddon.Replaced || len(real.Notices()) != 0 {
		t.Fatalf("the real editor was disturbed: %v %+v", real.Status(), real.Notices())
	}
}

// TestBridgeLogFlood floods the real host's bridge the two ways that
// flooded its log: junk frames from the editor's socket and plain GETs to
// the bridge port (any web page can send those). Before, 200k frames wrote
// 26 MB to the log and 3,000 GETs 3,000 warnings; now each flood costs a
// few lines and a summary that counts it.
func TestBridgeLogFlood(t *testing.T) {
	const frames, gets = 20000, 3000
	bu := bridgeURL(t)
	s := stdioHostEnv(t, sessionless, []string{"GODOT_MCP_BRIDGE_URL=" + bu}, "--godot-version", "4.5")
	ed := attachAddon(t, s, fakeaddon.Options{URL: bu, ProjectPath: "/p/real/"})
	for i := 0; i < frames; i++ {
		if err := ed.Send(`{"junk":` + strconv.Itoa(i) + `}`); err != nil {
			t.Fatal(err)
		}
	}
	u, _ := url.Parse(bu)
	client := &http.Client{}
	for i := 0; i < gets; i++ {
		resp, err := client.Get("http://" + u.Host + "/")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUpgradeRequired {
			t.Fatalf("GET: status %d", resp.StatusCode)
		}
	}
	// Frames are read in order: once the editor answers the undo tool,
	// every junk frame before its reply was handled.
	var hist map[string]any
	s.ok(t, "godot_list_history", nil, &hist)
	s.Close() // the host exits, and its bridge logs the last summaries
	log := s.stderr.String()
	if n := strings.Count(log, "\n"); n > 200 || len(log) > 64<<10 {
		t.Fatalf("the flood wrote %d lines (%d bytes) to the host log:\n%.3000s", n, len(log), log)
	}
	for _, c := range []struct {
		msg  string
		want int
	}{
		{"editor bridge: dropped a frame from the editor", frames},
		{"editor bridge: refused a request that is not from the addon", gets},
	} {
		logged, suppressed := 0, 0
		re := regexp.MustCompile(`suppressed (\d+) similar log lines in the last \S+: ` + regexp.QuoteMeta(c.msg))
		for _, l := range strings.Split(log, "\n") {
			if !strings.Contains(l, c.msg) {
				continue
			}
			if m := re.FindStringSubmatch(l); m != nil {
				n, _ := strconv.Atoi(m[1])
				suppressed += n
			} else {
				logged++
			}
		}
		if suppressed == 0 || logged+suppressed != c.want {
			t.Errorf("%q: %d logged + %d in summaries, want %d with a summary:\n%.3000s", c.msg, logged, suppressed, c.want, log)
		}
	}
}

// TestBridgeTokenFile: once `godot-mcp bridge-token` has created this
// user's token, the host requires it; an editor started as the docs say
// attaches, one without it is refused and the host log says how to pass it.
func TestBridgeTokenFile(t *testing.T) {
	cfg := t.TempDir()
	cmd := exec.Command(bin, "bridge-token")
	cmd.Env = hostEnv("", "XDG_CONFIG_HOME="+cfg)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bridge-token: %v", err)
	}
	token := strings.TrimSpace(string(out))
	bu := bridgeURL(t)
	s := stdioHostEnv(t, sessionless, []string{"GODOT_MCP_BRIDGE_URL=" + bu, "XDG_CONFIG_HOME=" + cfg}, "--godot-version", "4.5")

	bare := fakeaddon.Start(fakeaddon.Options{URL: bu, RetryMin: 50 * time.Millisecond, RetryMax: 100 * time.Millisecond})
	const fix = `GODOT_MCP_BRIDGE_TOKEN="$(godot-mcp bridge-token)"`
	waitUntil(t, "the refusal in the host log", func() bool { return strings.Contains(s.stderr.String(), fix) })
	bare.Close()
	var info struct {
		Editor struct {
			Connected    bool   `json:"connected"`
			AuthRequired bool   `json:"auth_required"`
			TokenFile    string `json:"token_file"`
		} `json:"editor"`
	}
	s.ok(t, "godot_get_server_info", nil, &info)
	if info.Editor.Connected || !info.Editor.AuthRequired || !strings.HasPrefix(info.Editor.TokenFile, cfg) {
		t.Fatalf("server info %+v", info)
	}
	attachAddon(t, s, fakeaddon.Options{URL: bu, Token: token, ProjectPath: "/p/real/"})
	if strings.Contains(s.stderr.String(), token) {
		t.Fatal("the token appears in the host log")
	}
}
