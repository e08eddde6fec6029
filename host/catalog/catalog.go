// Package catalog answers "which toolsets exist?" without running any of
// them: it scans the plugins directory for binaries named
// godot-mcp-toolset-<name>, learns each one's manifest, and decides which
// binaries to trust.
//
//	cat, err := catalog.Open(catalog.Options{}) // $GODOT_MCP_PLUGINS_DIR or beside the host binary
//	if err != nil { … }                          // unreadable directory or lock file
//	for _, e := range cat.Entries() {            // trusted toolsets, sorted by name
//		fmt.Println(e.Name, e.Manifest.Version, e.Pinned)
//	}
//	for _, p := range cat.Problems() {           // refused binaries, each saying how to fix it
//		log.Println(p)
//	}
//	err = cat.Verify(entry) // re-hash before starting: has the binary changed since?
//
// # Manifests
//
// A binary's manifest is what it prints when run with --describe (stdin
// /dev/null, a timeout, at most 4 MiB of output). The manifest must pass
// manifest.Validate and its name must equal the file-name suffix. Describing
// runs a process, so results are cached by the binary's sha256, one JSON file
// per digest in os.UserCacheDir()/godot-mcp/manifests (Options.CacheDir).
// Keying by content means a cache entry can never describe a different
// binary, so the cache needs no invalidation; an entry that does not parse or
// validate is ignored and rebuilt. Listing toolsets therefore never leaves a
// process running, and listing them again runs nothing.
//
// # Trust
//
// The lock file (godot-mcp.lock.json in the plugins directory, written by
// `godot-mcp plugins lock`) pins every binary's sha256 and its manifest.
// With a lock file, a binary whose digest differs from its pin, or that has
// no pin, is refused and never run, not even with --describe: the manifest
// comes from the lock file. Without a lock file every binary is trusted on
// first use: hashed at Open, and re-hashed by Verify before every start, so
// a binary swapped behind the catalog's back is never started unchecked.
// A swapped binary is taken only through Refresh, which checks it exactly as
// Open would (the host's hot-upgrade watcher calls it).
//
// Binaries named by the operator outside the plugins directory
// (Options.Dev, serve --dev-plugin) are cataloged the same way, except that
// the lock file does not apply to them.
//
// A binary whose manifest name differs from its file name (a copy
// "godot-mcp-toolset-project_old" that still describes "project", or a
// plugin claiming another toolset's name) is refused alone, once: the
// genuine godot-mcp-toolset-project stays. Two binaries that are both named
// for the toolset they describe (a --dev-plugin and an installed one) are
// both refused, in one problem naming both: which one an operator meant
// cannot be guessed.
//
// # Names
//
// Only files named exactly godot-mcp-toolset-<name>, where <name> is a valid
// toolset name (manifest.CheckName), are candidates. Anything else with the
// prefix (a backup "….bak", an editor's "…~", "….old") is ignored without
// being run, and listed once in Ignored; it never knocks out the real
// binary.
//
// Two toolsets whose tools would be exposed under one MCP name ("project"
// with "get_filesystem_tree" and "project_get" with "filesystem_tree" both
// make godot_project_get_filesystem_tree) cannot both be served. The one the
// lock file pins wins; without a pin, the one whose name sorts first. The
// other is refused with a ProblemClash naming the tool, the exposed name and
// the toolset it clashes with. A toolset clashing with a core tool of the
// host is always refused.
//
// # Permissions
//
// A binary, or a plugins directory, that any local user can write is
// unsafe: whoever can write it can run code as the operator. Such binaries
// are reported in Warnings, or refused (ProblemUnsafe) with
// Options.RefuseUnsafe. With Options.NoExecUnsafe they are never run with
// --describe; their manifest may still come from the lock file or the cache.
//
// Problems with one binary never affect the others; they are collected in
// Problems. Open fails only when the directory or the lock file cannot be
// read.
package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/godot-mcp/godot-mcp/host/exposure"
	"github.com/godot-mcp/godot-mcp/host/pluginenv"
	"github.com/godot-mcp/godot-mcp/sdk/manifest"
)

