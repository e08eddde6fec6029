package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/godot-mcp/godot-mcp/host/catalog"
	"github.com/godot-mcp/godot-mcp/host/pluginenv"
	"github.com/godot-mcp/godot-mcp/host/server"
)

const pluginsUsage = `Usage: godot-mcp plugins <list|lock|verify> [flags]

Inspects and pins the toolset plugins: executables named
godot-mcp-toolset-<name> in the plugins directory.

  list    show each toolset (name, version, tools, Godot constraint, whether
          the lock file pins it, path) and every binary the host refuses, with
          the reason and the fix; --json for scripts
  lock    pin the binaries now in the directory: write their sha256 and
          manifest to godot-mcp.lock.json (atomically) and print what changed.
          Once a lock file exists the host refuses every binary it does not pin.
  verify  check the binaries against the lock file; exit 1 naming each binary
          that changed, is new, or is missing

Exit status: 0 on success; 1 when verify finds a difference or lock leaves
a refused binary out; 2 on bad flags or an unreadable directory or lock file.

Flags:
`

type pluginsOptions struct {
	dir  string
	json bool
}

func pluginsFlags(name string, stderr io.Writer) (*flag.FlagSet, *pluginsOptions) {
	o := &pluginsOptions{}
	fs := flag.NewFlagSet("godot-mcp plugins "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.dir, "plugins-dir", "", "plugins `directory`; default $"+catalog.PluginsDirEnv+" or beside the godot-mcp binary")
	if name == "list" {
		fs.BoolVar(&o.json, "json", false, "print JSON instead of a table")
	}
	fs.Usage = func() {
		fmt.Fprint(stderr, pluginsUsage)
		fs.PrintDefaults()
	}
	return fs, o
}

// runPlugins implements `godot-mcp plugins list|lock|verify`.
func runPlugins(args []string, stdout, stderr io.Writer) int {
	subs := map[string]func(*pluginsOptions, io.Writer, io.Writer) int{
		"list":   pluginsList,
		"lock":   pluginsLock,
		"verify": pluginsVerify,
	}
	if len(args) == 0 || subs[args[0]] == nil {
		help := len(args) > 0 && slices.Contains([]string{"-h", "--help", "help"}, args[0])
		if len(args) > 0 && !help {
			fmt.Fprintf(stderr, "godot-mcp plugins: unknown subcommand %q; use list, lock or verify\n\n", args[0])
		}
		fs, _ := pluginsFlags("list", stderr)
		fs.Usage()
		if help {
			return 0
		}
		return 2
	}
	fs, o := pluginsFlags(args[0], stderr)
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "godot-mcp plugins %s: unexpected argument %q\n", args[0], fs.Arg(0))
		return 2
	}
	return subs[args[0]](o, stdout, stderr)
}

// pluginList is what list prints; its JSON form is --json.
type pluginList struct {
	Dir      string          `json:"dir"`
	LockFile string          `json:"lock_file"`
	Locked   bool            `json:"locked"`
	Toolsets []listedToolset `json:"toolsets"`
	Problems []listedProblem `json:"problems"`
	// Ignored are files with the toolset prefix but no valid toolset name
	// (backups, editor files); they are never run.
	Ignored []string `json:"ignored"`
	// Warnings are unsafe permissions that did not refuse a binary.
	Warnings []string `json:"warnings"`
}

type listedToolset struct {
	Name    string   `json:"name"`
	Version string   `json:"version"`
	Tools   []string `json:"tools"`
	Godot   string   `json:"godot"`
	Pinned  bool     `json:"pinned"`
	Path    string   `json:"path"`
	SHA256  string   `json:"sha256"`
}

type listedProblem struct {
	Kind    string `json:"kind"`
	Name    string `json:"name,omitempty"`
	Path    string `json:"path,omitempty"`
	Clash   string `json:"clashes_with,omitempty"`
	Message string `json:"message"`
}

