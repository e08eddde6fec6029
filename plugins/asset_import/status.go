package main

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/importfile"
)

// The states of an asset, from the point of view of the editor opening
// the project.
const (
	// StatusImported: the .import file is there and the editor's last
	// import was of the file as it is now.
	StatusImported = "imported"
	// StatusPending: the .import file is there but this checkout's
	// .godot/imported has no record of an import (a fresh clone, or a
	// file godot_asset_import_asset just wrote); the editor imports it
	// on open.
	StatusPending = "pending"
	// StatusMissing: no .import file; the editor imports the file with
	// its default options and writes one.
	StatusMissing = "missing"
	// StatusStale: the file changed since the editor imported it (its
	// MD5 differs from the recorded source_md5), or its .import file
	// belongs to another path (copied beside it); the editor reimports.
	StatusStale = "stale"
	// StatusOrphaned: a .import file whose asset is gone.
	StatusOrphaned = "orphaned"
	// StatusFailed: the editor's last import of the file failed (its
	// .import says valid=false); it tries again when the file changes.
	StatusFailed = "failed"
)

const (
	defaultLimit = 200
	maxLimit     = 5000
	// maxSidecar bounds the read of a .import or .md5 file: the editor
	// writes a few hundred bytes; anything far bigger is not one.
	maxSidecar = 1 << 20
)

type statusArgs struct {
	TargetPath sdk.ResPath `json:"target_path,omitempty" jsonschema:"one asset to report on, e.g. res://art/player.png; empty reports the whole project"`
	IncludeOK  bool        `json:"include_ok,omitempty" jsonschema:"list imported assets too, not only those missing, pending, stale, orphaned or failed"`
	Offset     int         `json:"offset,omitempty" jsonschema:"skip this many items (next_offset of the previous page)" minimum:"0"`
	Limit      int         `json:"limit,omitempty" jsonschema:"maximum number of items in this page" default:"200" minimum:"1" maximum:"5000"`
}

type assetStatus struct {
	Path         string `json:"path"`
	Status       string `json:"status" jsonschema:"imported, pending, missing, stale, orphaned or failed"`
	Importer     string `json:"importer,omitempty"`
	Type         string `json:"type,omitempty"`
	UID          string `json:"uid,omitempty"`
	Reason       string `json:"reason,omitempty"`
	LastModified string `json:"last_modified,omitempty" jsonschema:"the asset's modification time, RFC 3339"`
}

type statusResult struct {
	// Imported and Type answer the reference's question for one
	// target_path: has the editor imported it, and as what.
	Imported   *bool          `json:"imported,omitempty" jsonschema:"with target_path: the editor has imported the file as it is now"`
	Type       string         `json:"type,omitempty" jsonschema:"with target_path: the class the file is imported as"`
	Counts     map[string]int `json:"counts" jsonschema:"number of assets in each status"`
	Items      []assetStatus  `json:"items"`
	Total      int            `json:"total" jsonschema:"number of items in all pages"`
	Offset     int            `json:"offset"`
	NextOffset int            `json:"next_offset,omitempty" jsonschema:"pass as offset for the next page; absent on the last page"`
	Truncated  bool           `json:"truncated" jsonschema:"more items follow this page"`
	Note       string         `json:"note,omitempty"`
}