// BinaryPrefix starts the file name of every toolset binary; the rest of the
// name is the toolset name.
const BinaryPrefix = "godot-mcp-toolset-"

// LockFileName is the lock file's name in the plugins directory.
const LockFileName = "godot-mcp.lock.json"

// PluginsDirEnv overrides the plugins directory.
const PluginsDirEnv = "GODOT_MCP_PLUGINS_DIR"

// Options configure Open. The zero value scans DefaultDir.
type Options struct {
	// Dir is the plugins directory; "" means DefaultDir().
	Dir string
	// LockPath is the lock file; "" means Dir/godot-mcp.lock.json.
	LockPath string
	Logger   hclog.Logger
	// DescribeTimeout bounds one --describe run. Default 10s.
	DescribeTimeout time.Duration
	// FullHash reads every binary to hash it, ignoring the digests cached
	// by what stat says of each file (hashcache.go): for the operator's
	// `plugins verify` and `lock`. A host start does not need it, since
	// every binary is hashed in full again right before it runs.
	FullHash bool
	// CacheDir holds cached manifests; "" means
	// os.UserCacheDir()/godot-mcp/manifests. If no cache directory can be
	// found, manifests are not cached.
	CacheDir string
	// IgnoreLock trusts every binary on first use even when a lock file
	// exists. It is how `godot-mcp plugins lock` sees the binaries it is
	// about to pin; never use it to serve.
	IgnoreLock bool
	// PassEnv names host environment variables a --describe run gets
	// besides the allow list of host/pluginenv; a function of the toolset
	// name (taken from the file name), like the supervisor's. Nil: none.
	PassEnv func(toolset string) []string
	// SecretEnv names variables never passed to a binary.
	SecretEnv []string
	// RefuseUnsafe refuses binaries that any local user can write (or
	// that live in such a directory) instead of only warning about them.
	RefuseUnsafe bool
	// NoExecUnsafe never runs an unsafe binary with --describe; `plugins
	// list` and `plugins lock` set it, so that listing plugins does not
	// execute a file someone else may have planted.
	NoExecUnsafe bool
	// Reserved are exposed tool names the host keeps for itself (its core
	// tools); a toolset whose tool would take one is refused.
	Reserved []string
	// Dev are binaries outside the plugins directory that the operator
	// named (serve --dev-plugin), each named godot-mcp-toolset-<name>.
	// They are cataloged like the others except that the lock file does
	// not apply: naming one on the command line is the trust. Their
	// entries are marked Dev.
	Dev []string
}

// Entry is a trusted toolset binary.
type Entry struct {
	Name     string             // toolset name (from the manifest)
	Path     string             // absolute path of the binary
	SHA256   string             // hex digest of the binary as cataloged
	Manifest *manifest.Manifest // validated
	Pinned   bool               // the lock file pins this binary
	// Dev marks a toolset the operator named with serve --dev-plugin: it
	// lives outside the plugins directory and the lock file does not apply
	// to it (naming it on the command line is the trust).
	Dev bool
}

// Catalog is the result of one scan. Only Refresh changes it, for one
// binary already cataloged (a hot upgrade); open a new one to see new
// binaries.
type Catalog struct {
	opts Options

	mu       sync.RWMutex // guards entries, byName, problems, upgradeErr
	dir      string
	lockPath string
	hasLock  bool
	entries  []Entry
	byName   map[string]Entry
	problems []error
	ignored  []string
	warnings []string
	// upgradeErr is why the last Refresh of a toolset refused its new
	// binary; listed in Problems until a Refresh succeeds.
	upgradeErr map[string]error
}

// DefaultDir returns $GODOT_MCP_PLUGINS_DIR if set, else the directory of the
// host executable with symlinks resolved, so that toolsets installed beside
// the binary are found however it was started. It returns "." if the
// executable cannot be located.
func DefaultDir() string {
	if d := os.Getenv(PluginsDirEnv); d != "" {
		return d
	}
	exe, err := os.Executable()
	if err != nil {
		return "."
	}
	if resolved, err := filepath.EvalSymlinks(exe); err == nil {
		exe = resolved
	}
	return filepath.Dir(exe)
}

