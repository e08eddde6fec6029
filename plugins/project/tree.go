package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
)

const (
	defaultTreeDepth = 3
	maxTreeDepth     = 20
	defaultTreeLimit = 250
	maxTreeLimit     = 10000
)

type treeArgs struct {
	Path          sdk.ResPath `json:"path,omitempty" alias:"directory" jsonschema:"res:// directory to start at" default:"res://"`
	Depth         int         `json:"depth,omitempty" alias:"max_depth" jsonschema:"how many directory levels to list" default:"3" minimum:"1" maximum:"20"`
	Limit         int         `json:"limit,omitempty" jsonschema:"maximum number of entries in this page" default:"250" minimum:"1" maximum:"10000"`
	Offset        int         `json:"offset,omitempty" jsonschema:"skip this many entries (next_offset of the previous page)" minimum:"0"`
	IncludeHidden bool        `json:"include_hidden,omitempty" jsonschema:"also list entries whose name starts with a dot; .godot/ is never listed"`
}

type treeEntry struct {
	Path     string `json:"path" jsonschema:"res:// path"`
	Type     string `json:"type" jsonschema:"dir, file or link"`
	Size     int64  `json:"size,omitempty" jsonschema:"file size in bytes (absent for directories and empty files)"`
	Depth    int    `json:"depth" jsonschema:"1 for entries directly in the start directory"`
	Target   string `json:"target,omitempty" jsonschema:"for a link: the res:// path it points to (links are listed, not followed)"`
	Unlisted bool   `json:"unlisted,omitempty" jsonschema:"a directory whose contents lie beyond depth"`
}

type treeResult struct {
	Root      string      `json:"root" jsonschema:"res:// path of the start directory"`
	Entries   []treeEntry `json:"entries" jsonschema:"directories first, then files, depth-first"`
	Dirs      int         `json:"dirs"`
	Files     int         `json:"files"`
	TotalSize int64       `json:"total_size" jsonschema:"sum of the listed files' sizes in bytes"`
	Truncated bool        `json:"truncated" jsonschema:"limit was reached: more entries follow"`
	Offset    int         `json:"offset,omitempty" jsonschema:"entries skipped before this page"`
	// NextOffset and Hint say how to read on when Truncated.
	NextOffset int    `json:"next_offset,omitempty" jsonschema:"pass as offset for the next page; absent on the last page"`
	Hint       string `json:"hint,omitempty" jsonschema:"how to read the next page"`
}

// pageFull marks r truncated after a page of limit entries, saying how to
// read on.
func (r *treeResult) pageFull(limit int) {
	r.Truncated = true
	r.NextOffset = r.Offset + limit
	r.Hint = fmt.Sprintf("more entries follow: call again with offset %d, or narrow path or depth", r.NextOffset)
}

// getFilesystemTreeEditor lists the editor's file system, which has the
// files it has not saved yet.
func getFilesystemTreeEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in treeArgs) (sdk.Result, error) {
	depth, err := bounded("depth", in.Depth, defaultTreeDepth, maxTreeDepth)
	if err != nil {
		return sdk.Result{}, err
	}
	limit, err := bounded("limit", in.Limit, defaultTreeLimit, maxTreeLimit)
	if err != nil {
		return sdk.Result{}, err
	}
	return forwardTree(ctx, ed, in, depth, limit)
}

func getFilesystemTree(ctx context.Context, call *sdk.Call, in treeArgs) (sdk.Result, error) {
	depth, err := bounded("depth", in.Depth, defaultTreeDepth, maxTreeDepth)
	if err != nil {
		return sdk.Result{}, err
	}
	limit, err := bounded("limit", in.Limit, defaultTreeLimit, maxTreeLimit)
	if err != nil {
		return sdk.Result{}, err
	}
	p, err := call.Project()
	if err != nil {
		return sdk.Result{}, err
	}
	start, err := resolve(p, string(in.Path))
	if err != nil {
		return sdk.Result{}, err
	}
	if !statDir(start) {
		return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "pass a directory, or use search_files to find a file",
			"path %q is not a directory", in.Path)
	}
	w := &treeWalker{p: p, call: call, maxDepth: depth, limit: limit, hidden: in.IncludeHidden, skip: max(in.Offset, 0),
		out: treeResult{Root: p.ResPath(start), Entries: []treeEntry{}, Offset: max(in.Offset, 0)}}
	if err := w.dir(ctx, start, 1); err != nil && !errors.Is(err, errLimit) {
		if ctx.Err() != nil {
			return sdk.Result{}, ctx.Err()
		}
		return sdk.Result{}, err
	}
	return sdk.Result{Content: []sdk.Content{sdk.TextContent{Text: w.out.render()}}, Structured: w.out}, nil
}

