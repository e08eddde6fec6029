package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/godot-mcp/godot-mcp/host/pluginenv"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// maxManifestBytes bounds what --describe may print: a manifest with many
// tools and schemas is tens of KiB; anything near this is a broken binary.
const maxManifestBytes = 4 << 20

// maxDescribeStderr bounds the stderr kept to explain a failed --describe.
const maxDescribeStderr = 8 << 10

// cache maps a binary's sha256 to its manifest, one file per digest.
type cache struct {
	dir  string // "" disables caching
	log  hclog.Logger
	sums *sums // the binaries' digests, by what stat says (hashcache.go)
}

// cacheEntry is the content of one cache file. The digest is repeated so a
// file copied or renamed by hand is not trusted for another binary.
type cacheEntry struct {
	SHA256   string             `json:"sha256"`
	Manifest *manifest.Manifest `json:"manifest"`
}

func newCache(dir string, log hclog.Logger) *cache {
	if dir == "" {
		if base, err := os.UserCacheDir(); err == nil {
			dir = filepath.Join(base, "godot-mcp", "manifests")
		}
	}
	return &cache{dir: dir, log: log, sums: loadSums(dir)}
}

// manifest returns the binary's manifest from the cache, or runs
// --describe with environment env and caches the result.
func (c *cache) manifest(path, sum string, timeout time.Duration, env []string) (*manifest.Manifest, error) {
	if m := c.get(sum); m != nil {
		return m, nil
	}
	m, err := Describe(context.Background(), path, timeout, env)
	if err != nil {
		return nil, err
	}
	c.put(sum, m)
	return m, nil
}

func (c *cache) file(sum string) string { return filepath.Join(c.dir, sum+".json") }

func (c *cache) get(sum string) *manifest.Manifest {
	if c.dir == "" {
		return nil
	}
	data, err := os.ReadFile(c.file(sum))
	if err != nil {
		return nil
	}
	var e cacheEntry
	if err := json.Unmarshal(data, &e); err != nil || e.SHA256 != sum || e.Manifest == nil || e.Manifest.Validate() != nil {
		c.log.Debug("ignoring corrupt manifest cache entry", "file", c.file(sum))
		return nil
	}
	return e.Manifest
}

func (c *cache) put(sum string, m *manifest.Manifest) {
	if c.dir == "" {
		return
	}
	data, err := json.Marshal(cacheEntry{SHA256: sum, Manifest: m})
	if err == nil {
		err = os.MkdirAll(c.dir, 0o700)
	}
	if err == nil {
		err = writeFileAtomic(c.file(sum), data, 0o600)
	}
	if err != nil {
		// Only costs a --describe run next time.
		c.log.Warn("cannot cache toolset manifest", "dir", c.dir, "error", err)
	}
}

// Describe runs the binary with --describe and returns its validated
// manifest. The process gets /dev/null as stdin, runs in its own process
// group (killed as a whole on timeout) and may print at most 4 MiB. Its
// environment is env, which should come from host/pluginenv like a running
// plugin's; nil means the bare allow list (never the host's whole
// environment, which holds its secrets).
func Describe(ctx context.Context, path string, timeout time.Duration, env []string) (*manifest.Manifest, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if env == nil {
		env = pluginenv.Build(os.Environ(), pluginenv.Options{})
	}
	cmd := exec.CommandContext(ctx, path, "--describe")
	cmd.Env = env
	stdout := &boundedBuffer{max: maxManifestBytes, fail: true, onOverflow: cancel}
	stderr := &boundedBuffer{max: maxDescribeStderr}
	cmd.Stdin = nil
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	// A child that inherited stdout would keep Wait waiting after the
	// binary itself was killed.
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	if cmd.Process != nil {
		// Whatever the binary left running in its group (a child it
		// backgrounded) goes too: describing a toolset never leaves a
		// process behind. ESRCH, an empty group, is the usual answer.
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	switch {
	case stdout.overflow:
		return nil, fmt.Errorf("--describe printed more than %d bytes; a manifest is far smaller, so this is not a godot-mcp toolset", maxManifestBytes)
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return nil, fmt.Errorf("--describe did not finish within %s; the binary may not be a godot-mcp toolset", timeout)
	case err != nil:
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = "(no output on stderr)"
		}
		return nil, fmt.Errorf("--describe failed (%v): %s", err, msg)
	}
	var m manifest.Manifest
	if err := json.Unmarshal(stdout.Bytes(), &m); err != nil {
		return nil, fmt.Errorf("--describe did not print a manifest as JSON (%v); a toolset must print only its manifest to stdout, starting %q",
			err, excerpt(stdout.Bytes()))
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("invalid manifest: %w", err)
	}
	return &m, nil
}

func excerpt(b []byte) string {
	b = bytes.TrimSpace(b)
	if len(b) > 80 {
		return string(b[:80]) + "…"
	}
	return string(b)
}

// boundedBuffer keeps at most max bytes. With fail set, writing more is an
// error, which stops exec's copying and calls onOverflow (which kills the
// process); otherwise the excess is dropped. It deliberately does not embed
// bytes.Buffer: io.Copy would use the embedded ReadFrom and bypass the bound.
type boundedBuffer struct {
	buf        bytes.Buffer
	max        int
	fail       bool
	onOverflow func()
	overflow   bool
}

var errTooMuchOutput = errors.New("too much output")

func (b *boundedBuffer) Write(p []byte) (int, error) {
	room := b.max - b.buf.Len()
	if len(p) > room {
		b.overflow = true
		if b.fail {
			if b.onOverflow != nil {
				b.onOverflow()
			}
			return 0, errTooMuchOutput
		}
		b.buf.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return b.buf.Write(p)
}

func (b *boundedBuffer) Bytes() []byte  { return b.buf.Bytes() }
func (b *boundedBuffer) String() string { return b.buf.String() }