// openPluginCatalog opens the catalog for the plugins commands. They never
// run a binary anyone on the machine could have written (NoExecUnsafe), and
// --describe gets the plugin environment, with what
// $GODOT_MCP_PLUGIN_PASS_ENV names.
func openPluginCatalog(o *pluginsOptions, ignoreLock bool, stderr io.Writer) (*catalog.Catalog, bool) {
	pass := pluginenv.FromEnv(os.Getenv)
	c, err := catalog.Open(catalog.Options{Dir: o.dir, IgnoreLock: ignoreLock, NoExecUnsafe: true, FullHash: true,
		PassEnv: func(string) []string { return pass }, Reserved: server.CoreToolNames()})
	if err != nil {
		fmt.Fprintf(stderr, "godot-mcp plugins: %v\n", err)
		return nil, false
	}
	return c, true
}

func listProblems(c *catalog.Catalog) []listedProblem {
	out := []listedProblem{}
	for _, err := range c.Problems() {
		lp := listedProblem{Message: err.Error()}
		var p *catalog.Problem
		if errors.As(err, &p) {
			lp.Kind, lp.Name, lp.Path, lp.Clash = string(p.Kind), p.Name, p.Path, p.Clash
		}
		out = append(out, lp)
	}
	return out
}

func pluginsList(o *pluginsOptions, stdout, stderr io.Writer) int {
	c, ok := openPluginCatalog(o, false, stderr)
	if !ok {
		return 2
	}
	l := pluginList{Dir: c.Dir(), LockFile: c.LockPath(), Locked: c.Locked(), Toolsets: []listedToolset{}, Problems: listProblems(c),
		Ignored: append([]string{}, c.Ignored()...), Warnings: append([]string{}, c.Warnings()...)}
	for _, e := range c.Entries() {
		t := listedToolset{Name: e.Name, Version: e.Manifest.Version, Godot: e.Manifest.Godot, Pinned: e.Pinned, Path: e.Path, SHA256: e.SHA256, Tools: []string{}}
		for _, tool := range e.Manifest.Tools {
			t.Tools = append(t.Tools, tool.Name)
		}
		l.Toolsets = append(l.Toolsets, t)
	}
	if o.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(l); err != nil {
			fmt.Fprintf(stderr, "godot-mcp plugins list: %v\n", err)
			return 2
		}
		return 0
	}

	fmt.Fprintf(stdout, "Plugins directory: %s\n", l.Dir)
	if l.Locked {
		fmt.Fprintf(stdout, "Lock file: %s (only pinned binaries run)\n\n", l.LockFile)
	} else {
		fmt.Fprintf(stdout, "Lock file: none (binaries are trusted on first use; run \"godot-mcp plugins lock\" to pin them)\n\n")
	}
	if len(l.Toolsets) == 0 {
		fmt.Fprintln(stdout, "No toolsets.")
	} else {
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tVERSION\tTOOLS\tGODOT\tPIN\tPATH")
		for _, t := range l.Toolsets {
			godot, pin := t.Godot, "unpinned"
			if godot == "" {
				godot = "any"
			}
			if t.Pinned {
				pin = "pinned"
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\n", t.Name, t.Version, len(t.Tools), godot, pin, t.Path)
		}
		_ = tw.Flush()
	}
	if len(l.Problems) > 0 {
		fmt.Fprintf(stdout, "\nRefused binaries (%d):\n", len(l.Problems))
		for _, p := range l.Problems {
			fmt.Fprintf(stdout, "  - %s: %s\n", p.Kind, p.Message)
		}
	}
	if len(l.Warnings) > 0 {
		fmt.Fprintf(stdout, "\nWarnings (%d):\n", len(l.Warnings))
		for _, w := range l.Warnings {
			fmt.Fprintf(stdout, "  - %s\n", w)
		}
	}
	if len(l.Ignored) > 0 {
		fmt.Fprintf(stdout, "\nIgnored (not %s<name> with a valid toolset name, never run): %s\n",
			catalog.BinaryPrefix, strings.Join(l.Ignored, ", "))
	}
	return 0
}

