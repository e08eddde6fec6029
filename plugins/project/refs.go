package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/uid"
)

// textExts are the files that can refer to other project files by path:
// scenes and resources (ext_resource lines), scripts and shaders (preload,
// load, #include), project.godot (main scene, autoloads, icon) and other
// ConfigFiles.
var textExts = map[string]bool{
	".tscn": true, ".tres": true, ".gd": true, ".cs": true, ".gdshader": true, ".gdshaderinc": true,
	".godot": true, ".cfg": true,
}

// maxRefFileSize bounds what a reference scan reads: bigger text files are
// generated data, not hand-made references.
const maxRefFileSize = 16 << 20

// walkedFile is one file met by walkProject.
type walkedFile struct {
	res, abs string
}

// walkProject lists the project's regular files as the editor's file system
// sees them: .godot/ and hidden entries are skipped, links are not followed.
func walkProject(ctx context.Context, p *sdk.Project) ([]walkedFile, error) {
	abs, err := p.Files(ctx, false)
	out := make([]walkedFile, len(abs))
	for i, a := range abs {
		out[i] = walkedFile{res: p.ResPath(a), abs: a}
	}
	return out, err
}

// headerUID reads uid="uid://…" from the first line of a .tscn/.tres.
func headerUID(data []byte) string {
	line := data
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		line = data[:i]
	}
	return quotedField(line, "uid=\"")
}

// maxSidecar bounds the read of a .uid or .import file: the editor writes
// a few hundred bytes; anything far bigger is not one.
const maxSidecar = 1 << 20

// fileHeaderUID is headerUID of the .tscn/.tres at abs, reading only the
// start of the file; "" when it cannot be read or is not a regular file.
func fileHeaderUID(abs string) string {
	f, _, err := sdk.OpenRegular(abs)
	if err != nil {
		return ""
	}
	buf := make([]byte, 512)
	n, _ := f.Read(buf)
	_ = f.Close()
	return headerUID(buf[:n])
}

// quotedField returns the quoted value after key in line, or "".
func quotedField(line []byte, key string) string {
	i := bytes.Index(line, []byte(key))
	if i < 0 {
		return ""
	}
	rest := line[i+len(key):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return ""
	}
	return string(rest[:j])
}

// importUID reads the uid of an imported asset from its .import file.
func importUID(data []byte) string {
	for line := range bytes.Lines(data) {
		if bytes.HasPrefix(line, []byte("uid=\"")) {
			return quotedField(line, "uid=\"")
		}
	}
	return ""
}

// uidOf returns the UID Godot 4.4+ records for the file at res (from its
// .uid sidecar, its header, or its .import file) and where it came from;
// "" when it has none. The sidecars are read only if they are regular
// files: a named pipe called x.gd.uid would otherwise hold the call until
// something wrote to it.
func uidOf(p *sdk.Project, res string) (id, source string) {
	abs := filepath.Join(p.Root(), filepath.FromSlash(strings.TrimPrefix(res, "res://")))
	if b, err := sdk.ReadRegular(abs+".uid", maxSidecar); err == nil {
		if s := strings.TrimSpace(string(b)); strings.HasPrefix(s, uid.Prefix) {
			return s, res + ".uid"
		}
	}
	if ext := filepath.Ext(res); ext == ".tscn" || ext == ".tres" {
		if s := fileHeaderUID(abs); s != "" {
			return s, res
		}
	}
	if b, err := sdk.ReadRegular(abs+".import", maxSidecar); err == nil {
		if s := importUID(b); s != "" {
			return s, res + ".import"
		}
	}
	return "", ""
}

