package catalog

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/testplugins"
)

var echoBin string // built once in TestMain

func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "catalog-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	bins, err := testplugins.Build(dir, "echo")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	echoBin = bins["echo"]
	return m.Run()
}

// install copies the echo test plugin into dir under file name.
func install(t *testing.T, dir, file string) string {
	t.Helper()
	data, err := os.ReadFile(echoBin)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, file)
	if err := os.WriteFile(path, data, 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// script installs a shell script as a toolset binary.
func script(t *testing.T, dir, file, body string) string {
	t.Helper()
	path := filepath.Join(dir, file)
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

const manifestTool = `{"name":"ping","description":"Answer pong.","input_schema":{"type":"object"},"safety_class":"read_only"}`

func manifestJSON(name string) string {
	return `{"name":"` + name + `","version":"0.1.0","description":"A scripted test toolset.","tools":[` + manifestTool + `]}`
}

// describeCounter makes the echo plugin count its --describe runs and
// returns a function reading the count.
func describeCounter(t *testing.T) func() int {
	t.Helper()
	log := filepath.Join(t.TempDir(), "describes")
	t.Setenv(testplugins.DescribeLogEnv, log)
	return func() int {
		data, err := os.ReadFile(log)
		if errors.Is(err, os.ErrNotExist) {
			return 0
		}
		if err != nil {
			t.Fatal(err)
		}
		return strings.Count(string(data), "\n")
	}
}

func open(t *testing.T, opts Options) *Catalog {
	t.Helper()
	if opts.PassEnv == nil {
		// The describe counter reaches the plugin only when passed by name.
		opts.PassEnv = func(string) []string { return []string{testplugins.DescribeLogEnv} }
	}
	c, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func problemKinds(c *Catalog) map[string]ProblemKind {
	out := map[string]ProblemKind{}
	for _, err := range c.Problems() {
		var p *Problem
		if errors.As(err, &p) {
			out[filepath.Base(p.Path)] = p.Kind
		}
	}
	return out
}

func TestDescribeIsCachedBySHA256(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	count := describeCounter(t)
	path := install(t, dir, BinaryPrefix+"echo")

	c := open(t, Options{Dir: dir, CacheDir: cache})
	e, ok := c.Lookup("echo")
	if !ok {
		t.Fatalf("echo not cataloged: %v", c.Problems())
	}
	if e.Path != path || e.Pinned || e.Manifest.Version != "1.0.0" || e.Manifest.Godot != ">= 4.2" || len(e.SHA256) != 64 {
		t.Fatalf("entry %+v", e)
	}
	if _, ok := e.Manifest.Tool("echo"); !ok {
		t.Fatalf("manifest lacks the echo tool: %+v", e.Manifest)
	}
	if n := count(); n != 1 {
		t.Fatalf("first Open ran --describe %d times, want 1", n)
	}

	// Listing again runs nothing.
	c = open(t, Options{Dir: dir, CacheDir: cache})
	if _, ok := c.Lookup("echo"); !ok || count() != 1 {
		t.Fatalf("second Open: found=%v, describe runs %d, want 1", ok, count())
	}

	// A corrupt cache entry is ignored and rebuilt.
	if err := os.WriteFile(filepath.Join(cache, e.SHA256+".json"), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	c = open(t, Options{Dir: dir, CacheDir: cache})
	if _, ok := c.Lookup("echo"); !ok || count() != 2 {
		t.Fatalf("after corrupting the cache: found=%v, describe runs %d, want 2", ok, count())
	}
	c = open(t, Options{Dir: dir, CacheDir: cache})
	if _, ok := c.Lookup("echo"); !ok || count() != 2 {
		t.Fatalf("the rebuilt cache entry was not used: describe runs %d", count())
	}
}

// A copy under another file name that still describes "echo", and a
// plugin whose manifest claims "echo", are each refused alone and reported
// once; the genuine echo stays, with and without a lock file.
func TestMisnamedBinaryIsRefusedAlone(t *testing.T) {
	dir := t.TempDir()
	install(t, dir, BinaryPrefix+"echo")
	stale := install(t, dir, BinaryPrefix+"echo_old") // describes itself as "echo"
	liar := script(t, dir, BinaryPrefix+"liar", `echo '`+manifestJSON("echo")+`'`)
	check := func(c *Catalog, kind ProblemKind) {
		t.Helper()
		if e, ok := c.Lookup("echo"); !ok || e.Path != filepath.Join(dir, BinaryPrefix+"echo") || len(c.Entries()) != 1 {
			t.Fatalf("entries %v, want the genuine echo; problems %v", c.Entries(), c.Problems())
		}
		probs := c.Problems()
		if len(probs) != 2 {
			t.Fatalf("problems %v, want one per misnamed binary", probs)
		}
		all := fmt.Sprint(probs)
		for _, path := range []string{stale, liar} {
			if n := strings.Count(all, path); n != 1 {
				t.Errorf("%s is named %d times in the problems, want once: %s", path, n, all)
			}
		}
		for _, p := range c.Refused() {
			if p.Kind != kind || p.Name == "echo" {
				t.Errorf("problem %+v: want kind %s for the misnamed file", p, kind)
			}
			if kind == ProblemManifest && !strings.Contains(p.Error(), "remove this file if it is a stale copy") {
				t.Errorf("problem %q does not say how to fix it", p)
			}
		}
	}
	check(open(t, Options{Dir: dir, CacheDir: t.TempDir()}), ProblemManifest)
	// plugins lock pins only the genuine binary; the others stay refused.
	c := open(t, Options{Dir: dir, CacheDir: t.TempDir(), IgnoreLock: true})
	if err := WriteLock(c.LockPath(), c.Lock()); err != nil {
		t.Fatal(err)
	}
	check(open(t, Options{Dir: dir, CacheDir: t.TempDir()}), ProblemUnpinned)
}

// Two binaries each named for the toolset they describe (a dev binary and
// an installed one) are both refused, in one problem naming both.
func TestDuplicateNamesAreRefused(t *testing.T) {
	dir, devDir := t.TempDir(), t.TempDir()
	a := install(t, dir, BinaryPrefix+"echo")
	b := install(t, devDir, BinaryPrefix+"echo")
	c := open(t, Options{Dir: dir, CacheDir: t.TempDir(), Dev: []string{b}})
	if len(c.Entries()) != 0 {
		t.Fatalf("entries %v, want none", c.Entries())
	}
	probs := c.Problems()
	if len(probs) != 1 {
		t.Fatalf("problems %v, want one", probs)
	}
	var pr *Problem
	if !errors.As(probs[0], &pr) || pr.Kind != ProblemDuplicate {
		t.Fatalf("problem %v is not a duplicate", probs[0])
	}
	if !strings.Contains(pr.Error(), a) || !strings.Contains(pr.Error(), b) {
		t.Errorf("problem %q does not name both %s and %s", pr, a, b)
	}
}

func TestLockPinsAndRefusesChanges(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	count := describeCounter(t)
	path := install(t, dir, BinaryPrefix+"echo")

	// Pin what is there.
	c := open(t, Options{Dir: dir, CacheDir: cache, IgnoreLock: true})
	if err := WriteLock(c.LockPath(), c.Lock()); err != nil {
		t.Fatal(err)
	}
	if c.LockPath() != filepath.Join(dir, LockFileName) {
		t.Fatalf("lock path %s", c.LockPath())
	}

	// With a lock the manifest comes from it: no process runs, even with
	// an empty cache.
	before := count()
	c = open(t, Options{Dir: dir, CacheDir: t.TempDir()})
	e, ok := c.Lookup("echo")
	if !ok || !e.Pinned || !c.Locked() {
		t.Fatalf("pinned echo: %+v ok=%v problems %v", e, ok, c.Problems())
	}
	if count() != before {
		t.Fatal("a pinned binary was run with --describe")
	}
	if err := c.Verify(e); err != nil {
		t.Fatalf("verify unchanged binary: %v", err)
	}

	// A changed binary is refused by Verify and by the next Open.
	data, _ := os.ReadFile(path)
	data[len(data)/2] ^= 0xff
	if err := os.WriteFile(path, data, 0o755); err != nil {
		t.Fatal(err)
	}
	err := c.Verify(e)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), `run "godot-mcp plugins lock"`) {
		t.Fatalf("verify changed binary: %v", err)
	}
	// An unknown new binary is refused too, and a pinned one that went
	// missing is reported.
	install(t, dir, BinaryPrefix+"extra")
	c = open(t, Options{Dir: dir, CacheDir: cache})
	if len(c.Entries()) != 0 {
		t.Fatalf("entries %v, want none", c.Entries())
	}
	kinds := problemKinds(c)
	if kinds[BinaryPrefix+"echo"] != ProblemChanged || kinds[BinaryPrefix+"extra"] != ProblemUnpinned {
		t.Fatalf("problems %v", c.Problems())
	}
	for _, p := range c.Problems() {
		if !strings.Contains(p.Error(), `run "godot-mcp plugins lock" to trust the new binary`) || !strings.Contains(p.Error(), dir) {
			t.Errorf("problem %q does not name the binary and the fix", p)
		}
	}
	if count() != before {
		t.Fatal("an untrusted binary was run with --describe")
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	c = open(t, Options{Dir: dir, CacheDir: cache})
	if kinds := problemKinds(c); kinds[BinaryPrefix+"echo"] != ProblemMissing {
		t.Fatalf("problems %v, want echo missing", c.Problems())
	}
}

func TestBadBinariesDoNotHurtOthers(t *testing.T) {
	dir := t.TempDir()
	install(t, dir, BinaryPrefix+"echo")
	script(t, dir, BinaryPrefix+"garbage", `echo "this is not json"`)
	script(t, dir, BinaryPrefix+"invalid", `echo '{"name":"invalid","version":"","description":"","tools":[]}'`)
	script(t, dir, BinaryPrefix+"failing", `echo "cannot describe: boom" >&2; exit 3`)
	script(t, dir, BinaryPrefix+"misnamed", `echo '`+manifestJSON("other")+`'`)
	script(t, dir, BinaryPrefix+"good", `echo '`+manifestJSON("good")+`'`)
	noexec := script(t, dir, BinaryPrefix+"noexec", `echo '`+manifestJSON("noexec")+`'`)
	if err := os.Chmod(noexec, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "README.txt"), []byte("not a plugin"), 0o644); err != nil {
		t.Fatal(err)
	}

	c := open(t, Options{Dir: dir, CacheDir: t.TempDir()})
	var names []string
	for _, e := range c.Entries() {
		names = append(names, e.Name)
	}
	if strings.Join(names, ",") != "echo,good" {
		t.Fatalf("entries %v, want echo and good", names)
	}
	kinds := problemKinds(c)
	want := map[string]ProblemKind{
		BinaryPrefix + "garbage":  ProblemManifest,
		BinaryPrefix + "invalid":  ProblemManifest,
		BinaryPrefix + "failing":  ProblemManifest,
		BinaryPrefix + "misnamed": ProblemManifest,
		BinaryPrefix + "noexec":   ProblemFile,
	}
	if fmt.Sprint(kinds) != fmt.Sprint(want) {
		t.Fatalf("problems %v", c.Problems())
	}
	for _, p := range c.Problems() {
		msg := p.Error()
		var pr *Problem
		errors.As(p, &pr)
		if !strings.Contains(msg, pr.Path) {
			t.Errorf("problem %q does not name the binary", msg)
		}
		switch filepath.Base(pr.Path) {
		case BinaryPrefix + "failing":
			if !strings.Contains(msg, "cannot describe: boom") {
				t.Errorf("failed describe should quote stderr: %q", msg)
			}
		case BinaryPrefix + "misnamed":
			if !strings.Contains(msg, "rename it to "+BinaryPrefix+"other") {
				t.Errorf("misnamed binary: %q", msg)
			}
		case BinaryPrefix + "noexec":
			if !strings.Contains(msg, "chmod +x") {
				t.Errorf("non-executable binary: %q", msg)
			}
		}
	}
}

func TestDescribeIsBounded(t *testing.T) {
	dir := t.TempDir()
	script(t, dir, BinaryPrefix+"slow", `sleep 300`)
	script(t, dir, BinaryPrefix+"flood", `yes '`+manifestJSON("flood")+`'`)
	script(t, dir, BinaryPrefix+"stdin", `read line; echo '`+manifestJSON("stdin")+`'`)
	// The timeout must leave the flood time to print 4 MiB even on a loaded
	// machine, or it is reported as slow instead of as too talkative.
	c := open(t, Options{Dir: dir, CacheDir: t.TempDir(), DescribeTimeout: 2 * time.Second})
	kinds := problemKinds(c)
	if kinds[BinaryPrefix+"slow"] != ProblemManifest || kinds[BinaryPrefix+"flood"] != ProblemManifest {
		t.Fatalf("problems %v", c.Problems())
	}
	for _, p := range c.Problems() {
		var pr *Problem
		errors.As(p, &pr)
		want := map[string]string{BinaryPrefix + "slow": "did not finish within", BinaryPrefix + "flood": "printed more than"}[filepath.Base(pr.Path)]
		if !strings.Contains(p.Error(), want) {
			t.Errorf("problem %q should say %q", p, want)
		}
	}
	// stdin is /dev/null: read gets EOF at once and the script goes on.
	if _, ok := c.Lookup("stdin"); !ok {
		t.Fatalf("a describe reading stdin must see EOF: %v", c.Problems())
	}
}

func TestOpenErrors(t *testing.T) {
	if _, err := Open(Options{Dir: filepath.Join(t.TempDir(), "missing")}); err == nil || !strings.Contains(err.Error(), PluginsDirEnv) {
		t.Fatalf("missing dir: %v", err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, LockFileName), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(Options{Dir: dir})
	if err == nil || !strings.Contains(err.Error(), "godot-mcp plugins lock") {
		t.Fatalf("corrupt lock: %v", err)
	}
}

func TestDefaultDir(t *testing.T) {
	t.Setenv(PluginsDirEnv, "/opt/godot-mcp/plugins")
	if got := DefaultDir(); got != "/opt/godot-mcp/plugins" {
		t.Fatalf("with %s: %s", PluginsDirEnv, got)
	}
	t.Setenv(PluginsDirEnv, "")
	exe, _ := os.Executable()
	exe, _ = filepath.EvalSymlinks(exe)
	if got := DefaultDir(); got != filepath.Dir(exe) {
		t.Fatalf("default %s, want %s", got, filepath.Dir(exe))
	}
}
