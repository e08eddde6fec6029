package main

import (
	"bufio"
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"text/template"

	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// sdkModule is the module path toolsets import.
const sdkModule = "github.com/godot-mcp/godot-mcp/sdk"

// defaultGoVersion is the go directive of a generated module when the sdk's
// own go.mod cannot be read (a published sdk): the version this repository
// builds with.
const defaultGoVersion = "1.26.0"

// toolsetTemplates are the files `toolset new` writes. Each NAME.tmpl
// becomes NAME in the new module ("gitignore" becomes ".gitignore"); the
// .tmpl suffix keeps the Go templates out of this module's build.
//
//go:embed toolsettmpl/*.tmpl
var toolsetTemplates embed.FS

const toolsetUsage = `Usage: godot-mcp toolset new [--sdk DIR|VERSION] [--module PATH] NAME [DIR]

Writes a new toolset module into DIR (default ./godot-mcp-toolset-NAME):
two typed tools using sdk/godot that work headless and with a Godot editor
attached (a read-only scene summary, and a rename that writes through the
host's workspace or asks the editor, with dry runs), sdktest tests of both
modes, a README and a go.mod, then runs "go mod tidy" in it. The result builds, tests and installs as is:

  cd DIR && go test ./... && go build && ./godot-mcp-toolset-NAME --describe

NAME is the toolset name: 1-48 lower-case letters, digits and '_', starting
with a letter, not "core".

The sdk module is not published yet, so by default go.mod gets a replace
directive pointing at the sdk of a godot-mcp checkout, found in this order:
--sdk DIR; a checkout holding DIR or the working directory; the checkout this
godot-mcp binary was built from (unless built with -trimpath). Once the sdk
is published, pass
--sdk VERSION (such as v0.2.0) for a plain require without replace.

Flags:
`

// runToolset implements `godot-mcp toolset new`.
func runToolset(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "new" {
		help := len(args) > 0 && slices.Contains([]string{"-h", "--help", "help"}, args[0])
		if len(args) > 0 && !help {
			fmt.Fprintf(stderr, "godot-mcp toolset: unknown subcommand %q; the only one is new\n\n", args[0])
		}
		fmt.Fprint(stderr, toolsetUsage)
		if help {
			return 0
		}
		return 2
	}
	flags := flag.NewFlagSet("godot-mcp toolset new", flag.ContinueOnError)
	flags.SetOutput(stderr)
	sdkFlag := flags.String("sdk", "", "the sdk to build against: a `DIR` (a godot-mcp checkout or its sdk directory) or a published VERSION such as v0.2.0")
	module := flags.String("module", "", "module `path` of the new toolset; default example.com/godot-mcp-toolset-NAME")
	flags.Usage = func() {
		fmt.Fprint(stderr, toolsetUsage)
		flags.PrintDefaults()
	}
	// Flags may come before or after the positional arguments.
	var pos []string
	rest := args[1:]
	for {
		if err := flags.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0
			}
			return 2
		}
		if flags.NArg() == 0 {
			break
		}
		pos = append(pos, flags.Arg(0))
		rest = flags.Args()[1:]
	}
	fail := func(code, hint, format string, a ...any) int {
		fmt.Fprintf(stderr, "godot-mcp toolset new: %s: %s\nHint: %s\n", code, fmt.Sprintf(format, a...), hint)
		return 1
	}
	if len(pos) == 0 || len(pos) > 2 {
		fmt.Fprintf(stderr, "godot-mcp toolset new: INVALID_ARGUMENT: want NAME [DIR], got %d arguments\nHint: run as godot-mcp toolset new scenes\n\n", len(pos))
		flags.Usage()
		return 2
	}
	name := pos[0]
	if err := validToolsetName(name); err != nil {
		return fail("INVALID_ARGUMENT", `choose a name such as "scenes" or "level_tools"; agents see tools as godot_<name>_<tool>`, "%v", err)
	}
	dir := "godot-mcp-toolset-" + name
	if len(pos) == 2 {
		dir = pos[1]
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return fail("INVALID_ARGUMENT", "pass a directory path", "%v", err)
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fail("ALREADY_EXISTS", "pass a new or empty directory as DIR; nothing was written",
			"%s exists and is not empty", dir)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fail("INVALID_ARGUMENT", "pass a new or empty directory as DIR", "%v", err)
	}

	data := toolsetData{Name: name, Module: *module, GoVersion: defaultGoVersion}
	if data.Module == "" {
		data.Module = "example.com/godot-mcp-toolset-" + name
	}
	if err := validModulePath(data.Module); err != nil {
		return fail("INVALID_ARGUMENT", "pass a module path such as github.com/you/godot-mcp-toolset-"+name, "%v", err)
	}
	if base := data.Module[strings.LastIndex(data.Module, "/")+1:]; base != "godot-mcp-toolset-"+name {
		fmt.Fprintf(stderr, "godot-mcp toolset new: note: the module path does not end in godot-mcp-toolset-%s, so build with go build -o godot-mcp-toolset-%s\n", name, name)
	}
	if err := data.resolveSDK(*sdkFlag, dir); err != nil {
		return fail("SDK_NOT_FOUND",
			"pass --sdk with the path of a godot-mcp checkout (git clone https://github.com/godot-mcp/godot-mcp), or --sdk vX.Y.Z once the sdk is published",
			"%v", err)
	}

	files, err := renderToolset(data)
	if err != nil {
		return fail("INTERNAL_ERROR", "this is a bug in godot-mcp; please report it", "%v", err)
	}
	if err := writeFiles(dir, files); err != nil {
		return fail("WRITE_FAILED", "check that the directory is writable, then run again", "%v", err)
	}
	fmt.Fprintf(stdout, "wrote the toolset %q to %s\n", name, dir)

	// go mod tidy fills in the requirements and go.sum. GOWORK=off: the
	// new module is its own build even when it sits inside a workspace.
	if goBin, err := exec.LookPath("go"); err != nil {
		fmt.Fprintf(stdout, "go is not on PATH: install Go, then run \"go mod tidy\" in %s\n", dir)
	} else {
		cmd := exec.Command(goBin, "mod", "tidy")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			return fail("GO_MOD_TIDY_FAILED", "fix the problem above, then run \"go mod tidy\" in "+dir+"; the files are written",
				"go mod tidy: %v\n%s", err, strings.TrimSpace(out.String()))
		}
	}
	if ws := enclosingWorkspace(dir); ws != "" {
		rel, _ := filepath.Rel(filepath.Dir(ws), dir)
		fmt.Fprintf(stdout, "note: %s is inside the Go workspace %s; add it with \"go work use %s\" there, or build with GOWORK=off\n", dir, ws, rel)
	}
	fmt.Fprintf(stdout, "next:\n  cd %s\n  go test ./...\n  go build\n  ./godot-mcp-toolset-%s --describe\n", dir, name)
	return 0
}

