package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
)

const (
	defaultSearchLimit = 100
	maxSearchLimit     = 2000
	defaultMaxFileSize = 1 << 20
	maxMaxFileSize     = 16 << 20
	maxLineText        = 200
	searchProgressStep = 200
	maxPatternLen      = 1024
	maxPatternSegments = 64
)

type searchArgs struct {
	Pattern       string      `json:"pattern,omitempty" alias:"name_glob" jsonschema:"glob on the file name, or on the path from res:// when it contains '/': *, ?, [a-z], and ** for any number of directories"`
	NameContains  string      `json:"name_contains,omitempty" jsonschema:"case-insensitive substring of the file name"`
	Content       string      `json:"content,omitempty" jsonschema:"text the file must contain"`
	IgnoreCase    bool        `json:"ignore_case,omitempty" jsonschema:"match content case-insensitively"`
	MaxFileSize   int64       `json:"max_file_size,omitempty" jsonschema:"content search skips files larger than this many bytes" default:"1048576" minimum:"1" maximum:"16777216"`
	Path          sdk.ResPath `json:"path,omitempty" alias:"directory" jsonschema:"res:// directory to search under" default:"res://"`
	Limit         int         `json:"limit,omitempty" alias:"max_results" jsonschema:"maximum number of matches" default:"100" minimum:"1" maximum:"2000"`
	Offset        int         `json:"offset,omitempty" jsonschema:"skip this many matches (next_offset of the previous page)" minimum:"0"`
	IncludeHidden bool        `json:"include_hidden,omitempty" jsonschema:"also search entries whose name starts with a dot; .godot/ is never searched"`
}

type searchMatch struct {
	Path string `json:"path" jsonschema:"res:// path"`
	Size int64  `json:"size" jsonschema:"file size in bytes"`
	Line int    `json:"line,omitempty" jsonschema:"content search: first line containing the text"`
	Text string `json:"text,omitempty" jsonschema:"content search: that line, trimmed"`
}

type searchResult struct {
	Matches      []searchMatch `json:"matches"`
	FilesScanned int           `json:"files_scanned"`
	SkippedLarge int           `json:"skipped_large,omitempty" jsonschema:"files not searched for content because they exceed max_file_size"`
	Truncated    bool          `json:"truncated" jsonschema:"limit was reached; more matches may follow"`
	Offset       int           `json:"offset,omitempty" jsonschema:"matches skipped before this page"`
	NextOffset   int           `json:"next_offset,omitempty" jsonschema:"pass as offset for the next page; absent on the last page"`
	Hint         string        `json:"hint,omitempty" jsonschema:"how to read the next page"`
}

// checkSearch checks search_files' arguments and answers its limit.
func checkSearch(in searchArgs) (int, error) {
	if in.Pattern == "" && in.NameContains == "" && in.Content == "" {
		return 0, sdk.Errorf(sdk.CodeInvalidArgument, "pass pattern (such as \"*.tscn\"), name_contains or content",
			"nothing to search for")
	}
	pattern := strings.TrimPrefix(in.Pattern, "res://")
	if len(pattern) > maxPatternLen || strings.Count(pattern, "/") >= maxPatternSegments {
		return 0, sdk.Errorf(sdk.CodeInvalidArgument, fmt.Sprintf("use a pattern of at most %d characters and %d segments", maxPatternLen, maxPatternSegments),
			"pattern is too long")
	}
	if _, err := path.Match(strings.ReplaceAll(pattern, "**", "*"), ""); err != nil {
		return 0, sdk.Errorf(sdk.CodeInvalidArgument, "use *, ?, [a-z] and ** in the pattern; escape a literal [ as \\[",
			"pattern %q is malformed", in.Pattern)
	}
	if _, err := bounded[int64]("max_file_size", in.MaxFileSize, defaultMaxFileSize, maxMaxFileSize); err != nil {
		return 0, err
	}
	return bounded("limit", in.Limit, defaultSearchLimit, maxSearchLimit)
}

