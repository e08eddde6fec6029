// Package godotrun finds a Godot binary and runs it with a deadline, in a
// process group of its own that nothing outlives, capturing a bounded part
// of its output and every error and warning it printed.
//
// The toolsets that run Godot (runtime, export, testing) share it. Finding:
// GODOT_MCP_GODOT_BIN, else the first of godot, godot4, godot3 and
// godot3-server on PATH whose major version suits the project; the version
// comes from `--version`. Running: see [Run].
package godotrun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/wire"
)

// EnvBin names the environment variable that points at the Godot binary.
const EnvBin = "GODOT_MCP_GODOT_BIN"

// Candidates are the names looked up on PATH when EnvBin is not set, in
// order of preference.
var Candidates = []string{"godot", "godot4", "godot3", "godot3-server"}

// RequiredBin is the Required token of the error a missing or unsuitable
// binary gives.
const RequiredBin = "godot_bin"

// probeTimeout bounds `godot --version` and `godot --help`.
const probeTimeout = 10 * time.Second

// Binary is a Godot executable and what it said about itself.
type Binary struct {
	// Path is the absolute path of the executable.
	Path string `json:"path"`
	// Version is what `--version` printed, such as "3.2.3.stable.custom_build".
	Version string `json:"version"`
	// Major and Minor are the leading numbers of Version.
	Major int `json:"major"`
	Minor int `json:"minor"`
	// Server is set for a Godot 3 server build, which needs no window
	// system (its only video driver is "Dummy").
	Server bool `json:"server,omitempty"`
}

// HeadlessArgs are the flags that keep this binary off any display: Godot 4
// has --headless; a Godot 3 server build needs nothing, any other Godot 3
// binary gets --no-window (it still needs a display server to start).
func (b *Binary) HeadlessArgs() []string {
	switch {
	case b.Major >= 4:
		return []string{"--headless"}
	case b.Server:
		return nil
	default:
		return []string{"--no-window"}
	}
}

// Finder finds Godot binaries and remembers what each one reported, keyed
// by path, size and modification time, so a version is probed once per
// binary, not once per call.
type Finder struct {
	// Getenv and LookPath default to os.Getenv and exec.LookPath.
	Getenv   func(string) string
	LookPath func(string) (string, error)

	mu    sync.Mutex
	cache map[string]cached
}

type cached struct {
	size  int64
	mtime time.Time
	bin   Binary
}

func (f *Finder) getenv(k string) string {
	if f.Getenv != nil {
		return f.Getenv(k)
	}
	return os.Getenv(k)
}

func (f *Finder) lookPath(name string) (string, error) {
	if f.LookPath != nil {
		return f.LookPath(name)
	}
	return exec.LookPath(name)
}

// Find returns the Godot binary to use for a project of Godot major version
// want (0 when unknown: any binary will do).
//
// EnvBin, when set, is the only candidate: if it is missing, not Godot, or
// of the wrong major version, Find says so rather than looking elsewhere.
// Otherwise the first name in Candidates found on PATH whose major version
// matches wins. Failures are *sdk.Error with code PRECONDITION_FAILED and
// Required "godot_bin", and a hint saying how to point at a binary.
func (f *Finder) Find(ctx context.Context, want int) (*Binary, error) {
	if p := f.getenv(EnvBin); p != "" {
		b, err := f.probe(ctx, p)
		if err != nil {
			return nil, binError(hintFor(want), "%s=%s cannot be used: %v", EnvBin, p, err)
		}
		if want != 0 && b.Major != want {
			return nil, binError(hintFor(want),
				"%s=%s is Godot %s, but the project is a Godot %d project", EnvBin, p, b.Version, want)
		}
		return b, nil
	}
	var seen []string
	for _, name := range Candidates {
		p, err := f.lookPath(name)
		if err != nil {
			continue
		}
		b, err := f.probe(ctx, p)
		if err != nil {
			seen = append(seen, fmt.Sprintf("%s (%v)", p, err))
			continue
		}
		if want == 0 || b.Major == want {
			return b, nil
		}
		seen = append(seen, fmt.Sprintf("%s (Godot %s)", p, b.Version))
	}
	what := "a Godot binary"
	if want != 0 {
		what = fmt.Sprintf("a Godot %d binary", want)
	}
	if len(seen) == 0 {
		return nil, binError(hintFor(want), "no Godot binary found: %s is not set and none of %s is on PATH",
			EnvBin, strings.Join(Candidates, ", "))
	}
	return nil, binError(hintFor(want), "%s is needed for this project; found only %s", what, strings.Join(seen, ", "))
}

