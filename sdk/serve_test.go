package sdk_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk/manifest"
	"github.com/godot-mcp/godot-mcp/sdk/wire"
)

// runFixture runs the fixture binary with args and extra environment.
func runFixture(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(fixtureBin, args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		t.Fatalf("running fixture: %v", err)
	}
	return out.String(), errb.String(), code
}

func TestDescribe(t *testing.T) {
	stdout, stderr, code := runFixture(t, nil, "--describe")
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	var m manifest.Manifest
	if err := json.Unmarshal([]byte(stdout), &m); err != nil {
		t.Fatalf("stdout is not a manifest: %v\n%s", err, stdout)
	}
	if err := m.Validate(); err != nil {
		t.Fatalf("manifest invalid: %v", err)
	}
	if m.Name != "fixture" || m.Version != "1.2.3" || m.Godot != ">= 4.2" || !strings.HasPrefix(m.SDK, "godot-mcp-sdk-go/") {
		t.Errorf("manifest %+v", m)
	}
	if len(m.Tools) != 1 || m.Tools[0].Name != "echo" || m.Tools[0].SafetyClass != manifest.ReadOnly {
		t.Errorf("tools %+v", m.Tools)
	}
	if !strings.Contains(stdout, "\n  \"name\"") || strings.Contains(stdout, `\u003e`) {
		t.Errorf("want indented JSON without HTML escapes:\n%s", stdout)
	}
}

func TestRunByHand(t *testing.T) {
	tests := []struct {
		name string
		env  []string
		args []string
	}{
		{"no cookie", nil, nil},
		{"help", []string{wire.Handshake.MagicCookieKey + "=" + wire.Handshake.MagicCookieValue}, []string{"--help"}},
		{"wrong cookie", []string{wire.Handshake.MagicCookieKey + "=nope"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := runFixture(t, tt.env, tt.args...)
			if code != 1 || stdout != "" {
				t.Fatalf("exit %d, stdout %q", code, stdout)
			}
			for _, want := range []string{"godot-mcp toolset plugin", "godot-mcp serve", "godot-mcp-toolset-fixture", "--describe"} {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr does not mention %q:\n%s", want, stderr)
				}
			}
		})
	}
}

func TestInvalidToolsetExits(t *testing.T) {
	stdout, stderr, code := runFixture(t, []string{"FIXTURE_INVALID=1"}, "--describe")
	if code != 1 || stdout != "" || !strings.Contains(stderr, `toolset name "Bad Name" is invalid`) {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestHandshakeAndLifeline starts the fixture the way the host does and
// checks the handshake line, then closes the lifeline and expects the
// plugin to exit on its own.
func TestHandshakeAndLifeline(t *testing.T) {
	lifeR, lifeW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := fixtureAsHostStartsIt(t, lifeR)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lifeR.Close()
	exited := make(chan error, 1)
	go func() {
		line, err := bufio.NewReader(stdout).ReadString('\n')
		if err != nil {
			t.Errorf("reading handshake: %v (stderr %s)", err, stderr.String())
		}
		if !strings.HasPrefix(line, "1|1|unix|") || !strings.HasSuffix(line, "|grpc|\n") {
			t.Errorf("handshake line %q", line)
		}
		lifeW.Close() // the host "dies"
		exited <- cmd.Wait()
	}()
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("plugin exit: %v, stderr %s", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		<-exited
		t.Fatal("plugin did not exit after its lifeline closed")
	}
}

// fixtureAsHostStartsIt is the fixture plugin's command as the host starts
// it: the handshake cookie, a socket directory of its own and lifeR as its
// lifeline on fd 3; extra environment entries are added.
func fixtureAsHostStartsIt(t *testing.T, lifeR *os.File, extra ...string) *exec.Cmd {
	cmd := exec.Command(fixtureBin)
	cmd.Env = append(append(os.Environ(),
		wire.Handshake.MagicCookieKey+"="+wire.Handshake.MagicCookieValue,
		"PLUGIN_PROTOCOL_VERSIONS=1",
		"PLUGIN_UNIX_SOCKET_DIR="+t.TempDir(),
		wire.LifelineFDEnv+"=3",
	), extra...)
	cmd.ExtraFiles = []*os.File{lifeR} // fd 3 in the child
	return cmd
}
