package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
)

// Tags are the comment markers the toolset looks for.
var Tags = []string{"TODO", "FIXME", "HACK", "XXX"}

const (
	defaultLimit = 200
	maxLimit     = 5000
	// progressEvery is how many files pass between progress reports: often
	// enough to show movement, rare enough to cost nothing.
	progressEvery = 50
	maxTextLen    = 300
)

type listArgs struct {
	Tags          []string    `json:"tags,omitempty" jsonschema:"only these tags: TODO, FIXME, HACK or XXX (default: all)"`
	Path          sdk.ResPath `json:"path,omitempty" jsonschema:"only files under this directory or file, as a res:// path (default: the whole project)"`
	Limit         int         `json:"limit,omitempty" jsonschema:"maximum number of comments to return" default:"200" minimum:"1" maximum:"5000"`
	IncludeAddons bool        `json:"include_addons,omitempty" jsonschema:"also scan addons/, which is skipped by default"`
}

// Item is one tagged comment.
type Item struct {
	File string `json:"file" jsonschema:"res:// path of the script"`
	Line int    `json:"line" jsonschema:"1-based line number"`
	Tag  string `json:"tag" jsonschema:"TODO, FIXME, HACK or XXX"`
	Text string `json:"text" jsonschema:"the comment after the tag"`
}

type listResult struct {
	Items        []Item `json:"items"`
	FilesScanned int    `json:"files_scanned"`
	Truncated    bool   `json:"truncated" jsonschema:"more comments exist than limit allowed"`
}

func list(ctx context.Context, call *sdk.Call, in listArgs) (sdk.Result, error) {
	// Project refuses with PRECONDITION_FAILED when the host has no project.
	proj, err := call.Project()
	if err != nil {
		return sdk.Result{}, err
	}
	root := proj.Root()
	want, err := tagFilter(in.Tags)
	if err != nil {
		return sdk.Result{}, err
	}
	limit := in.Limit
	switch {
	case limit < 0:
		return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "omit limit or pass a positive number",
			"limit %d is negative", limit)
	case limit == 0:
		limit = defaultLimit
	case limit > maxLimit:
		limit = maxLimit
	}
	// The SDK has already refused a path with "..", an absolute path or
	// another scheme (in.Path is an sdk.ResPath); Resolve also refuses a
	// symbolic link that leads out, which only a walk of the disk can see.
	start, err := proj.Resolve(string(in.Path))
	if err != nil {
		return sdk.Result{}, err
	}

	out := listResult{Items: []Item{}}
	errStop := errors.New("limit reached")
	err = filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == start {
				return err
			}
			return nil // unreadable entry: skip it, keep walking
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if p != start && skipDir(root, rel, d.Name(), in.IncludeAddons) {
				return filepath.SkipDir
			}
			return nil
		}
		// Symlinks are never followed: they could lead out of the project.
		if !d.Type().IsRegular() || !strings.HasSuffix(d.Name(), ".gd") {
			return nil
		}
		out.FilesScanned++
		if out.FilesScanned%progressEvery == 0 {
			call.Progress(float64(out.FilesScanned), 0, fmt.Sprintf("%d scripts scanned", out.FilesScanned))
		}
		items, err := scanFile(p, "res://"+rel, want)
		if err != nil {
			call.Logger().Warn("skipping unreadable script", "file", "res://"+rel, "error", err)
			return nil
		}
		for _, it := range items {
			if len(out.Items) == limit {
				out.Truncated = true
				return errStop
			}
			out.Items = append(out.Items, it)
		}
		return nil
	})
	switch {
	case err == nil, errors.Is(err, errStop):
	case ctx.Err() != nil:
		return sdk.Result{}, ctx.Err()
	default:
		return sdk.Result{}, fmt.Errorf("scanning %s: %w", in.Path, err)
	}
	return sdk.JSON(out), nil
}

// tagFilter normalises the requested tags; empty means all.
func tagFilter(tags []string) (map[string]bool, error) {
	want := map[string]bool{}
	for _, t := range tags {
		u := strings.ToUpper(strings.TrimSpace(t))
		if !slices.Contains(Tags, u) {
			return nil, sdk.Errorf(sdk.CodeInvalidArgument, "use TODO, FIXME, HACK or XXX",
				"unknown tag %q", t)
		}
		want[u] = true
	}
	if len(want) == 0 {
		for _, t := range Tags {
			want[t] = true
		}
	}
	return want, nil
}

// skipDir reports whether the walk should not enter a directory: Godot's
// cache, hidden directories, addons (unless asked) and directories Godot
// itself ignores because they hold a .gdignore file.
func skipDir(root, rel, name string, includeAddons bool) bool {
	if strings.HasPrefix(name, ".") {
		return true // .godot, .git, .import and friends
	}
	if rel == "addons" && !includeAddons {
		return true
	}
	_, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel), ".gdignore"))
	return err == nil
}

// tagRE matches a comment that starts with a tag: "# TODO: x",
// "## FIXME(ann) x", "#XXX x".
var tagRE = regexp.MustCompile(`^#+\s*(TODO|FIXME|HACK|XXX)\b(?:\([^)]*\))?:?\s*(.*)$`)

func scanFile(p, resPath string, want map[string]bool) ([]Item, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var items []Item
	var st lexState
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for line := 1; sc.Scan(); line++ {
		c, ok := st.comment(sc.Text())
		if !ok {
			continue
		}
		m := tagRE.FindStringSubmatch(c)
		if m == nil || !want[m[1]] {
			continue
		}
		text := strings.TrimSpace(m[2])
		if len(text) > maxTextLen {
			text = text[:maxTextLen] + "…"
		}
		items = append(items, Item{File: resPath, Line: line, Tag: m[1], Text: text})
	}
	return items, sc.Err()
}

// lexState tracks GDScript strings across lines, so that a '#' inside a
// string ("#ff0000", or a triple-quoted block) is not taken for a comment.
type lexState struct {
	quote string // the open string's delimiter: ", ', """ or '''; "" outside strings
}

// comment returns the comment on the line, starting at its '#'.
func (st *lexState) comment(line string) (string, bool) {
	for i := 0; i < len(line); i++ {
		if st.quote != "" {
			switch {
			case line[i] == '\\':
				i++ // skip the escaped character
			case strings.HasPrefix(line[i:], st.quote):
				i += len(st.quote) - 1
				st.quote = ""
			}
			continue
		}
		switch c := line[i]; c {
		case '#':
			return line[i:], true
		case '"', '\'':
			q := string(c)
			if strings.HasPrefix(line[i:], q+q+q) {
				q = q + q + q
			}
			st.quote = q
			i += len(q) - 1
		}
	}
	if len(st.quote) == 1 {
		st.quote = "" // single-quoted strings end with the line
	}
	return "", false
}