// errLimit stops a walk once the limit is reached.
var errLimit = errors.New("limit reached")

type treeWalker struct {
	p        *sdk.Project
	call     *sdk.Call
	maxDepth int
	limit    int
	hidden   bool
	skip     int // entries of earlier pages still to pass
	out      treeResult
}

func (w *treeWalker) dir(ctx context.Context, abs string, depth int) error {
	ents, err := os.ReadDir(abs)
	if err != nil && depth == 1 {
		return fmt.Errorf("reading %s: %w", w.p.ResPath(abs), err)
	}
	// Directories first, like Godot's FileSystem dock; ReadDir already
	// sorted each group by name.
	slices.SortStableFunc(ents, func(a, b os.DirEntry) int {
		switch {
		case a.IsDir() == b.IsDir():
			return 0
		case a.IsDir():
			return -1
		}
		return 1
	})
	for _, d := range ents {
		if err := ctx.Err(); err != nil {
			return err
		}
		child := filepath.Join(abs, d.Name())
		kind, target := classify(w.p, child, d, w.hidden)
		if kind == kindSkip || kind == kindSpecial {
			continue
		}
		if len(w.out.Entries) == w.limit {
			w.out.pageFull(w.limit)
			return errLimit
		}
		if w.skip > 0 { // on an earlier page
			w.skip--
			if kind == kindDir && depth < w.maxDepth {
				if err := w.dir(ctx, child, depth+1); err != nil {
					return err
				}
			}
			continue
		}
		e := treeEntry{Path: w.p.ResPath(child), Depth: depth}
		switch kind {
		case kindDir:
			e.Type = "dir"
			w.out.Dirs++
			e.Unlisted = depth == w.maxDepth
		case kindFile:
			e.Type = "file"
			e.Size = fileSize(d)
			w.out.Files++
			w.out.TotalSize += e.Size
		case kindLink:
			e.Type = "link"
			e.Target = w.p.ResPath(target)
		}
		w.out.Entries = append(w.out.Entries, e)
		if n := len(w.out.Entries); n%500 == 0 {
			w.call.Progress(float64(n), 0, fmt.Sprintf("%d entries listed", n))
		}
		if kind == kindDir && depth < w.maxDepth {
			if err := w.dir(ctx, child, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// render draws the tree as indented text for clients that only read text.
func (r treeResult) render() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%d dirs, %d files, %s)\n", r.Root, r.Dirs, r.Files, humanSize(r.TotalSize))
	for _, e := range r.Entries {
		b.WriteString(strings.Repeat("  ", e.Depth))
		b.WriteString(filepath.Base(filepath.FromSlash(strings.TrimPrefix(e.Path, "res://"))))
		switch e.Type {
		case "dir":
			b.WriteString("/")
			if e.Unlisted {
				b.WriteString(" …")
			}
		case "file":
			b.WriteString("  " + humanSize(e.Size))
		case "link":
			b.WriteString(" -> " + e.Target)
		}
		b.WriteByte('\n')
	}
	if r.Truncated {
		b.WriteString("(" + r.Hint + ")\n")
	}
	return b.String()
}

func humanSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// bounded applies a default to an optional positive argument and caps it.
func bounded[N int | int64](name string, v, def, max N) (N, error) {
	switch {
	case v < 0:
		return 0, sdk.Errorf(sdk.CodeInvalidArgument, fmt.Sprintf("omit %s or pass a number from 1 to %d", name, max),
			"%s %d is negative", name, v)
	case v == 0:
		return def, nil
	case v > max:
		// The schema says the maximum, and the host refuses more before
		// the call gets here; a caller without the host gets the same.
		return 0, sdk.Errorf(sdk.CodeInvalidArgument, fmt.Sprintf("omit %s or pass a number from 1 to %d", name, max),
			"%s must be between 1 and %d, got %d", name, max, v)
	}
	return v, nil
}
