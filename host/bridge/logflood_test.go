package bridge_test

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/host/bridge"
	"github.com/godot-mcp/godot-mcp/internal/fakeaddon"
)

// floodCount is what the log says about a flood of lines naming msg: how
// many were logged one by one and how many the summaries counted.
func floodCount(t *testing.T, log, msg string) (logged, suppressed int) {
	t.Helper()
	re := regexp.MustCompile(`suppressed (\d+) similar log lines in the last \S+: ` + regexp.QuoteMeta(msg))
	for _, l := range strings.Split(log, "\n") {
		if !strings.Contains(l, msg) {
			continue
		}
		if m := re.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[1])
			suppressed += n
		} else {
			logged++
		}
	}
	return logged, suppressed
}

// TestLogFloodIsSummarised: junk frames from the editor and plain GETs to
// the bridge port (which any web page can send) each cost the log a few
// lines and a summary with the count, not a line apiece. Before, 200k junk
// frames wrote 26 MB and 3,000 GETs 3,000 warnings.
func TestLogFloodIsSummarised(t *testing.T) {
	const frames, gets = 20000, 3000
	r := newRig(t, bridge.Options{})
	a := r.addon(fakeaddon.Options{})
	r.attached()
	junk := []string{`garbage`, `[1,2]`, `{"command":"cmd_ping","id":"x"}`, `{"id":"999","ok":true,"result":{}}`}
	for i := 0; i < frames; i++ {
		if err := a.Send(junk[i%len(junk)]); err != nil {
			t.Fatal(err)
		}
	}
	// The editor's frames are read in order: once this answers, every
	// junk frame before it was handled.
	if _, err := r.b.Request(ctx, "cmd_ping", nil, 0); err != nil {
		t.Fatal(err)
	}
	client := &http.Client{}
	for i := 0; i < gets; i++ {
		resp, err := client.Get("http://" + r.b.Addr() + "/")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUpgradeRequired {
			t.Fatalf("GET: status %d", resp.StatusCode)
		}
	}
	if !r.b.Connected() {
		t.Fatal("the flood dropped the editor")
	}
	_ = r.b.Close() // the last summaries
	log := r.log.String()
	if n := strings.Count(log, "\n"); n > 200 || len(log) > 64<<10 {
		t.Fatalf("the flood wrote %d lines (%d bytes) to the log:\n%.3000s", n, len(log), log)
	}
	for _, c := range []struct {
		msg  string
		want int
	}{
		{"editor bridge: dropped a frame from the editor", frames * 3 / 4},
		{"editor bridge: reply for no pending request", frames / 4},
		{"editor bridge: refused a request that is not from the addon", gets},
	} {
		logged, suppressed := floodCount(t, log, c.msg)
		if suppressed == 0 || logged+suppressed != c.want {
			t.Errorf("%q: %d logged + %d in summaries, want %d in all with a summary:\n%.3000s", c.msg, logged, suppressed, c.want, log)
		}
	}
	if got := r.b.Status().RefusedRequests; got != gets {
		t.Errorf("status counts %d refused requests, want %d", got, gets)
	}
}