// toolsetData fills the templates.
type toolsetData struct {
	Name       string // toolset name
	Module     string // module path of the new toolset
	GoVersion  string // go directive
	SDKVersion string // required version of the sdk module
	Replace    string // replace target for the sdk module; "" for a published sdk
}

// validToolsetName checks name with the manifest's own rules, so the
// scaffold never writes a toolset the sdk would refuse. The rest of the
// probe manifest is valid; should a future rule still object to it, only
// the problems about the name count.
func validToolsetName(name string) error {
	m := manifest.Manifest{Name: name, Version: "0.1.0", Description: "A toolset.", Tools: []manifest.Tool{{
		Name: "probe", Description: "A tool.", InputSchema: json.RawMessage(`{"type":"object"}`), SafetyClass: manifest.ReadOnly,
	}}}
	err := m.Validate()
	if err == nil {
		return nil
	}
	all := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		all = j.Unwrap()
	}
	var about []error
	for _, e := range all {
		if strings.Contains(e.Error(), "toolset name") {
			about = append(about, e)
		}
	}
	return errors.Join(about...)
}

var (
	moduleElemRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._~-]*$`)
	sdkVersionRE = regexp.MustCompile(`^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$`)
)

// validModulePath is a conservative check of a Go module path: slash
// separated elements of letters, digits and ._~-.
func validModulePath(p string) error {
	for _, e := range strings.Split(p, "/") {
		if !moduleElemRE.MatchString(e) || strings.HasSuffix(e, ".") {
			return fmt.Errorf("module path %q is invalid: element %q must be letters, digits and ._~- (not starting with one of them)", p, e)
		}
	}
	return nil
}

// resolveSDK decides how the new module gets the sdk: a published version,
// or a replace directive pointing at a checkout's sdk directory.
func (d *toolsetData) resolveSDK(flagValue, dir string) error {
	if sdkVersionRE.MatchString(flagValue) {
		d.SDKVersion = flagValue
		return nil
	}
	var sdkDir string
	if flagValue != "" {
		abs, err := filepath.Abs(flagValue)
		if err != nil {
			return err
		}
		for _, c := range []string{abs, filepath.Join(abs, "sdk")} {
			if isSDKDir(c) {
				sdkDir = c
				break
			}
		}
		if sdkDir == "" {
			return fmt.Errorf("--sdk %s is neither a published version (vX.Y.Z) nor a directory holding the module %s (a godot-mcp checkout or its sdk directory)", flagValue, sdkModule)
		}
	} else {
		wd, _ := os.Getwd()
		sdkDir = findSDK(dir, wd, builtFromCheckout())
		if sdkDir == "" {
			return fmt.Errorf("the module %s is not published yet, and no godot-mcp checkout holds %s or the working directory", sdkModule, dir)
		}
	}
	d.SDKVersion = "v0.0.0-00010101000000-000000000000" // the version go uses for a replaced module
	if v := goDirective(filepath.Join(sdkDir, "go.mod")); v != "" {
		d.GoVersion = v
	}
	// Inside the same checkout a relative path keeps working when the
	// checkout moves; outside it, an absolute path is the honest choice.
	d.Replace = sdkDir
	if root := filepath.Dir(sdkDir); strings.HasPrefix(dir, root+string(filepath.Separator)) {
		if rel, err := filepath.Rel(dir, sdkDir); err == nil {
			d.Replace = filepath.ToSlash(rel)
		}
	}
	return nil
}

// findSDK returns the sdk directory of the first godot-mcp checkout that
// holds one of the starting points (walking up), or "".
func findSDK(starts ...string) string {
	for _, s := range starts {
		if s == "" {
			continue
		}
		for d := s; ; {
			if c := filepath.Join(d, "sdk"); isSDKDir(c) {
				return c
			}
			if isSDKDir(d) {
				return d
			}
			parent := filepath.Dir(d)
			if parent == d {
				break
			}
			d = parent
		}
	}
	return ""
}

// builtFromCheckout is the root of the checkout this binary was compiled
// from, when it was built from source without -trimpath; "" otherwise.
func builtFromCheckout() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return ""
	}
	root := filepath.Dir(filepath.Dir(filepath.Dir(file))) // cmd/godot-mcp/toolset.go
	if _, err := os.Stat(root); err != nil {
		return ""
	}
	return root
}

// isSDKDir reports whether dir holds the go.mod of the sdk module.
func isSDKDir(dir string) bool {
	return modulePath(filepath.Join(dir, "go.mod")) == sdkModule
}

// modulePath reads the module directive of a go.mod file; "" if none.
func modulePath(gomod string) string {
	return directive(gomod, "module")
}

// goDirective reads the go directive of a go.mod file; "" if none.
func goDirective(gomod string) string {
	return directive(gomod, "go")
}

func directive(gomod, name string) string {
	f, err := os.Open(gomod)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 2 && fields[0] == name {
			return strings.Trim(fields[1], `"`)
		}
	}
	return ""
}