func pluginsLock(o *pluginsOptions, stdout, stderr io.Writer) int {
	c, ok := openPluginCatalog(o, true, stderr)
	if !ok {
		return 2
	}
	old, err := catalog.ReadLock(c.LockPath())
	if err != nil {
		// Re-locking is how an operator repairs a broken lock file.
		fmt.Fprintf(stderr, "godot-mcp plugins lock: replacing the unreadable lock file: %v\n", err)
		old = nil
	}
	lock := c.Lock()
	changes := lockChanges(old, lock)
	if len(changes) == 0 && old != nil {
		fmt.Fprintf(stdout, "%s is up to date (%d toolsets pinned).\n", c.LockPath(), len(lock.Plugins))
	} else {
		if err := catalog.WriteLock(c.LockPath(), lock); err != nil {
			fmt.Fprintf(stderr, "godot-mcp plugins lock: writing %s: %v\n", c.LockPath(), err)
			return 2
		}
		fmt.Fprintf(stdout, "Wrote %s (%d toolsets pinned):\n", c.LockPath(), len(lock.Plugins))
		for _, ch := range changes {
			fmt.Fprintf(stdout, "  %s\n", ch)
		}
	}
	if probs := c.Problems(); len(probs) > 0 {
		fmt.Fprintf(stdout, "\nNot pinned, because the host refuses them (%d):\n", len(probs))
		for _, p := range probs {
			fmt.Fprintf(stdout, "  - %v\n", p)
		}
		return 1
	}
	return 0
}

// lockChanges describes how newer differs from older, one line per
// toolset: + pinned, - dropped, ~ re-pinned.
func lockChanges(older, newer *catalog.Lock) []string {
	before := map[string]catalog.LockedPlugin{}
	if older != nil {
		for _, p := range older.Plugins {
			before[p.File] = p
		}
	}
	var out []string
	for _, p := range newer.Plugins {
		b, ok := before[p.File]
		delete(before, p.File)
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("+ %s %s (%s, sha256 %s)", p.Name, p.Manifest.Version, p.File, shortSum(p.SHA256)))
		case b.SHA256 != p.SHA256:
			oldVersion := "?"
			if b.Manifest != nil {
				oldVersion = b.Manifest.Version
			}
			out = append(out, fmt.Sprintf("~ %s %s -> %s (sha256 %s -> %s)", p.Name, oldVersion, p.Manifest.Version, shortSum(b.SHA256), shortSum(p.SHA256)))
		}
	}
	var gone []string
	for file, p := range before {
		gone = append(gone, fmt.Sprintf("- %s (%s)", p.Name, file))
	}
	slices.Sort(gone)
	return append(out, gone...)
}

func shortSum(sum string) string {
	if len(sum) > 12 {
		return sum[:12]
	}
	return sum
}

func pluginsVerify(o *pluginsOptions, stdout, stderr io.Writer) int {
	c, ok := openPluginCatalog(o, false, stderr)
	if !ok {
		return 2
	}
	if !c.Locked() {
		fmt.Fprintf(stderr, "godot-mcp plugins verify: no lock file at %s, so nothing is pinned; run \"godot-mcp plugins lock\" to pin the current binaries\n", c.LockPath())
		return 1
	}
	var differ, other []error
	for _, err := range c.Problems() {
		var p *catalog.Problem
		if errors.As(err, &p) && p.Untrusted() {
			differ = append(differ, err)
		} else {
			other = append(other, err)
		}
	}
	for _, err := range other {
		fmt.Fprintf(stderr, "warning: %v\n", err)
	}
	if len(differ) > 0 {
		fmt.Fprintf(stdout, "%d binaries differ from %s:\n", len(differ), c.LockPath())
		for _, err := range differ {
			var p *catalog.Problem
			errors.As(err, &p)
			fmt.Fprintf(stdout, "  %s %s: %v\n", p.Kind, filepath.Base(p.Path), err)
		}
		return 1
	}
	names := make([]string, 0, len(c.Entries()))
	for _, e := range c.Entries() {
		names = append(names, e.Name)
	}
	fmt.Fprintf(stdout, "OK: %d binaries match %s (%s)\n", len(names), c.LockPath(), strings.Join(names, ", "))
	return 0
}