func binError(hint, format string, args ...any) *sdk.Error {
	e := sdk.Errorf(sdk.CodePreconditionFailed, hint, format, args...)
	e.Required = RequiredBin
	return e
}

func hintFor(want int) string {
	v := "a Godot 3.2+ or 4.x"
	if want == 3 {
		v = "a Godot 3 (3.2 or later)"
	} else if want == 4 {
		v = "a Godot 4"
	}
	return fmt.Sprintf("set %s to the path of %s executable in the environment of godot-mcp (or put it on PATH as godot), then retry", EnvBin, v)
}

var versionRE = regexp.MustCompile(`(?m)^v?(\d+)\.(\d+)(?:\.\d+)*(?:\.[A-Za-z0-9_.-]+)?\s*$`)

// ParseVersion reads the major and minor version from what `godot
// --version` printed; the version is the last line that looks like one.
func ParseVersion(out string) (version string, major, minor int, ok bool) {
	ms := versionRE.FindAllStringSubmatchIndex(out, -1)
	if len(ms) == 0 {
		return "", 0, 0, false
	}
	m := ms[len(ms)-1]
	version = strings.TrimSpace(out[m[0]:m[1]])
	major, _ = strconv.Atoi(out[m[2]:m[3]])
	minor, _ = strconv.Atoi(out[m[4]:m[5]])
	return version, major, minor, true
}

// probe asks the binary at p for its version (and, for Godot 3, whether it
// is a server build), using the cache when the file has not changed.
func (f *Finder) probe(ctx context.Context, p string) (*Binary, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, err
	}
	if st.IsDir() || st.Mode()&0o111 == 0 {
		return nil, errors.New("not an executable file")
	}
	f.mu.Lock()
	c, ok := f.cache[abs]
	f.mu.Unlock()
	if ok && c.size == st.Size() && c.mtime.Equal(st.ModTime()) {
		b := c.bin
		return &b, nil
	}
	out, err := quickRun(ctx, abs, "--version")
	if err != nil {
		return nil, err
	}
	v, major, minor, ok := ParseVersion(out)
	if !ok {
		return nil, fmt.Errorf("`%s --version` printed no Godot version (%q)", filepath.Base(abs), firstLine(out))
	}
	if major < 3 || (major == 3 && minor < 2) {
		return nil, fmt.Errorf("it is Godot %s, too old: Godot 3.2 or later is needed", v)
	}
	b := Binary{Path: abs, Version: v, Major: major, Minor: minor}
	if major == 3 {
		// A server build lists "Dummy" as its only video driver.
		help, err := quickRun(ctx, abs, "--help")
		if err == nil {
			for line := range strings.Lines(help) {
				if strings.Contains(line, "--video-driver") {
					b.Server = strings.Contains(line, "('Dummy')")
				}
			}
		}
	}
	f.mu.Lock()
	if f.cache == nil {
		f.cache = map[string]cached{}
	}
	f.cache[abs] = cached{size: st.Size(), mtime: st.ModTime(), bin: b}
	f.mu.Unlock()
	return &b, nil
}

// quickRun runs a short query of the binary in its own process group and
// returns its standard output. The exit status is ignored: Godot 3 exits
// 255 after --version.
func quickRun(ctx context.Context, path string, arg string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, arg)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.Env = childEnv(nil)
	var out bytes.Buffer
	cmd.Stdout = &limitedWriter{w: &out, n: 64 << 10}
	err := cmd.Run()
	if ctx.Err() != nil {
		return "", fmt.Errorf("`%s %s` did not answer within %s", filepath.Base(path), arg, probeTimeout)
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return "", err
	}
	return out.String(), nil
}

type limitedWriter struct {
	w *bytes.Buffer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if room := l.n - l.w.Len(); room > 0 {
		l.w.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return s
}

// childEnv is the environment of a Godot process: the plugin's, without
// godot-mcp's own variables except the host's instance marker (so the host
// still finds what Godot started if the plugin crashes), with a locale Godot understands (Godot reads
// LANG, and "C" or "POSIX" make it print two locale errors on every run,
// which would show up as errors of the game), plus extra.
func childEnv(extra []string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		switch {
		case k == wire.InstanceEnv:
		case strings.HasPrefix(k, "GODOT_MCP_"):
			continue
		case k == "LANG":
			lang, _, _ := strings.Cut(v, ".")
			if lang == "" || lang == "C" || lang == "POSIX" {
				continue
			}
		}
		env = append(env, kv)
	}
	if !slicesContainsPrefix(env, "LANG=") {
		env = append(env, "LANG=en_US.UTF-8")
	}
	return append(env, extra...)
}

func slicesContainsPrefix(list []string, prefix string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}