// Open scans the plugins directory. See the package documentation for what
// is trusted and why. The error is about the directory or the lock file;
// problems with single binaries are in Problems.
func Open(opts Options) (*Catalog, error) {
	if opts.Logger == nil {
		opts.Logger = hclog.NewNullLogger()
	}
	if opts.DescribeTimeout <= 0 {
		opts.DescribeTimeout = 10 * time.Second
	}
	dir := opts.Dir
	if dir == "" {
		dir = DefaultDir()
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("plugins directory %q: %w", opts.Dir, err)
	}
	lockPath := opts.LockPath
	if lockPath == "" {
		lockPath = filepath.Join(dir, LockFileName)
	}
	c := &Catalog{opts: opts, dir: dir, lockPath: lockPath, byName: map[string]Entry{}, upgradeErr: map[string]error{}}

	files, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("reading plugins directory: %w; create it, or point %s or --plugins-dir at the directory holding the godot-mcp-toolset-* binaries", err, PluginsDirEnv)
	}
	var lock *Lock
	if !opts.IgnoreLock {
		lock, err = ReadLock(lockPath)
		if err != nil {
			return nil, err
		}
	}
	c.hasLock = lock != nil

	var names []string
	for _, f := range files {
		suffix, ok := strings.CutPrefix(f.Name(), BinaryPrefix)
		switch {
		case !ok:
		case manifest.CheckName(suffix) != nil:
			c.ignored = append(c.ignored, f.Name())
		default:
			names = append(names, f.Name())
		}
	}
	if len(c.ignored) > 0 {
		opts.Logger.Info("ignoring files in the plugins directory that are not named "+BinaryPrefix+"<name> with a valid toolset name",
			"dir", dir, "files", c.ignored)
	}
	dirUnsafe := false
	if info, err := os.Stat(dir); err == nil && info.Mode().Perm()&0o002 != 0 {
		dirUnsafe = true
		c.warnings = append(c.warnings, fmt.Sprintf("the plugins directory %s is writable by every local user (mode %v), so anyone on this machine can plant a toolset; run chmod o-w on it", dir, info.Mode().Perm()))
	}
	cache := newCache(opts.CacheDir, opts.Logger)
	results := make([]scanned, len(names))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.NumCPU())
	for i, name := range names {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			results[i] = scan(dir, name, lock, cache, opts, dirUnsafe)
		}()
	}
	wg.Wait()
	present := map[string]bool{}
	for _, name := range names {
		present[filepath.Join(dir, name)] = true
	}
	cache.sums.save(present)
	for _, p := range opts.Dev {
		abs, err := filepath.Abs(p)
		if err != nil {
			abs = p
		}
		r := scan(filepath.Dir(abs), filepath.Base(abs), nil, cache, opts, false)
		r.entry.Dev = true
		results = append(results, r)
	}

	// A binary whose manifest names another toolset than its file name
	// (a stale copy "…-project_old", a plugin claiming someone else's
	// name) is refused on its own: it never makes the genuine binary of
	// that name ambiguous. Only binaries named for what they describe
	// claim a name; two of those (a dev binary and an installed one) are
	// both refused, in one problem naming every path.
	claims := map[string][]string{}
	for _, r := range results {
		if r.problem == nil && r.entry.Name == r.suffix {
			claims[r.entry.Name] = append(claims[r.entry.Name], r.entry.Path)
		}
	}
	reported := map[string]bool{}
	for _, r := range results {
		switch {
		case r.problem != nil:
			if r.problem.Kind == ProblemUnpinned || r.problem.Kind == ProblemChanged {
				// Refused at start, the toolset is not in this host at
				// all: pinning it is not enough, the host must start again.
				r.problem.Err = fmt.Errorf("%w, then restart the host", r.problem.Err)
			}
			c.problems = append(c.problems, r.problem)
		case r.entry.Name != r.suffix:
			fix := fmt.Sprintf("rename it to %s%s", BinaryPrefix, r.entry.Name)
			if len(claims[r.entry.Name]) > 0 {
				fix = fmt.Sprintf("toolset %q is served from %s; remove this file if it is a stale copy", r.entry.Name, strings.Join(claims[r.entry.Name], " and "))
			}
			c.problems = append(c.problems, &Problem{Kind: ProblemManifest, Name: r.suffix, Path: r.entry.Path,
				Err: fmt.Errorf("%s describes toolset %q, but its file name says %q, so it is refused (a toolset is served only from %s<its name>); %s",
					r.entry.Path, r.entry.Name, r.suffix, BinaryPrefix, fix)})
		case len(claims[r.entry.Name]) > 1:
			if !reported[r.entry.Name] {
				reported[r.entry.Name] = true
				c.problems = append(c.problems, &Problem{Kind: ProblemDuplicate, Name: r.entry.Name, Path: r.entry.Path,
					Err: fmt.Errorf("toolset name %q is claimed by %s; all are refused: remove all but one",
						r.entry.Name, strings.Join(claims[r.entry.Name], " and "))})
			}
		default:
			if r.warning != "" {
				c.warnings = append(c.warnings, r.warning)
			}
			c.entries = append(c.entries, r.entry)
		}
	}
	kept, clashes := ResolveClashes(c.entries, opts.Reserved)
	c.entries = kept
	for _, p := range clashes {
		c.problems = append(c.problems, p)
	}
	for _, e := range c.entries {
		c.byName[e.Name] = e
	}
	if lock != nil {
		present := map[string]bool{}
		for _, n := range names {
			present[n] = true
		}
		for _, p := range lock.Plugins {
			if !present[p.File] {
				c.problems = append(c.problems, &Problem{Kind: ProblemMissing, Name: p.Name, Path: filepath.Join(dir, p.File),
					Err: fmt.Errorf("the lock file pins toolset %q but %s is missing; reinstall it, or run \"godot-mcp plugins lock\" to drop the pin",
						p.Name, filepath.Join(dir, p.File))})
			}
		}
	}
	sort.Slice(c.entries, func(i, j int) bool { return c.entries[i].Name < c.entries[j].Name })
	sort.SliceStable(c.problems, func(i, j int) bool { return problemPath(c.problems[i]) < problemPath(c.problems[j]) })
	sort.Strings(c.warnings)
	// Problems and warnings are not logged here: the caller reports them
	// (the host logs each once, `plugins list` prints them).
	return c, nil
}

