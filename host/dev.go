package host

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/godot-mcp/godot-mcp/host/catalog"
	"github.com/godot-mcp/godot-mcp/host/pluginenv"
)

// The dev loop (serve --dev-plugin PATH)
//
// PATH is a toolset binary, or the directory of a Go main package. The
// host gives each one a name in a private directory it makes
// (godot-mcp-toolset-<name>, the name from --describe): a symlink to a
// binary, or the output of `go build` for a package. These are cataloged
// as Dev entries: outside the plugins directory, trusted because the
// operator named them, so the lock file does not apply.
//
// For a package the host polls its sources (*.go, go.mod, go.sum, under
// the directory) and rebuilds when one changes; a build is written beside
// the binary and renamed over it, so the hot-upgrade watcher sees one
// complete new binary and swaps it in between calls. A failed build is
// logged with the compiler's output and the last good build serves on. A
// rebuilt binary PATH (your own `go build -o PATH`) is picked up the same
// way, through its symlink.

type devPlugin struct {
	src    string // the package directory; "" for a binary
	binary string // the cataloged path in the dev directory
	name   string
}

type devPlugins struct {
	dir     string
	plugins []*devPlugin
	log     hclog.Logger
}

// devBuildTimeout bounds one `go build`.
const devBuildTimeout = 5 * time.Minute

func newDevPlugins(ctx context.Context, paths []string, log hclog.Logger) (*devPlugins, error) {
	d := &devPlugins{log: log}
	if len(paths) == 0 {
		return d, nil
	}
	dir, err := os.MkdirTemp("", "godot-mcp-dev-")
	if err != nil {
		return nil, err
	}
	d.dir = dir
	for i, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			d.close()
			return nil, fmt.Errorf("--dev-plugin %q: %v", p, err)
		}
		info, err := os.Stat(abs)
		if err != nil {
			d.close()
			return nil, fmt.Errorf("--dev-plugin %q: %v; name a toolset binary or the directory of its Go main package", p, err)
		}
		dp := &devPlugin{}
		target := abs
		if info.IsDir() {
			dp.src = abs
			target = filepath.Join(dir, fmt.Sprintf(".build-%d", i))
			if err := goBuild(ctx, abs, target); err != nil {
				d.close()
				return nil, fmt.Errorf("--dev-plugin %q: %v", p, err)
			}
		}
		env := pluginenv.Build(os.Environ(), pluginenv.Options{})
		m, err := catalog.Describe(ctx, target, 10*time.Second, env)
		if err != nil {
			d.close()
			return nil, fmt.Errorf("--dev-plugin %q: %v", p, err)
		}
		dp.name = m.Name
		dp.binary = filepath.Join(dir, catalog.BinaryPrefix+m.Name)
		if dp.src != "" {
			err = os.Rename(target, dp.binary)
		} else {
			err = os.Symlink(target, dp.binary)
		}
		if err != nil {
			d.close()
			return nil, fmt.Errorf("--dev-plugin %q: %v", p, err)
		}
		log.Info("dev plugin", "toolset", m.Name, "path", abs, "rebuilt_on_change", dp.src != "")
		d.plugins = append(d.plugins, dp)
	}
	return d, nil
}

// binaries are the paths to catalog.
func (d *devPlugins) binaries() []string {
	var out []string
	for _, p := range d.plugins {
		out = append(out, p.binary)
	}
	return out
}

// names are the dev toolsets, which the host enables at start.
func (d *devPlugins) names() []string {
	var out []string
	for _, p := range d.plugins {
		out = append(out, p.name)
	}
	return out
}

func (d *devPlugins) close() {
	if d.dir != "" {
		_ = os.RemoveAll(d.dir)
	}
}

// run rebuilds the package plugins when their sources change, until ctx
// ends.
func (d *devPlugins) run(ctx context.Context, every time.Duration, wg *sync.WaitGroup) {
	for _, p := range d.plugins {
		if p.src == "" {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			last := sourceStamp(p.src)
			t := time.NewTicker(every)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
				}
				now := sourceStamp(p.src)
				if now == last {
					continue
				}
				last = now
				tmp := p.binary + ".new"
				if err := goBuild(ctx, p.src, tmp); err != nil {
					_ = os.Remove(tmp)
					d.log.Error("dev plugin rebuild failed; the last good build serves on", "toolset", p.name, "error", err)
					continue
				}
				if err := os.Rename(tmp, p.binary); err != nil {
					d.log.Error("dev plugin rebuild", "toolset", p.name, "error", err)
					continue
				}
				d.log.Info("dev plugin rebuilt; it is swapped in before the next call", "toolset", p.name)
			}
		}()
	}
}

// sourceStamp summarises a package's sources: the newest modification
// time and the count and total size of its Go files and module files.
func sourceStamp(dir string) string {
	var newest time.Time
	var n, size int64
	_ = filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if e.IsDir() {
			if path != dir && (strings.HasPrefix(e.Name(), ".") || e.Name() == "testdata" || e.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if name := e.Name(); !strings.HasSuffix(name, ".go") && name != "go.mod" && name != "go.sum" {
			return nil
		}
		if info, err := e.Info(); err == nil {
			n++
			size += info.Size()
			if info.ModTime().After(newest) {
				newest = info.ModTime()
			}
		}
		return nil
	})
	return fmt.Sprintf("%d/%d/%d", newest.UnixNano(), n, size)
}

// goBuild builds the main package in dir to out.
func goBuild(ctx context.Context, dir, out string) error {
	ctx, cancel := context.WithTimeout(ctx, devBuildTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", out, ".")
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build in %s: %v\n%s", dir, err, strings.TrimSpace(string(b)))
	}
	return nil
}
