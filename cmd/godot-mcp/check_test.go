package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fixturesDir finds the shared Godot 4 corpus ($GODOT_MCP_FIXTURES or
// <dir holding go.work>/../shared/fixtures/godot4), or skips the test.
func fixturesDir(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("GODOT_MCP_FIXTURES"); d != "" {
		return d
	}
	wd, _ := os.Getwd()
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			cand := filepath.Join(dir, "..", "shared", "fixtures", "godot4")
			if st, err := os.Stat(cand); err == nil && st.IsDir() {
				return cand
			}
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	t.Skip("SKIPPING: Godot 4 fixture corpus not found (expected <repo>/../shared/fixtures/godot4 or $GODOT_MCP_FIXTURES)")
	return ""
}

func runCheckCapture(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = runCheck(args, &o, &e)
	return code, o.String(), e.String()
}

func TestCheckCorpus(t *testing.T) {
	dir := fixturesDir(t)
	code, out, errOut := runCheckCapture("--roundtrip", dir)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	if out != "checked 119 files: 119 ok, 0 failed\n" {
		t.Fatalf("summary: %q", out)
	}
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCheckReportsErrors(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.tscn", "[gd_scene format=3]\n\n[node name=\"A\" type=\"Node\"]\n")
	bad := writeFile(t, dir, "sub/bad.tscn", "[gd_scene format=3]\n\n[node name=\"A\" type=\"Node\" = ]\n")
	badCfg := writeFile(t, dir, "export_presets.cfg", "[preset.0]\nname=\n")
	writeFile(t, dir, "project.godot", "config_version=5\n\n[application]\n\nconfig/name=\"x\"\n")
	// Editor caches and import data are skipped, even if broken.
	writeFile(t, dir, ".godot/editor/broken.tscn", "garbage")
	writeFile(t, dir, ".import/broken.cfg", "[")
	writeFile(t, dir, "readme.txt", "not a godot file")

	code, out, errOut := runCheckCapture(dir)
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", code, out, errOut)
	}
	if out != "checked 4 files: 2 ok, 2 failed\n" {
		t.Errorf("summary: %q", out)
	}
	for _, want := range []string{
		bad + ":3:28: expected a field name or ']' in [node] header, found '='\n",
		badCfg + ":3:1: expected a value after 'name =', found end of file\n",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}

	code, out, _ = runCheckCapture(good)
	if code != 0 || out != "checked 1 files: 1 ok, 0 failed\n" {
		t.Errorf("single good file: exit %d, %q", code, out)
	}
}

func TestCheckRoundTripReportsFirstDifference(t *testing.T) {
	// Every parseable file round-trips, so exercise the reporter directly.
	line, want, got := firstDifferingLine([]byte("a\nb\nc\n"), []byte("a\nB\nc\n"))
	if line != 2 || want != "b" || got != "B" {
		t.Fatalf("got %d %q %q", line, want, got)
	}
	line, want, got = firstDifferingLine([]byte("a\n"), []byte("a\nextra\n"))
	if line != 2 || want != "" || got != "extra" {
		t.Fatalf("got %d %q %q", line, want, got)
	}
	dir := t.TempDir()
	p := writeFile(t, dir, "crlf.tscn", "[gd_scene format=3]\r\n\r\n[node name=\"A\" type=\"Node\"] ; c\r\n")
	if code, out, errOut := runCheckCapture("--roundtrip", p); code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
}

func TestCheckUsage(t *testing.T) {
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "Usage: godot-mcp check"},
		{[]string{"--bogus", "x"}, 2, "flag provided but not defined"},
		{[]string{"/nonexistent/path"}, 2, "no such file"},
		{[]string{"check_test.go"}, 2, "not a .tscn, .tres, project.godot or .cfg file"},
		{[]string{"-h"}, 0, "--roundtrip"},
	} {
		code, _, errOut := runCheckCapture(tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tt.args, code, errOut, tt.code, tt.want)
		}
	}
}

// check reads only regular files: a committed symlink to /dev/zero and a
// FIFO are skipped with a reason, not read forever.
func TestCheckSkipsSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "ok.tres", "[gd_resource type=\"Resource\" format=3]\n\n[resource]\n")
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.tscn")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.tres"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var code int
	var out, errOut string
	go func() {
		defer close(done)
		code, out, errOut = runCheckCapture(dir)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("check hangs on a special file")
	}
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"zero.tscn: skipped: not a regular file (symbolic link)", "pipe.tres: skipped: not a regular file (FIFO)"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if out != "checked 1 files: 1 ok, 0 failed, 2 skipped\n" {
		t.Errorf("summary %q", out)
	}
	// Named directly, the FIFO is opened without blocking and skipped.
	code, _, errOut = runCheckCapture(filepath.Join(dir, "pipe.tres"), filepath.Join(dir, "zero.tscn"))
	if code != 0 || !strings.Contains(errOut, "(FIFO)") || !strings.Contains(errOut, "(character device)") {
		t.Fatalf("named special files: exit %d\n%s", code, errOut)
	}
}