// ResolveClashes keeps, of every set of toolsets whose tools would share an
// exposed MCP name, only one: the pinned one, or else the one whose name
// sorts first; a toolset whose tool would take a core tool's name is always
// refused (reserved lists those names). The refused are returned as ProblemClash problems naming the tool,
// the exposed name, the toolset kept and the fix. kept is sorted by name.
func ResolveClashes(entries []Entry, reserved []string) (kept []Entry, refused []*Problem) {
	order := slices.Clone(entries)
	sort.SliceStable(order, func(i, j int) bool {
		if order[i].Pinned != order[j].Pinned {
			return order[i].Pinned
		}
		return order[i].Name < order[j].Name
	})
	owner := map[string]string{}
	for _, name := range reserved {
		owner[name] = manifest.CoreToolset
	}
	pinned := map[string]bool{}
	for _, e := range order {
		if e.Manifest == nil {
			kept = append(kept, e)
			continue
		}
		var clash *Problem
		for _, t := range e.Manifest.Tools {
			name := exposure.ExposedName(e.Name, t.Name)
			prev, taken := owner[name]
			if !taken || prev == e.Name {
				continue
			}
			why := "its name sorts first"
			switch {
			case prev == exposure.CoreToolset:
				why = "core tools of the host always win"
			case pinned[prev]:
				why = "it is pinned in the lock file"
			}
			clash = &Problem{Kind: ProblemClash, Name: e.Name, Path: e.Path, Clash: prev,
				Err: fmt.Errorf("toolset %q is refused: its tool %q would be exposed as %s, which toolset %q already provides (kept because %s); rename the toolset or the tool and reinstall, or remove one of the binaries",
					e.Name, t.Name, name, prev, why)}
			break
		}
		if clash != nil {
			refused = append(refused, clash)
			continue
		}
		for _, t := range e.Manifest.Tools {
			owner[exposure.ExposedName(e.Name, t.Name)] = e.Name
		}
		pinned[e.Name] = e.Pinned
		kept = append(kept, e)
	}
	sort.Slice(kept, func(i, j int) bool { return kept[i].Name < kept[j].Name })
	return kept, refused
}

