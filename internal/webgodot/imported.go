package webgodot

import (
	"crypto/sha256"
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/godot-mcp/godot-mcp/sdk/godot/importer"
	"github.com/godot-mcp/godot-mcp/sdk/godot/importfile"
)

// importedFiles returns what a game pack needs for the textures of a
// project that no editor imported: for each asset (a pack path) whose
// .import file is missing, or names imported files the project lacks, the
// imported files (and a .import file with the editor's defaults where
// there is none), made as the editor's importer makes them. have holds
// the project's files by pack path. Nothing is written to the project.
// An asset that cannot be imported is left out, as the editor leaves out
// a failed import: the game's load of it reports the error.
func importedFiles(assets []string, have map[string][]byte) []PackFile {
	var out []PackFile
	for _, rel := range assets {
		source := "res://" + rel
		importData, hasImport := have[rel+".import"]
		switch strings.ToLower(path.Ext(rel)) {
		case ".wav":
			out = append(out, importedResource(rel, importData, have, func(data []byte, _ map[string]string) ([]byte, error) {
				return importer.WAVResource(data)
			})...)
			continue
		case ".ttf", ".otf", ".woff", ".woff2":
			out = append(out, importedResource(rel, importData, have, importer.FontResource)...)
			continue
		case ".ogg":
			out = append(out, importedResource(rel, importData, have, importer.OggResource)...)
			continue
		}
		if hasImport {
			info, err := importfile.Parse(rel+".import", importData)
			if err != nil || info.Importer != "texture" || !info.Valid || len(info.DestFiles) == 0 {
				continue
			}
			missing := false
			for _, d := range info.DestFiles {
				if p, ok := strings.CutPrefix(d, "res://"); ok && have[p] == nil {
					missing = true
				}
			}
			if !missing {
				continue
			}
		} else {
			importData = nil
		}
		made, err := importCache.get(source, have[rel], importData, importer.Import)
		if err != nil {
			continue
		}
		if !hasImport {
			im, _ := importfile.For(source)
			out = append(out, PackFile{Path: rel + ".import", Data: importfile.Build(source, im, "")})
		}
		for _, f := range made {
			p, ok := strings.CutPrefix(f.Path, "res://")
			if !ok || !strings.HasPrefix(p, ".godot/imported/") || strings.Contains(p, "..") || have[p] != nil {
				continue
			}
			out = append(out, PackFile{Path: p, Data: f.Data})
		}
	}
	return out
}

// maxImportCache bounds the imported files kept between game packs.
const maxImportCache = 256 << 20

// importCache keeps imported files by the hash of the asset's path, bytes
// and .import file, so that starting the same game again does not decode
// and encode its art again.
var importCache = &fileCache{m: map[[32]byte][]importer.File{}}

type fileCache struct {
	mu   sync.Mutex
	m    map[[32]byte][]importer.File
	size int
	hits int
}

// importedResource is the pack's form of a WAV, Ogg Vorbis or font file
// that no editor imported: the resource the importer would save, as a
// text resource (importer.WAVResource, importer.OggResource,
// importer.FontResource) beside the editor's imported path, and a .import
// file naming it, in place of the project's own in the pack. The editor
// saves them as binary resources (.sample, .oggvorbisstr, .fontdata),
// which this package does not write.
func importedResource(rel string, importData []byte, have map[string][]byte, build func([]byte, map[string]string) ([]byte, error)) []PackFile {
	source := "res://" + rel
	im, _ := importfile.For(source)
	var params map[string]string
	if importData != nil {
		info, err := importfile.Parse(rel+".import", importData)
		if err != nil || info.Importer != im.Name || !info.Valid {
			return nil
		}
		params = info.Params
		present := len(info.DestFiles) > 0
		for _, d := range info.DestFiles {
			if p, ok := strings.CutPrefix(d, "res://"); !ok || have[p] == nil {
				present = false
			}
		}
		if present {
			return nil
		}
	}
	made, err := importCache.get(source, have[rel], importData, func(string, []byte, []byte) ([]importer.File, error) {
		tres, err := build(have[rel], params)
		if err != nil {
			return nil, err
		}
		return []importer.File{{Path: strings.TrimSuffix(importfile.ImportedPath(source, im), "."+im.Ext) + ".tres", Data: tres}}, nil
	})
	if err != nil {
		return nil
	}
	dest := made[0].Path
	q := func(s string) string { return strconv.Quote(s) }
	imp := "[remap]\n\nimporter=" + q(im.Name) + "\ntype=" + q(im.Type) + "\npath=" + q(dest) +
		"\n\n[deps]\n\nsource_file=" + q(source) + "\ndest_files=[" + q(dest) + "]\n"
	return []PackFile{{Path: rel + ".import", Data: []byte(imp)}, {Path: strings.TrimPrefix(dest, "res://"), Data: made[0].Data}}
}

func (c *fileCache) get(source string, data, importData []byte, build func(string, []byte, []byte) ([]importer.File, error)) ([]importer.File, error) {
	h := sha256.New()
	for _, part := range [][]byte{[]byte(source), data, importData} {
		var n [8]byte
		for i := range n {
			n[i] = byte(len(part) >> (8 * i))
		}
		h.Write(n[:])
		h.Write(part)
	}
	if importData == nil {
		h.Write([]byte{1})
	}
	var key [32]byte
	h.Sum(key[:0])
	c.mu.Lock()
	if f, ok := c.m[key]; ok {
		c.hits++
		c.mu.Unlock()
		return f, nil
	}
	c.mu.Unlock()
	files, err := build(source, data, importData)
	if err != nil {
		return nil, err
	}
	n := 0
	for _, f := range files {
		n += len(f.Data)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.size+n > maxImportCache {
		c.m, c.size = map[[32]byte][]importer.File{}, 0
	}
	if n <= maxImportCache {
		c.m[key] = files
		c.size += n
	}
	return files, nil
}
