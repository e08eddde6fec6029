package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/testenv"
)

func runToolsetCmd(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(append([]string{"toolset"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

// Bad input is refused with a code and a hint, and nothing is written.
func TestToolsetNewRefuses(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "full")
	if err := os.MkdirAll(filepath.Join(full, "keep"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"new"}, 2, "want NAME [DIR]"},
		{[]string{"new", "Scenes", filepath.Join(dir, "a")}, 1, `INVALID_ARGUMENT: toolset name "Scenes" is invalid`},
		{[]string{"new", "9lives", filepath.Join(dir, "a")}, 1, "starting with a letter"},
		{[]string{"new", "core", filepath.Join(dir, "a")}, 1, "reserved"},
		{[]string{"new", strings.Repeat("a", 49), filepath.Join(dir, "a")}, 1, "1-48"},
		{[]string{"new", "scenes", full}, 1, "ALREADY_EXISTS"},
		{[]string{"new", "--module", "example.com/bad path", "scenes", filepath.Join(dir, "a")}, 1, "module path"},
		{[]string{"new", "--sdk", dir, "scenes", filepath.Join(dir, "a")}, 1, "SDK_NOT_FOUND"},
		{[]string{"new", "--sdk", "1.2", "scenes", filepath.Join(dir, "a")}, 1, "neither a published version"},
		{[]string{"create", "scenes"}, 2, "unknown subcommand"},
	} {
		code, _, stderr := runToolsetCmd(tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d containing %q", tc.args, code, stderr, tc.code, tc.want)
		}
		if code == 1 && !strings.Contains(stderr, "\nHint: ") {
			t.Errorf("%v: no hint in %q", tc.args, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "a")); !os.IsNotExist(err) {
		t.Errorf("a refused scaffold wrote %s", filepath.Join(dir, "a"))
	}
	if entries, _ := os.ReadDir(full); len(entries) != 1 {
		t.Errorf("the non-empty directory was touched: %v", entries)
	}
}

// The generated go.mod: a relative replace inside the checkout, an
// absolute one outside, and a plain require for a published version.
func TestToolsetGoMod(t *testing.T) {
	root := testenv.RepoRoot()
	if root == "" {
		t.Fatal("no checkout above the test's directory")
	}
	for _, tc := range []struct {
		name, sdkFlag, dir string
		want, notWant      []string
	}{
		{"inside the checkout", "", filepath.Join(root, "examples", "x"),
			[]string{"replace github.com/godot-mcp/godot-mcp/sdk => ../../sdk", "v0.0.0-00010101000000-000000000000"}, nil},
		{"outside, sdk flag names the checkout", root, "/elsewhere/x",
			[]string{"replace github.com/godot-mcp/godot-mcp/sdk => " + filepath.Join(root, "sdk")}, nil},
		{"published", "v0.3.1", "/elsewhere/x",
			[]string{"require github.com/godot-mcp/godot-mcp/sdk v0.3.1"}, []string{"replace"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := toolsetData{Name: "x", Module: "example.com/godot-mcp-toolset-x", GoVersion: defaultGoVersion}
			if err := d.resolveSDK(tc.sdkFlag, tc.dir); err != nil {
				t.Fatal(err)
			}
			files, err := renderToolset(d)
			if err != nil {
				t.Fatal(err)
			}
			mod := string(files["go.mod"])
			for _, w := range tc.want {
				if !strings.Contains(mod, w) {
					t.Errorf("go.mod lacks %q:\n%s", w, mod)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(mod, w) {
					t.Errorf("go.mod has %q:\n%s", w, mod)
				}
			}
			for _, f := range []string{"main.go", "scene.go", "scene_test.go", "README.md", ".gitignore"} {
				if len(files[f]) == 0 {
					t.Errorf("%s not rendered", f)
				}
			}
		})
	}
}

// TestToolsetNewPassesItsOwnTests scaffolds a toolset into a temporary
// directory against this checkout's sdk (a replace directive) and runs its
// generated tests and go vet as an author would on day one: the scaffold
// must build and pass as generated. Its tests cover both modes (headless on
// a project, editor against a scripted addon) and a dry run in each; the
// code writes only through the workspace.
func TestToolsetNewPassesItsOwnTests(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a generated toolset module; skipped with -short")
	}
	goBin := testenv.RequireBinary(t, "go", "golang-go")
	root := testenv.RepoRoot()
	if root == "" {
		t.Fatal("no checkout above the test's directory")
	}
	dir := filepath.Join(t.TempDir(), "scenes")
	if code, out, errOut := runToolsetCmd("new", "--sdk", root, "scenes", dir); code != 0 {
		t.Fatalf("toolset new: exit %d\n%s%s", code, out, errOut)
	}
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(mod), "replace github.com/godot-mcp/godot-mcp/sdk => "+filepath.Join(root, "sdk")) {
		t.Fatalf("go.mod does not replace the sdk with the checkout's:\n%s", mod)
	}
	src, err := os.ReadFile(filepath.Join(dir, "scene.go"))
	if err != nil {
		t.Fatal(err)
	}
	// Project files change only through the workspace, which keeps an
	// attached editor in sync and makes the call one godot_undo step.
	for _, bypass := range []string{`"os"`, "os.WriteFile", "os.Rename", "os.Create"} {
		if strings.Contains(string(src), bypass) {
			t.Errorf("scene.go uses %s: the scaffold must write through call.Workspace()", bypass)
		}
	}
	for _, want := range []string{"sdk.AnyMode()", "sdk.EditorFunc(renameNodeInEditor)"} {
		if main, _ := os.ReadFile(filepath.Join(dir, "main.go")); !strings.Contains(string(main), want) {
			t.Errorf("main.go does not declare %s", want)
		}
	}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(goBin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-buildvcs=false")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s in the scaffold: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run("vet", "./...")
	out := run("test", "-count=1", "-v", "./...")
	for _, test := range []string{"TestManifest", "TestSceneSummary/headless", "TestSceneSummary/editor", "TestRenameNode",
		"TestRenameNodeDryRun", "TestRenameNodeInEditor", "TestRenameNodeInEditorDryRun"} {
		if !strings.Contains(out, "--- PASS: "+test+" ") && !strings.Contains(out, "    --- PASS: "+test+" ") {
			t.Errorf("the scaffold's %s did not pass:\n%s", test, out)
		}
	}
}

// shellBlocks returns the ```sh blocks of a Markdown document, in order.
func shellBlocks(md string) []string {
	re := regexp.MustCompile("(?ms)^```sh\n(.*?)^```\n")
	var out []string
	for _, m := range re.FindAllStringSubmatch(md, -1) {
		out = append(out, m[1])
	}
	return out
}

// TestGuideQuotesScaffold keeps the guide's Go excerpts true to what
// `toolset new` writes: every line of every go block of
// docs/writing-a-toolset.md (whitespace collapsed, trailing " // " comments
// and elisions with "..." or "…" left out) is a line of the scaffold.
func TestGuideQuotesScaffold(t *testing.T) {
	guide, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "docs", "writing-a-toolset.md"))
	if err != nil {
		t.Fatal(err)
	}
	d := toolsetData{Name: "scenes", Module: "example.com/godot-mcp-toolset-scenes", GoVersion: defaultGoVersion, SDKVersion: "v0.0.0", Replace: "../sdk"}
	files, err := renderToolset(d)
	if err != nil {
		t.Fatal(err)
	}
	norm := func(line string) string {
		if i := strings.Index(line, " // "); i >= 0 {
			line = line[:i]
		}
		return strings.Join(strings.Fields(line), " ")
	}
	scaffold := map[string]bool{}
	for name, data := range files {
		if strings.HasSuffix(name, ".go") {
			for _, l := range strings.Split(string(data), "\n") {
				scaffold[norm(l)] = true
			}
		}
	}
	blocks := regexp.MustCompile("(?ms)^```go\n(.*?)^```\n").FindAllStringSubmatch(string(guide), -1)
	if len(blocks) < 5 {
		t.Fatalf("found %d go blocks in the guide", len(blocks))
	}
	for _, b := range blocks {
		for _, l := range strings.Split(b[1], "\n") {
			n := norm(l)
			if n == "" || strings.Contains(n, "...") || strings.Contains(n, "…") {
				continue
			}
			if !scaffold[n] {
				t.Errorf("the guide quotes a line the scaffold does not have: %q", strings.TrimSpace(l))
			}
		}
	}
}

// goEnv reads one setting of the go command.
func goEnv(t *testing.T, goBin, name string) string {
	t.Helper()
	out, err := exec.Command(goBin, "env", name).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out))
}