// uidIndex maps every UID in the project to its file's res:// path.
func uidIndex(ctx context.Context, p *sdk.Project) (map[string]string, error) {
	files, err := walkProject(ctx, p)
	if err != nil {
		return nil, err
	}
	idx := map[string]string{}
	// The walk met regular files; each is opened as one again, since it
	// can have been replaced by a named pipe since.
	for _, f := range files {
		switch {
		case strings.HasSuffix(f.res, ".uid"):
			if b, err := sdk.ReadRegular(f.abs, maxSidecar); err == nil {
				idx[strings.TrimSpace(string(b))] = strings.TrimSuffix(f.res, ".uid")
			}
		case strings.HasSuffix(f.res, ".import"):
			if b, err := sdk.ReadRegular(f.abs, maxSidecar); err == nil {
				if s := importUID(b); s != "" {
					idx[s] = strings.TrimSuffix(f.res, ".import")
				}
			}
		case strings.HasSuffix(f.res, ".tscn") || strings.HasSuffix(f.res, ".tres"):
			if s := fileHeaderUID(f.abs); s != "" {
				idx[s] = f.res
			}
		}
	}
	return idx, nil
}

// fileRefs is one file's references to a target file.
type fileRefs struct {
	File  string `json:"file"`
	Count int    `json:"count"`
}

// quotedForms are the spellings of a path reference in text files:
// "res://x", 'res://x', and the autoload form "*res://x".
func quotedForms(path string) [][]byte {
	return [][]byte{[]byte(`"` + path + `"`), []byte(`'` + path + `'`), []byte(`"*` + path + `"`)}
}

// rewriteRefs returns data with every reference to from pointed at to, and
// how many it changed. Scenes and resources are edited through the parser
// (ext_resource paths; their uid fields stay valid); every file also has
// its quoted path strings replaced. to == "" only counts (data is nil).
// A uid:// reference counts only when countUID is set: it stays valid on a
// move but blocks a delete.
func rewriteRefs(res string, data []byte, from, to, fromUID string, countUID bool) ([]byte, int) {
	n := 0
	// Counting rewrites too, to a path no text contains, so a reference
	// on an ext_resource line is not counted again as a quoted string.
	target := to
	if target == "" {
		target = from + "\x00"
	}
	ext := filepath.Ext(res)
	if ext == ".tscn" || ext == ".tres" {
		if f, err := godot.ParseFile(res, data); err == nil {
			moved := 0
			for _, e := range f.ExtResources() {
				switch {
				case e.Path() == from:
					moved++
					e.SetPath(target)
				case countUID && fromUID != "" && e.UID() == fromUID:
					n++
				}
			}
			if moved > 0 {
				n += moved
				data = f.Bytes()
			}
		}
	} else if countUID && fromUID != "" {
		n += bytes.Count(data, []byte(`"`+fromUID+`"`)) + bytes.Count(data, []byte(`'`+fromUID+`'`))
	}
	for _, q := range quotedForms(from) {
		c := bytes.Count(data, q)
		if c == 0 {
			continue
		}
		n += c
		if to != "" {
			data = bytes.ReplaceAll(data, q, bytes.Replace(q, []byte(from), []byte(to), 1))
		}
	}
	if to == "" {
		return nil, n
	}
	return data, n
}

// referencing lists the files that refer to target (by path, or by its
// UID when countUID), skipping the target itself and its sidecars.
func referencing(ctx context.Context, p *sdk.Project, target, targetUID string, countUID bool) ([]fileRefs, error) {
	files, err := walkProject(ctx, p)
	if err != nil {
		return nil, err
	}
	needles := [][]byte{[]byte(target)}
	if countUID && targetUID != "" {
		needles = append(needles, []byte(targetUID))
	}
	var out []fileRefs
	for _, f := range files {
		if f.res == target || !textExts[filepath.Ext(f.res)] {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// Bigger files are skipped, as is one replaced by a special
		// file since the walk.
		data, err := sdk.ReadRegular(f.abs, maxRefFileSize)
		if err != nil {
			continue
		}
		hit := false
		for _, nd := range needles {
			if bytes.Contains(data, nd) {
				hit = true
				break
			}
		}
		if !hit {
			continue
		}
		if _, n := rewriteRefs(f.res, data, target, "", targetUID, countUID); n > 0 {
			out = append(out, fileRefs{File: f.res, Count: n})
		}
	}
	return out, nil
}
