// Package importer makes the imported form of a project's assets the way
// the Godot 4 editor's default importers make them, for a project that no
// editor has opened: the files under .godot/imported/ that the engine
// loads in place of the asset, at the paths its .import file names.
//
// Textures (PNG, JPEG, WebP, SVG) are made: a CompressedTexture2D file
// (.ctex) the engine loads to the pixels the editor's import gives. Where
// the bytes differ from the editor's (PNG inside where the editor puts
// WebP, uncompressed pixels where it compresses for the GPU) the doc of
// Texture says so. WAV, Ogg Vorbis and font files have WAVResource,
// OggResource and FontResource, the AudioStreamWAV, AudioStreamOggVorbis
// and FontFile as text resources for a game pack (the editor saves binary
// .sample, .oggvorbisstr and .fontdata files). MP3 and scenes are not
// made yet; Import makes textures only and answers ErrUnsupported for the
// rest.
//
// It only builds bytes; callers write them through the host's workspace
// (or into a game pack).
package importer

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk/godot/importfile"
)

// File is one imported file: its res:// path and its bytes.
type File struct {
	Path string
	Data []byte
}

// ErrUnsupported is the error of Import for an asset whose imported form
// this package does not make (an importer other than the texture one).
var ErrUnsupported = errors.New("the imported form of this kind of asset is not made without the editor")

// Supported reports whether Import makes the imported form of an asset
// with the name source under the importer its extension gets.
func Supported(source string) bool {
	switch strings.ToLower(path.Ext(source)) {
	case ".png", ".jpg", ".jpeg", ".webp", ".svg":
		return true
	}
	return false
}

// Import makes the imported files of source (a res:// path) from its
// bytes and its .import file. importData nil means the asset has none:
// the editor's default options, and the paths importfile.Build names.
// The files are those the .import file lists in dest_files (or its
// [remap] path), each with the same bytes.
func Import(source string, data, importData []byte) ([]File, error) {
	params := map[string]string{}
	var dests []string
	if importData == nil {
		im, ok := importfile.For(source)
		if !ok || !Supported(source) {
			return nil, ErrUnsupported
		}
		dests = []string{importfile.ImportedPath(source, im)}
	} else {
		info, err := importfile.Parse(source+".import", importData)
		if err != nil {
			return nil, err
		}
		if info.Importer != "texture" || !Supported(source) {
			return nil, fmt.Errorf("%w (importer %q)", ErrUnsupported, info.Importer)
		}
		if !info.Valid {
			return nil, fmt.Errorf("its .import file says the import is not valid (valid=false)")
		}
		params = info.Params
		for _, d := range info.DestFiles {
			if strings.HasSuffix(d, ".ctex") && !strings.HasSuffix(d, ".editor.ctex") {
				dests = append(dests, d)
			}
		}
		if len(dests) == 0 {
			dests = []string{importfile.ImportedPath(source, importfile.Importer{Ext: "ctex"})}
		}
	}
	o, err := ParseTextureOptions(params)
	if err != nil {
		return nil, err
	}
	ctex, err := Texture(source, data, o)
	if err != nil {
		return nil, err
	}
	out := make([]File, len(dests))
	for i, d := range dests {
		out[i] = File{Path: d, Data: ctex}
	}
	return out, nil
}