func searchFiles(ctx context.Context, call *sdk.Call, in searchArgs) (sdk.Result, error) {
	limit, err := checkSearch(in)
	if err != nil {
		return sdk.Result{}, err
	}
	maxSize, err := bounded[int64]("max_file_size", in.MaxFileSize, defaultMaxFileSize, maxMaxFileSize)
	if err != nil {
		return sdk.Result{}, err
	}
	pattern := strings.TrimPrefix(in.Pattern, "res://")
	p, err := call.Project()
	if err != nil {
		return sdk.Result{}, err
	}
	start, err := resolve(p, string(in.Path))
	if err != nil {
		return sdk.Result{}, err
	}

	needle := []byte(in.Content)
	if in.IgnoreCase {
		needle = bytes.ToLower(needle)
	}
	nameSub := strings.ToLower(in.NameContains)
	out := searchResult{Matches: []searchMatch{}, Offset: max(in.Offset, 0)}
	skip := out.Offset
	err = filepath.WalkDir(start, func(abs string, d fs.DirEntry, err error) error {
		if err != nil {
			if abs == start {
				return err
			}
			return nil // unreadable entry: skip it, keep walking
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if abs == start {
			return nil
		}
		kind, _ := classify(p, abs, d, in.IncludeHidden)
		switch kind {
		case kindDir:
			return nil
		case kindSkip:
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		case kindFile:
		default:
			return nil // links are listed by get_filesystem_tree; their targets are searched where they live
		}
		out.FilesScanned++
		if out.FilesScanned%searchProgressStep == 0 {
			call.Progress(float64(out.FilesScanned), 0, fmt.Sprintf("%d files searched", out.FilesScanned))
		}
		res := p.ResPath(abs)
		if !nameMatches(pattern, nameSub, strings.TrimPrefix(res, "res://"), d.Name()) {
			return nil
		}
		m := searchMatch{Path: res, Size: fileSize(d)}
		if len(needle) > 0 {
			if m.Size > maxSize {
				out.SkippedLarge++
				return nil
			}
			line, text, ok := findInFile(ctx, abs, needle, in.IgnoreCase, maxSize)
			if !ok {
				return nil
			}
			m.Line, m.Text = line, text
		}
		if len(out.Matches) == limit {
			out.Truncated = true
			out.NextOffset = out.Offset + limit
			out.Hint = fmt.Sprintf("more matches follow: call again with offset %d, or narrow the search", out.NextOffset)
			return errLimit
		}
		if skip > 0 { // on an earlier page
			skip--
			return nil
		}
		out.Matches = append(out.Matches, m)
		return nil
	})
	switch {
	case err == nil, errors.Is(err, errLimit):
	case ctx.Err() != nil:
		return sdk.Result{}, ctx.Err()
	default:
		return sdk.Result{}, fmt.Errorf("searching %s: %w", p.ResPath(start), err)
	}
	return sdk.Result{Content: []sdk.Content{sdk.TextContent{Text: out.render()}}, Structured: out}, nil
}

// nameMatches applies the pattern (to the name, or to the whole relative
// path when the pattern has a '/') and the name substring.
func nameMatches(pattern, nameSub, rel, name string) bool {
	if nameSub != "" && !strings.Contains(strings.ToLower(name), nameSub) {
		return false
	}
	switch {
	case pattern == "":
		return true
	case strings.Contains(pattern, "/"):
		return globMatch(strings.Split(pattern, "/"), strings.Split(rel, "/"))
	default:
		ok, _ := path.Match(pattern, name)
		return ok
	}
}

// globMatch matches path segments against pattern segments, where a "**"
// segment matches any number of segments (including none).
//
// It runs in O(len(pat) × len(segs)) segment comparisons whatever the
// pattern: "**" behaves like "*" in wildcard matching over segments, and
// the classic greedy algorithm only ever backtracks to the most recent "**"
// (an earlier one can absorb nothing the later one could not). A recursive
// matcher tries every split for every "**" and is exponential in their
// number: "**/a/**/a/**/a/…/b" against a deep tree pinned a CPU.
func globMatch(pat, segs []string) bool {
	ok, _ := globMatchSteps(pat, segs)
	return ok
}

// globMatchSteps is globMatch, also returning how many segment
// comparisons it made (for the complexity test).
func globMatchSteps(pat, segs []string) (bool, int) {
	steps := 0
	p, s := 0, 0
	star, starS := -1, 0 // the last "**" seen and the segment it was tried from
	for s < len(segs) {
		steps++
		switch {
		case p < len(pat) && pat[p] == "**":
			star, starS = p, s
			p++
		case p < len(pat) && segmentMatch(pat[p], segs[s]):
			p++
			s++
		case star >= 0:
			// Let the last "**" absorb one more segment and retry.
			starS++
			p, s = star+1, starS
		default:
			return false, steps
		}
	}
	for p < len(pat) && pat[p] == "**" {
		p++
	}
	return p == len(pat), steps
}

// segmentMatch matches one path segment with path.Match, which handles *,
// ? and classes within a segment without exponential backtracking (it
// retries only the last '*').
func segmentMatch(pattern, seg string) bool {
	ok, _ := path.Match(pattern, seg)
	return ok
}

// readChunk is how much findInFile reads between cancellation checks.
const readChunk = 1 << 20

// readFileCtx reads at most limit bytes of a regular file, checking ctx
// between chunks, so a cancelled search stops within one chunk.
func readFileCtx(ctx context.Context, abs string, limit int64) ([]byte, error) {
	f, _, err := sdk.OpenRegular(abs)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var buf bytes.Buffer
	r := io.LimitReader(f, limit)
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		n, err := io.CopyN(&buf, r, readChunk)
		if err == io.EOF || (err == nil && n < readChunk) {
			return buf.Bytes(), nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// findInFile returns the first line of the file containing needle. Files
// that look binary (a NUL byte near the start) never match. It reads at
// most limit bytes (the caller checked the size; the file may have grown).
func findInFile(ctx context.Context, abs string, needle []byte, ignoreCase bool, limit int64) (int, string, bool) {
	data, err := readFileCtx(ctx, abs, limit)
	if err != nil {
		return 0, "", false
	}
	if bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
		return 0, "", false
	}
	hay := data
	if ignoreCase {
		hay = bytes.ToLower(data)
		if len(hay) != len(data) {
			// Lower-casing changed byte offsets (rare non-ASCII cases):
			// report the line from the lowered text.
			data = hay
		}
	}
	i := bytes.Index(hay, needle)
	if i < 0 {
		return 0, "", false
	}
	line := bytes.Count(data[:i], []byte("\n")) + 1
	startOfLine := bytes.LastIndexByte(data[:i], '\n') + 1
	end := bytes.IndexByte(data[i:], '\n')
	if end < 0 {
		end = len(data)
	} else {
		end += i
	}
	text := strings.TrimSpace(string(data[startOfLine:end]))
	if len(text) > maxLineText {
		text = text[:maxLineText] + "…"
	}
	return line, text, true
}

func (r searchResult) render() string {
	var b strings.Builder
	switch len(r.Matches) {
	case 0:
		fmt.Fprintf(&b, "no matches in %d files\n", r.FilesScanned)
	default:
		fmt.Fprintf(&b, "%d matches in %d files:\n", len(r.Matches), r.FilesScanned)
	}
	for _, m := range r.Matches {
		b.WriteString(m.Path)
		if m.Line > 0 {
			fmt.Fprintf(&b, ":%d: %s", m.Line, m.Text)
		} else {
			b.WriteString("  " + humanSize(m.Size))
		}
		b.WriteByte('\n')
	}
	if r.SkippedLarge > 0 {
		fmt.Fprintf(&b, "(%d files larger than max_file_size were not searched for content)\n", r.SkippedLarge)
	}
	if r.Truncated {
		b.WriteString("(" + r.Hint + ")\n")
	}
	return b.String()
}
