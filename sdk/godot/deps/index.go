package deps

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"
)

// Index is a cache of parsed file summaries for one project directory. It
// is safe for concurrent use; [Index.Graph] calls are serialised.
type Index struct {
	root string

	mu      sync.Mutex
	files   map[string]*entry // by res:// path
	stats   Stats
	maxSize int64
}

// DefaultMaxFileSize is the largest file the index reads and parses,
// unless [Index.SetMaxFileSize] says otherwise. Parsing costs about ten
// times a file's size in memory (a 200 MB scene took 3 GB), and the
// summary of a huge scene stays resident; no real scene, resource or
// script comes near 16 MiB (docs/PERFORMANCE.md).
const DefaultMaxFileSize = 16 << 20

type entry struct {
	size int64
	mod  time.Time
	info *FileInfo
}

// Stats counts what the last [Index.Graph] call did, for tests and
// benchmarks: how many files it saw, read, and parsed.
type Stats struct {
	Files  int // files in the project
	Read   int // files read (new, or size/mtime changed)
	Parsed int // files parsed (new, or content changed)
}

// New returns an empty index of the project in root (the directory holding
// project.godot).
func New(root string) *Index {
	return &Index{root: root, files: map[string]*entry{}, maxSize: DefaultMaxFileSize}
}

// SetMaxFileSize sets the largest file (in bytes) the index reads; larger
// files of a kind it parses are skipped, each with a [CodeTooLarge]
// finding, and listed by [Graph.Skipped]. n <= 0 means
// DefaultMaxFileSize. Files already summarised are kept until they change.
func (ix *Index) SetMaxFileSize(n int64) {
	if n <= 0 {
		n = DefaultMaxFileSize
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if n != ix.maxSize {
		ix.maxSize = n
		ix.files = map[string]*entry{} // what was skipped or read under the old limit
	}
}

// Root returns the project directory.
func (ix *Index) Root() string { return ix.root }

// LastStats returns the counters of the last Graph call.
func (ix *Index) LastStats() Stats {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.stats
}

// Invalidate forgets the given res:// paths, so the next Graph reads them
// again whatever their size and modification time say. Call it after
// writing files (a write within the file system's timestamp resolution
// that keeps the size would otherwise go unnoticed).
func (ix *Index) Invalidate(paths ...string) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	for _, p := range paths {
		delete(ix.files, p)
	}
}

// skipDir reports whether a directory is outside what Godot imports: hidden
// directories (.godot, .git, …) and those holding a .gdignore file.
func skipDir(abs, name string) bool {
	if strings.HasPrefix(name, ".") {
		return true
	}
	_, err := os.Stat(filepath.Join(abs, ".gdignore"))
	return err == nil
}

type found struct {
	res  string
	abs  string
	size int64
	mod  time.Time
}

// Graph brings the index up to date with the files on disk and returns a
// snapshot graph of the project. Unchanged files are not read; changed ones
// are parsed in parallel.
func (ix *Index) Graph(ctx context.Context) (*Graph, error) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	var list []found
	err := filepath.WalkDir(ix.root, func(abs string, d fs.DirEntry, err error) error {
		if err != nil {
			if abs == ix.root {
				return err
			}
			return nil // unreadable entries are skipped, like the editor does
		}
		if d.IsDir() {
			if abs != ix.root && skipDir(abs, d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil // symbolic links and devices are not followed
		}
		rel, err := filepath.Rel(ix.root, abs)
		if err != nil {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		list = append(list, found{res: "res://" + filepath.ToSlash(rel), abs: abs, size: fi.Size(), mod: fi.ModTime()})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ix.stats = Stats{Files: len(list)}
	next := make(map[string]*entry, len(list))
	var todo []int
	for i, f := range list {
		if e := ix.files[f.res]; e != nil && e.size == f.size && e.mod.Equal(f.mod) {
			next[f.res] = e
			continue
		}
		todo = append(todo, i)
	}
	results := make([]*entry, len(todo))
	var readN, parsedN int64
	var cmu sync.Mutex
	work := make(chan int)
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	if workers > len(todo) {
		workers = len(todo)
	}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				f := list[todo[j]]
				old := ix.files[f.res]
				e, read, parsed := load(f, old, ix.maxSize)
				results[j] = e
				cmu.Lock()
				readN += read
				parsedN += parsed
				cmu.Unlock()
			}
		}()
	}
	for j := range todo {
		if ctx.Err() != nil {
			break
		}
		work <- j
	}
	close(work)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for j, i := range todo {
		next[list[i].res] = results[j]
	}
	ix.files = next
	ix.stats.Read, ix.stats.Parsed = int(readN), int(parsedN)
	infos := make([]*FileInfo, 0, len(next))
	for _, e := range next {
		infos = append(infos, e.info)
	}
	sort.Slice(infos, func(a, b int) bool { return infos[a].Path < infos[b].Path })
	return newGraph(infos), nil
}