// TestWritingAToolsetGuide runs every ```sh block of
// docs/writing-a-toolset.md, in order, in one shell, as a new author would:
// HOME is a temporary directory whose ~/src/godot-mcp is this checkout. The
// guide installs godot-mcp from the checkout, scaffolds the scenes toolset
// with `godot-mcp toolset new`, tests, builds, describes and installs it,
// lists it with the real host and calls its tools through the host. The
// test then checks what each step produced.
func TestWritingAToolsetGuide(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the host and a generated toolset module; skipped with -short")
	}
	goBin := testenv.RequireBinary(t, "go", "golang-go")
	bash := testenv.RequireBinary(t, "bash", "bash")
	root := testenv.RepoRoot()
	if root == "" {
		t.Fatal("no checkout above the test's directory")
	}
	guide, err := os.ReadFile(filepath.Join(root, "docs", "writing-a-toolset.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := shellBlocks(string(guide))
	if len(blocks) != 4 {
		t.Fatalf("the guide has %d sh blocks, this test expects 4: update its checks with the guide", len(blocks))
	}

	tmp := t.TempDir()
	home := filepath.Join(tmp, "home")
	if err := os.MkdirAll(filepath.Join(home, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(root, filepath.Join(home, "src", "godot-mcp")); err != nil {
		t.Fatal(err)
	}
	// A fresh HOME and GOPATH, but the machine's module and build caches
	// and go env file, so nothing is downloaded or rebuilt for nothing.
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GODOT_MCP_") || slices.Contains([]string{"HOME", "GOPATH", "GOBIN", "GOWORK", "XDG_CACHE_HOME", "GOFLAGS"}, k) {
			continue
		}
		env = append(env, kv)
	}
	env = append(env,
		"HOME="+home,
		"GOPATH="+filepath.Join(home, "go"),
		"GOMODCACHE="+goEnv(t, goBin, "GOMODCACHE"),
		"GOCACHE="+goEnv(t, goBin, "GOCACHE"),
		"GOENV="+goEnv(t, goBin, "GOENV"),
		"GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -buildvcs=false"),
		"XDG_CACHE_HOME="+filepath.Join(tmp, "cache"),
	)
	demoScene := filepath.Join(root, "examples", "demo", "scenes", "main.tscn")
	before, err := os.ReadFile(demoScene)
	if err != nil {
		t.Fatal(err)
	}

	script := "set -euo pipefail\n" + strings.Join(blocks, "\n")
	cmd := exec.Command(bash, "-c", script)
	cmd.Dir = tmp
	cmd.Env = env
	outb, err := cmd.CombinedOutput()
	out := string(outb)
	if err != nil {
		t.Fatalf("the guide's commands failed: %v\n%s", err, out)
	}

	// Step 2: the scaffold, with a replace at the checkout, and its tests.
	mod, err := os.ReadFile(filepath.Join(home, "src", "godot-mcp-toolset-scenes", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^replace github.com/godot-mcp/godot-mcp/sdk => /\S+/sdk$`).Match(mod) {
		t.Errorf("generated go.mod has no replace at the checkout's sdk:\n%s", mod)
	}
	if !strings.Contains(out, "ok  \texample.com/godot-mcp-toolset-scenes") {
		t.Errorf("go test of the scaffold did not pass:\n%s", out)
	}
	// Step 8: --describe, the install and the host's list.
	for _, want := range []string{`"name": "scenes"`, `"safety_class": "mutating"`} {
		if !strings.Contains(out, want) {
			t.Errorf("--describe output lacks %s:\n%s", want, out)
		}
	}
	plugins := filepath.Join(home, "godot-mcp-plugins")
	if st, err := os.Stat(filepath.Join(plugins, "godot-mcp-toolset-scenes")); err != nil || st.Mode()&0o111 == 0 {
		t.Fatalf("the toolset is not installed in the plugins directory: %v", err)
	}
	if !regexp.MustCompile(`(?m)^scenes\s+0\.1\.0\s+2\s+>= 4\.2, < 5\.0\s+unpinned\s`).MatchString(out) {
		t.Errorf("plugins list does not show the scenes toolset:\n%s", out)
	}
	// The tool calls through the host: the demo's main scene summarised,
	// and a dry run that changed nothing.
	for _, want := range []string{`"root": "Main"`, `"root_type": "Node2D"`, `"from": "Player"`, `"to": "Hero"`, `"dry_run": true`, `"renamed": false`, `"mode": "headless"`} {
		if !strings.Contains(out, want) {
			t.Errorf("tool calls through the host lack %s:\n%s", want, out)
		}
	}
	if after, _ := os.ReadFile(demoScene); !bytes.Equal(before, after) {
		t.Errorf("the dry run changed %s", demoScene)
	}

	// The same plugins directory, listed by this package's own command.
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	var lout, lerr bytes.Buffer
	if code := run([]string{"plugins", "list", "--json", "--plugins-dir", plugins}, &lout, &lerr); code != 0 {
		t.Fatalf("plugins list: exit %d: %s", code, lerr.String())
	}
	var list pluginList
	if err := json.Unmarshal(lout.Bytes(), &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Toolsets) != 1 || list.Toolsets[0].Name != "scenes" ||
		!slices.Equal(list.Toolsets[0].Tools, []string{"scene_summary", "rename_node"}) || len(list.Problems) != 0 {
		t.Errorf("plugins list = %+v", list)
	}
}

// publishSDK writes a file-based Go module proxy holding the checkout's sdk
// as version, the way it will look once published.
func publishSDK(t *testing.T, root, version string) string {
	t.Helper()
	proxy := t.TempDir()
	at := filepath.Join(proxy, filepath.FromSlash(sdkModule), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		t.Fatal(err)
	}
	sdkDir := filepath.Join(root, "sdk")
	mod, err := os.ReadFile(filepath.Join(sdkDir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	err = filepath.WalkDir(sdkDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(sdkDir, p)
		w, err := zw.Create(sdkModule + "@" + version + "/" + filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	})
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"list":            []byte(version + "\n"),
		version + ".info": []byte(`{"Version":"` + version + `","Time":"2026-01-01T00:00:00Z"}`),
		version + ".mod":  mod,
		version + ".zip":  zbuf.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(at, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return proxy
}

// TestToolsetPublishedSDK checks the promise made to authors about the day
// the sdk is published, against a module proxy serving the checkout's sdk
// as v0.9.0: `toolset new --sdk v0.9.0` writes a module that builds without
// a checkout, and a module scaffolded today moves over with the commands
// its go.mod names (drop the replace, go get @latest, go mod tidy).
func TestToolsetPublishedSDK(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated toolset modules; skipped with -short")
	}
	goBin := testenv.RequireBinary(t, "go", "golang-go")
	root := testenv.RepoRoot()
	if root == "" {
		t.Fatal("no checkout above the test's directory")
	}
	const version = "v0.9.0"
	proxy := publishSDK(t, root, version)
	// A private module cache, filled from the published sdk and from the
	// machine's module cache (a valid proxy itself), so the test needs no
	// network and leaves no fake sdk version in the shared cache.
	realCache := goEnv(t, goBin, "GOMODCACHE")
	t.Setenv("GOPROXY", "file://"+filepath.ToSlash(proxy)+",file://"+filepath.ToSlash(filepath.Join(realCache, "cache", "download")))
	t.Setenv("GOMODCACHE", filepath.Join(t.TempDir(), "modcache"))
	t.Setenv("GOSUMDB", "off")
	// -trimpath keeps the private module cache's directory out of the build
	// cache keys, so later runs reuse the compiled dependencies.
	t.Setenv("GOFLAGS", "-modcacherw -buildvcs=false -trimpath")
	t.Setenv("GOWORK", "off")
	t.Setenv("GOTOOLCHAIN", "local")

	goCmd := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command(goBin, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
		}
		return string(out)
	}

	// Scaffolded against the published version: no replace at all.
	published := filepath.Join(t.TempDir(), "published")
	if code, out, errOut := runToolsetCmd("new", "--sdk", version, "scenes", published); code != 0 {
		t.Fatalf("toolset new --sdk %s: exit %d\n%s%s", version, code, out, errOut)
	}
	mod, _ := os.ReadFile(filepath.Join(published, "go.mod"))
	if strings.Contains(string(mod), "replace") || !strings.Contains(string(mod), "github.com/godot-mcp/godot-mcp/sdk "+version) {
		t.Errorf("published go.mod:\n%s", mod)
	}
	goCmd(published, "build")
	out, err := exec.Command(filepath.Join(published, "godot-mcp-toolset-scenes"), "--describe").Output()
	if err != nil || !strings.Contains(string(out), `"name": "scenes"`) {
		t.Fatalf("--describe: %v\n%s", err, out)
	}

	// Scaffolded today against the checkout, then moved to the published
	// sdk with exactly the commands the generated go.mod gives.
	today := filepath.Join(t.TempDir(), "today")
	if code, out, errOut := runToolsetCmd("new", "--sdk", root, "scenes", today); code != 0 {
		t.Fatalf("toolset new --sdk %s: exit %d\n%s%s", root, code, out, errOut)
	}
	mod, _ = os.ReadFile(filepath.Join(today, "go.mod"))
	cmds := regexp.MustCompile(`(?m)^//\tgo (.+)$`).FindAllStringSubmatch(string(mod), -1)
	if len(cmds) != 3 {
		t.Fatalf("the generated go.mod should name three go commands for the move:\n%s", mod)
	}
	for _, c := range cmds {
		goCmd(today, strings.Fields(c[1])...)
	}
	mod, _ = os.ReadFile(filepath.Join(today, "go.mod"))
	if strings.Contains(string(mod), "\nreplace ") || !strings.Contains(string(mod), "github.com/godot-mcp/godot-mcp/sdk "+version) {
		t.Errorf("go.mod after the move:\n%s", mod)
	}
	goCmd(today, "build")
}