func TestCheckSizeCap(t *testing.T) {
	dir := t.TempDir()
	big := "[gd_resource type=\"Resource\" format=3]\n\n[resource]\ndata = \"" + strings.Repeat("x", 2<<20) + "\"\n"
	writeFile(t, dir, "big.tres", big)
	code, out, errOut := runCheckCapture("--max-file-mb", "1", dir)
	if code != 0 || !strings.Contains(errOut, "big.tres: skipped: 2 MiB is larger than --max-file-mb 1") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := runCheckCapture(dir); code != 0 || errOut != "" {
		t.Fatalf("under the default cap: exit %d %s", code, errOut)
	}
}

// Invalid UTF-8 and NUL bytes are errors with file:line:col.
func TestCheckRejectsInvalidText(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "nul.tscn", "[gd_scene format=3]\n\n[node name=\"A\x00\" type=\"Node\"]\n")
	code, _, errOut := runCheckCapture(p)
	if code != 1 || !strings.Contains(errOut, p+":3:14: NUL byte") {
		t.Fatalf("NUL: exit %d %s", code, errOut)
	}
	p = writeFile(t, dir, "latin1.tscn", "[gd_scene format=3]\n\n[node name=\"é\xe9\" type=\"Node\"]\n")
	code, _, errOut = runCheckCapture(p)
	if code != 1 || !strings.Contains(errOut, p+":3:14: invalid UTF-8 (byte 0xe9)") {
		t.Fatalf("invalid UTF-8: exit %d %s", code, errOut)
	}
}

// .cfg files that are not Godot config (JSON, binary) are skipped with a
// note instead of failing the repository; a broken Godot .cfg still fails.
func TestCheckSkipsForeignCfg(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "tool.cfg", `{"editor": {"tabs": 4}}`)
	writeFile(t, dir, "blob.cfg", "\x00\x01\x02binary")
	writeFile(t, dir, "export_presets.cfg", "[preset.0]\nname=\"Linux\"\n")
	code, out, errOut := runCheckCapture(dir)
	if code != 0 || !strings.Contains(errOut, "tool.cfg: skipped: not a Godot config file (JSON)") ||
		!strings.Contains(errOut, "blob.cfg: skipped: not a Godot config file (binary)") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if out != "checked 1 files: 1 ok, 0 failed, 2 skipped\n" {
		t.Errorf("summary %q", out)
	}
	writeFile(t, dir, "broken.cfg", "[section\nkey=1\n")
	if code, _, errOut := runCheckCapture(dir); code != 1 || !strings.Contains(errOut, "broken.cfg:") {
		t.Fatalf("a broken Godot .cfg: exit %d %s", code, errOut)
	}
}

// A project directory named through a symbolic link is checked (its files
// found and their errors reported under the path given); a directory with
// no Godot file fails loudly instead of "checked 0 files" and exit 0.
func TestCheckSymlinkedAndEmptyDirectories(t *testing.T) {
	base := t.TempDir()
	proj := filepath.Join(base, "proj")
	writeFile(t, proj, "ok.tscn", "[gd_scene format=3]\n\n[node name=\"A\" type=\"Node\"]\n")
	writeFile(t, proj, "bad.tscn", "[gd_scene format=3]\n\n[node name=\"A\" type=\"Node\"]\nx = nope\n")
	link := filepath.Join(base, "link")
	if err := os.Symlink(proj, link); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(base, "empty")
	writeFile(t, empty, "readme.txt", "no scenes here")

	code, out, errOut := runCheckCapture(link)
	if code != 1 || out != "checked 2 files: 1 ok, 1 failed\n" || !strings.Contains(errOut, filepath.Join(link, "bad.tscn")+":4:5: ") {
		t.Fatalf("through the link: exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	for _, args := range [][]string{{empty}, {link, empty}} {
		code, _, errOut = runCheckCapture(args...)
		if code != 1 || !strings.Contains(errOut, "no Godot files (.tscn, .tres, project.godot, .cfg) found under "+empty) {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}

// A parse error on a 1 MB line quotes an excerpt, not the line.
func TestCheckQuotesABoundedExcerpt(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "big.tscn", "[gd_scene format=3]\n\n[node name=\"A\" type=\"Node\"]\nx = "+strings.Repeat("y", 1<<20)+"\n")
	code, _, errOut := runCheckCapture(dir)
	if code != 1 || len(errOut) > 1000 || !strings.Contains(errOut, "big.tscn:4:5: unexpected identifier \"yyyy") ||
		!strings.Contains(errOut, "(1048576 bytes)") {
		t.Fatalf("exit %d, stderr of %d bytes: %.500s", code, len(errOut), errOut)
	}
}