func problemPath(err error) string {
	var p *Problem
	if errors.As(err, &p) {
		return p.Path
	}
	return ""
}

// scanned is the outcome for one binary: an entry or a problem.
type scanned struct {
	entry   Entry
	suffix  string // the toolset name the file name claims
	problem *Problem
	warning string // unsafe permissions, when not refused
}

func scan(dir, file string, lock *Lock, cache *cache, opts Options, dirUnsafe bool) scanned {
	path := filepath.Join(dir, file)
	suffix := strings.TrimPrefix(file, BinaryPrefix)
	refuse := func(kind ProblemKind, format string, args ...any) scanned {
		return scanned{problem: &Problem{Kind: kind, Name: suffix, Path: path, Err: fmt.Errorf(format, args...)}}
	}
	info, err := os.Stat(path) // follows symlinks: a linked binary is fine
	if err != nil {
		return refuse(ProblemFile, "cannot read %s: %v", path, err)
	}
	if !info.Mode().IsRegular() {
		return refuse(ProblemFile, "%s is not a regular file; toolset binaries must be executables named %s<name>", path, BinaryPrefix)
	}
	if info.Mode().Perm()&0o111 == 0 {
		return refuse(ProblemFile, "%s is not executable; run chmod +x on it", path)
	}
	unsafe := ""
	switch {
	case info.Mode().Perm()&0o002 != 0:
		unsafe = fmt.Sprintf("%s is writable by every local user (mode %v), so anyone on this machine can replace the code the host runs; run chmod o-w on it", path, info.Mode().Perm())
	case dirUnsafe:
		unsafe = fmt.Sprintf("%s lies in a plugins directory every local user can write, so anyone on this machine can replace it; run chmod o-w on %s", path, dir)
	}
	if unsafe != "" && opts.RefuseUnsafe {
		return refuse(ProblemUnsafe, "%s; refused because the policy sets plugins.refuse_unsafe_permissions", unsafe)
	}
	sum, err := cache.sums.sum(path, info, opts.FullHash)
	if err != nil {
		return refuse(ProblemFile, "cannot hash %s: %v", path, err)
	}

	var m *manifest.Manifest
	pinned := false
	if lock != nil {
		lp := lock.find(file)
		switch {
		case lp == nil:
			return refuse(ProblemUnpinned, "%s is not in the lock file %s; run \"godot-mcp plugins lock\" to trust the new binary", path, lock.path)
		case lp.SHA256 != sum:
			return refuse(ProblemChanged, "%s differs from the lock file (sha256 %s, pinned %s); run \"godot-mcp plugins lock\" to trust the new binary", path, short(sum), short(lp.SHA256))
		case lp.Manifest == nil:
			return refuse(ProblemManifest, "the lock file pins %s without a manifest; run \"godot-mcp plugins lock\" to rebuild it", path)
		}
		if err := lp.Manifest.Validate(); err != nil {
			return refuse(ProblemManifest, "the lock file's manifest for %s is invalid: %v; run \"godot-mcp plugins lock\" to rebuild it", path, err)
		}
		m, pinned = lp.Manifest, true
	} else if m = cache.get(sum); m == nil && unsafe != "" && opts.NoExecUnsafe {
		return refuse(ProblemUnsafe, "%s; it was not run to read its manifest", unsafe)
	} else if m == nil {
		var pass []string
		if opts.PassEnv != nil {
			pass = opts.PassEnv(suffix)
		}
		env := pluginenv.Build(os.Environ(), pluginenv.Options{Pass: pass, Secret: opts.SecretEnv})
		m, err = cache.manifest(path, sum, opts.DescribeTimeout, env)
		if err != nil {
			return refuse(ProblemManifest, "%s: %v", path, err)
		}
	}
	// The file name is checked against the manifest in Open, which words
	// the refusal after seeing whether a genuine binary of that name exists.
	return scanned{entry: Entry{Name: m.Name, Path: path, SHA256: sum, Manifest: m, Pinned: pinned}, suffix: suffix, warning: unsafe}
}