// enclosingWorkspace returns the go.work file of a directory above dir, or "".
func enclosingWorkspace(dir string) string {
	for d := filepath.Dir(dir); ; {
		if _, err := os.Stat(filepath.Join(d, "go.work")); err == nil {
			return filepath.Join(d, "go.work")
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// renderToolset executes every template: file name → content.
func renderToolset(data toolsetData) (map[string][]byte, error) {
	entries, err := fs.ReadDir(toolsetTemplates, "toolsettmpl")
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	for _, e := range entries {
		src, err := fs.ReadFile(toolsetTemplates, "toolsettmpl/"+e.Name())
		if err != nil {
			return nil, err
		}
		tmpl, err := template.New(e.Name()).Option("missingkey=error").Parse(string(src))
		if err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		if err := tmpl.Execute(&buf, data); err != nil {
			return nil, err
		}
		name := strings.TrimSuffix(e.Name(), ".tmpl")
		if name == "gitignore" {
			name = ".gitignore"
		}
		files[name] = buf.Bytes()
	}
	return files, nil
}

// writeFiles creates dir and writes the files into it, each created
// exclusively so nothing existing is ever overwritten.
func writeFiles(dir string, files map[string][]byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		f, err := os.OpenFile(filepath.Join(dir, n), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return err
		}
		_, werr := f.Write(files[n])
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return werr
		}
	}
	return nil
}
