package e2e

import (
	"bufio"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDuplicateKeysRefusedOnTheWire sends tools/call as raw JSON-RPC over
// stdio (no client library could: their objects cannot name a key twice),
// with "confirm" both false and true. A JSON decoder keeps the last of two
// equal keys, so a host that decoded naively would run a destructive tool
// the caller said not to. The call is refused with INVALID_ARGUMENT and
// the plugin never sees it.
func TestDuplicateKeysRefusedOnTheWire(t *testing.T) {
	callLog := filepath.Join(t.TempDir(), "calls.jsonl")
	cmd := exec.Command(bin, "serve", "--plugins-dir", pluginsDir, "--godot-version", "4.5", "--log-level", "error")
	cmd.Env = hostEnv(callLog, "GODOT_MCP_DEFAULT_TOOLSETS=gatetest")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"godot_gatetest_delete","arguments":{"path":"/root/a","confirm":false,"confirm":true}}}`,
	} {
		if _, err := stdin.Write([]byte(line + "\n")); err != nil {
			t.Fatal(err)
		}
	}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 1<<20)
	deadline := time.AfterFunc(20*time.Second, func() { _ = cmd.Process.Kill() })
	defer deadline.Stop()
	for sc.Scan() {
		var msg struct {
			ID     int `json:"id"`
			Result struct {
				IsError bool `json:"isError"`
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
			} `json:"result"`
		}
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil || msg.ID != 2 {
			continue
		}
		if !msg.Result.IsError || len(msg.Result.Content) == 0 ||
			!strings.HasPrefix(msg.Result.Content[0].Text, `INVALID_ARGUMENT: the arguments name "confirm" more than once`) {
			t.Fatalf("duplicate confirm: %s", sc.Bytes())
		}
		if calls := readLines(t, callLog); len(calls) != 0 {
			t.Fatalf("the plugin saw the call: %v", calls)
		}
		return
	}
	t.Fatalf("no answer to the call: %v", sc.Err())
}
