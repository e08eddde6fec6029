package gamesession

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
)

func setDir(t *testing.T) string {
	t.Helper()
	d := filepath.Join(t.TempDir(), "games") // created 0700 by Dir
	t.Setenv(DirEnv, d)
	return d
}

func TestPublishAttachCall(t *testing.T) {
	dir := setDir(t)
	root := t.TempDir()
	var got []string
	pub, err := Publish(Info{Project: root, Scene: "res://main.tscn", FixedFPS: 60}, func(ctx context.Context, cmd string, params json.RawMessage) (json.RawMessage, error) {
		got = append(got, cmd+" "+string(params))
		if cmd == "bad" {
			return nil, &sdk.Error{Code: sdk.CodeInvalidArgument, Message: "no", Hint: "fix it"}
		}
		if cmd == "slow" {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return json.RawMessage(`{"ok":true,"n":3}`), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{filepath.Base(pub.entryPath), filepath.Base(pub.sockPath)} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", name, fi.Mode().Perm())
		}
	}
	c, err := Attach(root)
	if err != nil {
		t.Fatal(err)
	}
	if c.Info().Scene != "res://main.tscn" || c.Info().FixedFPS != 60 {
		t.Errorf("info = %+v", c.Info())
	}
	var out struct {
		OK bool `json:"ok"`
		N  int  `json:"n"`
	}
	if err := c.Call(context.Background(), "ping", map[string]any{"a": 1}, &out); err != nil || !out.OK || out.N != 3 {
		t.Fatalf("ping = %+v, %v", out, err)
	}
	if len(got) != 1 || got[0] != `ping {"a":1}` {
		t.Errorf("relayed %q", got)
	}
	var se *sdk.Error
	if err := c.Call(context.Background(), "bad", nil, nil); !errors.As(err, &se) || se.Code != sdk.CodeInvalidArgument || se.Hint != "fix it" {
		t.Errorf("bad = %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if err := c.Call(ctx, "slow", nil, nil); !errors.As(err, &se) || se.Code != sdk.CodeTimeout {
		t.Errorf("slow = %v", err)
	}

	pub.Close()
	if _, err := os.Stat(pub.entryPath); !os.IsNotExist(err) {
		t.Errorf("entry still there after Close: %v", err)
	}
	if err := c.Call(context.Background(), "ping", nil, nil); !errors.As(err, &se) || se.Required != RequiredSession {
		t.Errorf("after Close = %v", err)
	}
	if _, err := Attach(root); !errors.As(err, &se) || se.Required != RequiredSession {
		t.Errorf("Attach after Close = %v", err)
	}
}

func TestStaleEntryIsRemoved(t *testing.T) {
	dir := setDir(t)
	if _, err := Dir(); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	path := filepath.Join(dir, key(root)+".json")
	// A pid that cannot exist: the plugin that wrote it is gone.
	data, _ := json.Marshal(entry{Info: Info{Project: root}, PID: 1 << 30, Socket: filepath.Join(dir, "x.sock"), Token: "t"})
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	var se *sdk.Error
	if _, err := Attach(root); !errors.As(err, &se) || se.Code != sdk.CodePreconditionFailed || se.Required != RequiredSession {
		t.Fatalf("Attach = %v", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("stale entry kept: %v", err)
	}
}

func TestDirRefusesOpenPermissions(t *testing.T) {
	d := t.TempDir()
	if err := os.Chmod(d, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(DirEnv, d)
	if _, err := Dir(); err == nil {
		t.Fatal("Dir accepted a directory other users can read")
	}
}

func TestNewerPublicationKeepsItsEntry(t *testing.T) {
	setDir(t)
	root := t.TempDir()
	echo := func(string) CallFunc {
		return func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(`{}`), nil
		}
	}
	old, err := Publish(Info{Project: root, Scene: "res://a.tscn"}, echo("a"))
	if err != nil {
		t.Fatal(err)
	}
	cur, err := Publish(Info{Project: root, Scene: "res://b.tscn"}, echo("b"))
	if err != nil {
		t.Fatal(err)
	}
	defer cur.Close()
	old.Close()
	c, err := Attach(root)
	if err != nil {
		t.Fatal(err)
	}
	if c.Info().Scene != "res://b.tscn" {
		t.Errorf("scene = %q", c.Info().Scene)
	}
	if err := c.Call(context.Background(), "ping", nil, nil); err != nil {
		t.Fatal(err)
	}
}

// The deadline travels with the request, so the game's side may see it
// pass before the caller does; the answer must still say TIMEOUT, not a
// bare "context deadline exceeded" tool error (this raced in CI).
func TestServerSideDeadlineIsATimeout(t *testing.T) {
	setDir(t)
	pub, err := Publish(Info{Project: t.TempDir()}, func(ctx context.Context, cmd string, params json.RawMessage) (json.RawMessage, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()
	conn, err := net.Dial("unix", pub.sockPath)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	req, _ := json.Marshal(request{Token: pub.token, Cmd: "slow", TimeoutMS: 30})
	if _, err := conn.Write(append(req, '\n')); err != nil {
		t.Fatal(err)
	}
	line, err := readLine(bufio.NewReader(conn))
	if err != nil {
		t.Fatal(err)
	}
	var a answer
	if err := json.Unmarshal(line, &a); err != nil || a.Error == nil {
		t.Fatalf("answer %s, %v", line, err)
	}
	if a.Error.Code != sdk.CodeTimeout {
		t.Errorf("code = %s (%s), want %s", a.Error.Code, a.Error.Message, sdk.CodeTimeout)
	}
}