// load reads and summarises one file, reusing old's summary when the bytes
// did not change. Files whose kind needs no content (images, audio, …) are
// neither read nor hashed; files over max are not read either (see
// tooLarge).
func load(f found, old *entry, max int64) (e *entry, read, parsed int64) {
	kind := kindOf(f.res)
	e = &entry{size: f.size, mod: f.mod}
	if !kind.parsed() {
		e.info = &FileInfo{Path: f.res, Kind: kind, Size: f.size}
		return e, 0, 0
	}
	if f.size > max {
		e.info = tooLarge(f.res, kind, f.size, max)
		return e, 0, 0
	}
	fail := func(err error) (*entry, int64, int64) {
		e.info = &FileInfo{Path: f.res, Kind: kind, Size: f.size,
			Findings: []Finding{{File: f.res, Code: CodeUnreadable, Severity: SeverityError,
				Message: "cannot read the file: " + err.Error(), Hint: "check the file's permissions"}}}
		return e, 1, 0
	}
	file, err := os.Open(f.abs)
	if err != nil {
		return fail(err)
	}
	// The file may have grown since the walk: never read more than max.
	src, err := io.ReadAll(io.LimitReader(file, max+1))
	file.Close()
	if err != nil {
		return fail(err)
	}
	if int64(len(src)) > max {
		e.info = tooLarge(f.res, kind, int64(len(src)), max)
		return e, 1, 0
	}
	sum := sha256.Sum256(src)
	version := "sha256:" + hex.EncodeToString(sum[:])
	if old != nil && old.info.Version == version {
		e.info = old.info
		return e, 1, 0
	}
	e.info = summarise(f.res, kind, src)
	e.info.Version = version
	e.info.Size = int64(len(src))
	return e, 1, 1
}

// tooLarge is the summary of a file over the size limit: nothing is known
// of its contents, which a finding says, with what that means.
func tooLarge(res string, kind Kind, size, max int64) *FileInfo {
	return &FileInfo{Path: res, Kind: kind, Size: size, Skipped: true,
		Findings: []Finding{{File: res, Code: CodeTooLarge, Severity: SeverityWarning,
			Message: fmt.Sprintf("skipped: %s is %s, over the %s limit for analysis; its references, nodes and connections are unknown, so results that depend on them may be incomplete",
				res, sizeText(size), sizeText(max)),
			Hint: "split the file, or save it in binary form (.scn/.res), which the analysis does not parse"}}}
}

// sizeText renders a byte count for a message: "16 MB", "200.3 MB",
// "2.9 KB"; whole units without a fraction, so a limit reads as it was set.
func sizeText(n int64) string {
	for _, u := range []struct {
		size int64
		name string
	}{{1 << 20, "MB"}, {1 << 10, "KB"}} {
		switch {
		case n >= u.size && n%u.size == 0:
			return fmt.Sprintf("%d %s", n/u.size, u.name)
		case n >= u.size:
			return fmt.Sprintf("%.1f %s", float64(n)/float64(u.size), u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// Scan summarises every file of the project in root without a cache.
func Scan(ctx context.Context, root string) (*Graph, error) {
	return New(root).Graph(ctx)
}

// Kind is what a project file is, decided by its name.
type Kind string

// The kinds of files.
const (
	KindScene         Kind = "scene"    // .tscn
	KindResource      Kind = "resource" // .tres
	KindScript        Kind = "script"   // .gd
	KindShader        Kind = "shader"   // .gdshader, .gdshaderinc
	KindProject       Kind = "project"  // project.godot
	KindExportPresets Kind = "export_presets"
	KindImport        Kind = "import" // X.import sidecar of an imported asset
	KindUID           Kind = "uid"    // X.uid sidecar (Godot 4.4+) of a script or shader
	KindBinary        Kind = "binary_resource"
	KindAsset         Kind = "asset" // images, audio, models, fonts, … (imported)
	KindOther         Kind = "other"
)

func (k Kind) parsed() bool {
	switch k {
	case KindScene, KindResource, KindScript, KindShader, KindProject, KindExportPresets, KindImport, KindUID:
		return true
	}
	return false
}

// IsResource reports whether files of this kind are things Godot loads as
// resources (and so can be used or unused), as opposed to project metadata.
func (k Kind) IsResource() bool {
	switch k {
	case KindScene, KindResource, KindScript, KindShader, KindBinary, KindAsset:
		return true
	}
	return false
}

var assetExts = map[string]bool{
	".png": true, ".jpg": true, ".jpeg": true, ".webp": true, ".svg": true, ".bmp": true, ".tga": true,
	".exr": true, ".hdr": true, ".ktx": true, ".dds": true,
	".wav": true, ".ogg": true, ".mp3": true,
	".glb": true, ".gltf": true, ".obj": true, ".fbx": true, ".blend": true, ".dae": true,
	".ttf": true, ".otf": true, ".woff": true, ".woff2": true, ".fnt": true, ".font": true,
	".csv": true, ".translation": true, ".po": true, ".pot": true, ".ogv": true, ".cs": true,
	".lmbake": true,
}

func kindOf(res string) Kind {
	base := path.Base(res)
	ext := strings.ToLower(path.Ext(base))
	switch {
	case res == "res://project.godot":
		return KindProject
	case res == "res://export_presets.cfg":
		return KindExportPresets
	case ext == ".tscn":
		return KindScene
	case ext == ".tres":
		return KindResource
	case ext == ".gd":
		return KindScript
	case ext == ".gdshader" || ext == ".gdshaderinc":
		return KindShader
	case ext == ".import":
		return KindImport
	case ext == ".uid":
		return KindUID
	case ext == ".scn" || ext == ".res" || ext == ".mesh" || ext == ".anim" || ext == ".material" || ext == ".occ":
		return KindBinary
	case assetExts[ext]:
		return KindAsset
	}
	return KindOther
}

var (
	sharedMu sync.Mutex
	shared   = map[string]*Index{}
)

// Shared returns the process-wide index of the project in root, creating it
// on first use: a toolset process keeps its cache across tool calls.
func Shared(root string) *Index {
	sharedMu.Lock()
	defer sharedMu.Unlock()
	ix := shared[root]
	if ix == nil {
		ix = New(root)
		shared[root] = ix
	}
	return ix
}