// fileMD5 is the MD5 of the asset at abs, the sum the editor records. A
// named pipe or device in its place is an error, not a wait.
func fileMD5(abs string) (string, error) {
	f, _, err := sdk.OpenRegular(abs)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := md5.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// statusOf works out one asset's status; abs is its file on disk.
func statusOf(root, res, abs string, hasImport bool) assetStatus {
	im, _ := importfile.For(res)
	s := assetStatus{Path: res, Importer: im.Name, Type: im.Type}
	if st, err := os.Stat(abs); err == nil {
		s.LastModified = st.ModTime().UTC().Format(time.RFC3339)
	}
	if !hasImport {
		s.Status, s.Reason = StatusMissing, "no .import file: the editor imports it with the default options on its next scan"
		return s
	}
	data, err := sdk.ReadRegular(abs+".import", maxSidecar)
	if err != nil {
		s.Status, s.Reason = StatusStale, "its .import file cannot be read: "+err.Error()
		return s
	}
	info, err := importfile.Parse(res+".import", data)
	if err != nil {
		s.Status, s.Reason = StatusStale, "its .import file does not parse: "+err.Error()
		return s
	}
	s.Importer, s.Type, s.UID = info.Importer, info.Type, info.UID
	if !info.Valid {
		s.Status, s.Reason = StatusFailed, "the editor's last import of it failed (valid=false in its .import); fix or replace the file, and the editor imports it again"
		return s
	}
	if info.SourceFile != "" && info.SourceFile != res {
		s.Status, s.Reason = StatusStale, "its .import file is that of "+info.SourceFile+" (copied or moved outside the editor); the editor reimports it"
		return s
	}
	md5file := filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(importfile.MD5Path(res), "res://")))
	rec, err := sdk.ReadRegular(md5file, maxSidecar)
	if err != nil {
		s.Status, s.Reason = StatusPending, "the editor has not imported it in this checkout (no "+importfile.MD5Path(res)+"); it does on open"
		return s
	}
	sum, err := fileMD5(abs)
	if err != nil {
		s.Status, s.Reason = StatusStale, "it cannot be read: "+err.Error()
		return s
	}
	if want := importfile.SourceMD5(rec); want != sum {
		s.Status, s.Reason = StatusStale, "it changed since the editor imported it (MD5 "+sum+", imported "+want+"); the editor reimports it"
		return s
	}
	s.Status = StatusImported
	return s
}

func importStatus(ctx context.Context, call *sdk.Call, in statusArgs) (sdk.Result, error) {
	p, err := call.Project()
	if err != nil {
		return sdk.Result{}, err
	}
	root := p.Root()
	var items []assetStatus
	counts := map[string]int{StatusImported: 0, StatusPending: 0, StatusMissing: 0, StatusStale: 0, StatusOrphaned: 0, StatusFailed: 0}
	if in.TargetPath != "" {
		res := string(in.TargetPath)
		if _, ok := importfile.For(res); !ok {
			return sdk.Result{}, sdk.Errorf(sdk.CodeInvalidArgument, "name an imported asset: "+importableList(),
				"%s is not a file the editor imports", res)
		}
		abs, err := p.Resolve(res)
		if err != nil {
			return sdk.Result{}, err
		}
		_, ierr := os.Lstat(abs + ".import")
		s := statusOf(root, res, abs, ierr == nil)
		counts[s.Status]++
		imported := s.Status == StatusImported
		return sdk.JSON(statusResult{Imported: &imported, Type: s.Type, Counts: counts, Items: []assetStatus{s}, Total: 1}), nil
	}
	files, err := p.Files(ctx, true) // folders with a .gdignore are not imported
	if err != nil {
		return sdk.Result{}, err
	}
	present := map[string]bool{}
	for _, abs := range files {
		present[abs] = true
	}
	for _, abs := range files {
		if err := ctx.Err(); err != nil {
			return sdk.Result{}, err
		}
		res := p.ResPath(abs)
		if src, ok := strings.CutSuffix(abs, ".import"); ok {
			if _, known := importfile.For(src); known && !present[src] {
				counts[StatusOrphaned]++
				items = append(items, assetStatus{Path: p.ResPath(src), Status: StatusOrphaned,
					Reason: "only " + res + " is left; delete it, or put the asset back"})
			}
			continue
		}
		if _, ok := importfile.For(res); !ok {
			continue
		}
		s := statusOf(root, res, abs, present[abs+".import"])
		counts[s.Status]++
		if s.Status != StatusImported || in.IncludeOK {
			items = append(items, s)
		}
	}
	slices.SortFunc(items, func(a, b assetStatus) int { return strings.Compare(a.Path, b.Path) })
	limit := in.Limit
	if limit <= 0 {
		limit = defaultLimit
	}
	limit = min(limit, maxLimit)
	out := statusResult{Counts: counts, Total: len(items), Offset: in.Offset, Items: []assetStatus{}}
	if in.Offset < len(items) {
		end := min(len(items), in.Offset+limit)
		out.Items = items[in.Offset:end]
		if end < len(items) {
			out.NextOffset, out.Truncated = end, true
		}
	}
	if counts[StatusPending] > 0 && counts[StatusImported] == 0 {
		out.Note = "no asset has been imported in this checkout (.godot/imported is empty or absent): the editor imports them all when it opens the project"
	}
	return sdk.JSON(out), nil
}