// Dir returns the scanned plugins directory (absolute).
func (c *Catalog) Dir() string { return c.dir }

// LockPath returns the lock file's path, whether or not it exists.
func (c *Catalog) LockPath() string { return c.lockPath }

// Locked reports whether a lock file was read: then every entry is pinned.
func (c *Catalog) Locked() bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.hasLock
}

// Entries returns the trusted toolsets, sorted by name.
func (c *Catalog) Entries() []Entry {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return append([]Entry(nil), c.entries...)
}

// Lookup returns the trusted toolset with the given name.
func (c *Catalog) Lookup(name string) (Entry, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	e, ok := c.byName[name]
	return e, ok
}

// Problems returns the binaries refused at scan, each a *Problem whose
// message names the binary and says how to fix it, followed by the new
// binaries Refresh refused (the old one serves on).
func (c *Catalog) Problems() []error {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := append([]error(nil), c.problems...)
	names := make([]string, 0, len(c.upgradeErr))
	for n := range c.upgradeErr {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		out = append(out, c.upgradeErr[n])
	}
	return out
}

// Refused returns the refused binaries as data (kind, toolset name, path,
// message), for tools that show them (godot_list_toolsets,
// godot_health_check, `plugins list`): the same problems as Problems.
func (c *Catalog) Refused() []*Problem {
	problems := c.Problems()
	out := make([]*Problem, 0, len(problems))
	for _, err := range problems {
		var p *Problem
		if errors.As(err, &p) {
			out = append(out, p)
		}
	}
	return out
}

// Ignored returns the file names in the plugins directory that start with
// BinaryPrefix but are not a valid toolset binary name (backups, editor
// files), sorted. They were not run.
func (c *Catalog) Ignored() []string { return append([]string(nil), c.ignored...) }

// Warnings returns problems that did not refuse a binary, each saying how
// to fix it: unsafe permissions of binaries or of the directory.
func (c *Catalog) Warnings() []string { return append([]string(nil), c.warnings...) }

// Verify re-hashes e's binary and fails if it changed since it was
// cataloged. The supervisor calls it before every start, so a binary
// replaced while the host runs is never started.
func (c *Catalog) Verify(e Entry) error {
	sum, err := HashFile(e.Path)
	if err != nil {
		return fmt.Errorf("toolset %q: cannot hash %s: %w; reinstall the toolset", e.Name, e.Path, err)
	}
	if sum != e.SHA256 {
		return fmt.Errorf("toolset %q: %s changed since it was cataloged (sha256 %s, expected %s); %s",
			e.Name, e.Path, short(sum), short(e.SHA256), c.ChangedHint())
	}
	return nil
}

// ChangedHint says what makes the host serve a changed binary: without a
// lock file nothing (the host checks the new binary and swaps it in by
// itself within seconds, or takes it at its next start); with one, the
// operator pins it first.
func (c *Catalog) ChangedHint() string {
	c.mu.RLock()
	locked := c.hasLock
	c.mu.RUnlock()
	if !locked {
		return "no lock file pins it, so the host checks the new binary and swaps it in by itself within seconds, or takes it at its next start; nothing to run"
	}
	return "the lock file pins the old binary: if the new one is intended, run \"godot-mcp plugins lock\" and the host swaps it in within seconds; otherwise reinstall the pinned version"
}

// Refresh re-catalogs the binary of an installed toolset after it changed
// on disk: it re-reads the lock file, hashes the binary, takes its manifest
// from the lock file or from --describe (the cache keyed by digest), and
// checks its name, its clashes with the other toolsets and the core tools,
// exactly as Open would. On success the new entry replaces the old one and
// is returned; on failure the old entry stays, the refusal is listed in
// Problems (replacing an older refusal of the same toolset), and returned.
func (c *Catalog) Refresh(name string) (Entry, error) {
	c.mu.RLock()
	old, ok := c.byName[name]
	c.mu.RUnlock()
	if !ok {
		return Entry{}, fmt.Errorf("toolset %q is not in the catalog; a new toolset is found when the host starts", name)
	}
	fail := func(p *Problem) (Entry, error) {
		if p.Kind == ProblemUnpinned || p.Kind == ProblemChanged {
			p.Err = fmt.Errorf("%w; the host swaps it in within seconds of the lock file changing", p.Err)
		}
		p.Err = fmt.Errorf("the new binary of toolset %q is refused, the old one serves on: %w", name, p.Err)
		c.mu.Lock()
		c.upgradeErr[name] = p
		c.mu.Unlock()
		return Entry{}, p
	}
	var lock *Lock
	if !c.opts.IgnoreLock && !old.Dev {
		l, err := ReadLock(c.lockPath)
		if err != nil {
			return fail(&Problem{Kind: ProblemFile, Name: name, Path: old.Path, Err: err})
		}
		lock = l
	}
	c.mu.Lock()
	c.hasLock = lock != nil
	c.mu.Unlock()
	dirUnsafe := false
	if info, err := os.Stat(filepath.Dir(old.Path)); err == nil && info.Mode().Perm()&0o002 != 0 {
		dirUnsafe = true
	}
	r := scan(filepath.Dir(old.Path), filepath.Base(old.Path), lock, newCache(c.opts.CacheDir, c.opts.Logger), c.opts, dirUnsafe)
	if r.problem != nil {
		return fail(r.problem)
	}
	if r.entry.Name != name {
		return fail(&Problem{Kind: ProblemManifest, Name: name, Path: old.Path,
			Err: fmt.Errorf("%s now describes toolset %q; a toolset cannot change its name while installed", old.Path, r.entry.Name)})
	}
	r.entry.Dev = old.Dev
	c.mu.Lock()
	defer c.mu.Unlock()
	others := make([]Entry, 0, len(c.entries))
	for _, e := range c.entries {
		if e.Name != name {
			others = append(others, e)
		}
	}
	r.entry.Pinned = r.entry.Pinned || old.Pinned && lock != nil
	_, clashes := ResolveClashes(append(others, r.entry), c.opts.Reserved)
	for _, p := range clashes {
		if p.Name == name || p.Clash == name {
			p.Err = fmt.Errorf("the new binary of toolset %q is refused, the old one serves on: %w", name, p.Err)
			c.upgradeErr[name] = p
			return Entry{}, p
		}
	}
	delete(c.upgradeErr, name)
	for i := range c.entries {
		if c.entries[i].Name == name {
			c.entries[i] = r.entry
		}
	}
	c.byName[name] = r.entry
	return r.entry, nil
}

// Lock returns a lock pinning every entry of the catalog; write it with
// WriteLock. Open the catalog with IgnoreLock to pin what is on disk now.
func (c *Catalog) Lock() *Lock {
	l := &Lock{Version: LockVersion, Plugins: []LockedPlugin{}}
	for _, e := range c.Entries() {
		if e.Dev {
			continue // not in the plugins directory
		}
		l.Plugins = append(l.Plugins, LockedPlugin{Name: e.Name, File: filepath.Base(e.Path), SHA256: e.SHA256, Manifest: e.Manifest})
	}
	return l
}

// HashFile returns the hex sha256 of the file at path.
func HashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// short abbreviates a digest for messages; the lock file has the full one.
func short(sum string) string {
	if len(sum) > 12 {
		return sum[:12] + "…"
	}
	return sum
}
