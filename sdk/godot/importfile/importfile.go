// Package importfile knows the .import files Godot's editor writes beside
// the assets it imports (images, audio, fonts, 3D scenes): which importer
// each kind of file gets, its default options in the order the editor
// writes them, and where the imported result goes under .godot/imported.
//
// A file written by Build is the one the editor itself writes after a
// first import with default options, so opening the project imports the
// asset with those options and leaves the .import file as it is. The
// options are those of the Godot 4.6 and 4.7 editors (read from their
// importers and from .import files they wrote); an older 4.x editor drops
// the options it does not know and adds the ones it has when it imports.
//
// It only builds and reads bytes; callers write them through the host's
// workspace.
package importfile

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

// Param is one import option: its key and its value as Godot text.
type Param struct {
	Key   string
	Value string
}

// Importer is how the editor imports one kind of file.
type Importer struct {
	// Name is the importer's name, the [remap] importer key ("texture").
	Name string
	// Version is the importer_version the editor writes; 0 writes none.
	Version int
	// Type is the imported resource's class ("CompressedTexture2D").
	Type string
	// Ext is the extension of the imported file under .godot/imported.
	Ext string
	// Metadata is the [remap] metadata value as Godot text; "" writes none.
	Metadata string
	// Params are the default options, in the editor's order.
	Params []Param
}

// Param returns the default value text of the option key.
func (im Importer) Param(key string) (string, bool) {
	for _, p := range im.Params {
		if p.Key == key {
			return p.Value, true
		}
	}
	return "", false
}

// textureParams are ResourceImporterTexture's options with the default
// preset (2D/3D auto-detect): lossless, no mipmaps, VRAM compression only
// when the texture turns out to be used in 3D.
var textureParams = []Param{
	{"compress/mode", "0"},
	{"compress/high_quality", "false"},
	{"compress/lossy_quality", "0.7"},
	{"compress/uastc_level", "0"},
	{"compress/rdo_quality_loss", "0.0"},
	{"compress/hdr_compression", "1"},
	{"compress/normal_map", "0"},
	{"compress/channel_pack", "0"},
	{"mipmaps/generate", "false"},
	{"mipmaps/limit", "-1"},
	{"roughness/mode", "0"},
	{"roughness/src_normal", `""`},
	{"process/channel_remap/red", "0"},
	{"process/channel_remap/green", "1"},
	{"process/channel_remap/blue", "2"},
	{"process/channel_remap/alpha", "3"},
	{"process/fix_alpha_border", "true"},
	{"process/premult_alpha", "false"},
	{"process/normal_map_invert_y", "false"},
	{"process/hdr_as_srgb", "false"},
	{"process/hdr_clamp_exposure", "false"},
	{"process/size_limit", "0"},
	{"detect_3d/compress_to", "1"},
}

// svgParams are the texture importer's options only an .svg gets.
var svgParams = []Param{
	{"svg/scale", "1.0"},
	{"editor/scale_with_editor_scale", "false"},
	{"editor/convert_colors_with_editor_theme", "false"},
}

// streamParams are the options of the Ogg Vorbis and MP3 importers. Their
// defaults are the integer 0 even where the option is a float, and the
// editor writes them as it holds them: "loop_offset=0", not "0.0".
var streamParams = []Param{
	{"loop", "false"},
	{"loop_offset", "0"},
	{"bpm", "0"},
	{"beat_count", "0"},
	{"bar_beats", "4"},
}

var texture = Importer{Name: "texture", Type: "CompressedTexture2D", Ext: "ctex",
	Metadata: "{\n\"vram_texture\": false\n}", Params: textureParams}

var importers = map[string]Importer{
	".png":  texture,
	".jpg":  texture,
	".jpeg": texture,
	".webp": texture,
	".svg": {Name: "texture", Type: "CompressedTexture2D", Ext: "ctex",
		Metadata: texture.Metadata, Params: append(slices.Clone(textureParams), svgParams...)},
	".wav": {Name: "wav", Type: "AudioStreamWAV", Ext: "sample", Params: []Param{
		{"force/8_bit", "false"},
		{"force/mono", "false"},
		{"force/max_rate", "false"},
		{"force/max_rate_hz", "44100"},
		{"edit/trim", "false"},
		{"edit/normalize", "false"},
		{"edit/loop_mode", "0"},
		{"edit/loop_begin", "0"},
		{"edit/loop_end", "-1"},
		{"compress/mode", "2"}, // Quite OK Audio
	}},
	".ogg":   {Name: "oggvorbisstr", Type: "AudioStreamOggVorbis", Ext: "oggvorbisstr", Params: streamParams},
	".mp3":   {Name: "mp3", Type: "AudioStreamMP3", Ext: "mp3str", Params: streamParams},
	".ttf":   font,
	".otf":   font,
	".woff":  font,
	".woff2": font,
	".glb":   scene,
	".gltf":  scene,
}

var font = Importer{Name: "font_data_dynamic", Type: "FontFile", Ext: "fontdata", Params: []Param{
	{"Rendering", "null"},
	{"antialiasing", "1"},
	{"generate_mipmaps", "false"},
	{"disable_embedded_bitmaps", "true"},
	{"multichannel_signed_distance_field", "false"},
	{"msdf_pixel_range", "8"},
	{"msdf_size", "48"},
	{"allow_system_fallback", "true"},
	{"force_autohinter", "false"},
	{"modulate_color_glyphs", "false"},
	{"hinting", "1"},
	{"subpixel_positioning", "4"},
	{"keep_rounding_remainders", "true"},
	{"oversampling", "0.0"},
	{"Fallbacks", "null"},
	{"fallbacks", "[]"},
	{"Compress", "null"},
	{"compress", "true"},
	{"preload", "[]"},
	{"language_support", "{}"},
	{"script_support", "{}"},
	{"opentype_features", "{}"},
}}

// scene is ResourceImporterScene with the glTF importer's options, as a
// first import writes them (name suffixes on, root scale applied, glTF
// textures remapped to StandardMaterial3D).
var scene = Importer{Name: "scene", Version: 1, Type: "PackedScene", Ext: "scn", Params: []Param{
	{"nodes/root_type", `""`},
	{"nodes/root_name", `""`},
	{"nodes/root_script", "null"},
	{"mesh_library/use_node_names_as_mesh_names", "false"},
	{"array_mesh/deduplicate_surfaces", "true"},
	{"nodes/apply_root_scale", "true"},
	{"nodes/root_scale", "1.0"},
	{"nodes/import_as_skeleton_bones", "false"},
	{"nodes/use_name_suffixes", "true"},
	{"nodes/use_node_type_suffixes", "true"},
	{"meshes/ensure_tangents", "true"},
	{"meshes/generate_lods", "true"},
	{"meshes/create_shadow_meshes", "true"},
	{"meshes/light_baking", "1"},
	{"meshes/lightmap_texel_size", "0.2"},
	{"meshes/force_disable_compression", "false"},
	{"skins/use_named_skins", "true"},
	{"animation/import", "true"},
	{"animation/fps", "30"},
	{"animation/trimming", "false"},
	{"animation/remove_immutable_tracks", "true"},
	{"animation/import_rest_as_RESET", "false"},
	{"import_script/path", `""`},
	{"materials/extract", "0"},
	{"materials/extract_format", "0"},
	{"materials/extract_path", `""`},
	{"_subresources", "{}"},
	{"gltf/naming_version", "2"},
	{"gltf/embedded_image_handling", "1"},
	// Remap to StandardMaterial3D. Demo projects imported before the
	// option existed hold 0, which the editor sets for compatibility.
	{"gltf/texture_map_mode", "1"},
}}

// For returns the importer the editor picks for a file, by its extension
// (any case); false for a file the editor does not import or this package
// does not know.
func For(file string) (Importer, bool) {
	im, ok := importers[strings.ToLower(path.Ext(file))]
	return im, ok
}

// Extensions returns the extensions For knows, sorted, with their dot.
func Extensions() []string {
	out := make([]string, 0, len(importers))
	for e := range importers {
		out = append(out, e)
	}
	slices.Sort(out)
	return out
}

// BasePath is where the editor puts what it imports from source (a
// res:// path), without extension: res://.godot/imported/<name>-<md5 of
// the path>, as ResourceFormatImporter names it. The imported file adds
// "."+Importer.Ext, the checksum file ".md5".
func BasePath(source string) string {
	sum := md5.Sum([]byte(source))
	return "res://.godot/imported/" + path.Base(source) + "-" + hex.EncodeToString(sum[:])
}

// ImportedPath is the imported file of source for im.
func ImportedPath(source string, im Importer) string { return BasePath(source) + "." + im.Ext }

// MD5Path is the editor's checksum file for source: it records the
// source's MD5 at its last import (source_md5="...").
func MD5Path(source string) string { return BasePath(source) + ".md5" }

// Build returns the .import file for source (a res:// path) with the
// importer's default options and id ("uid://...", or "" for none).
func Build(source string, im Importer, id string) []byte {
	var b strings.Builder
	str := func(s string) string { return godot.FormatValue(godot.String(s)) }
	dest := ImportedPath(source, im)
	b.WriteString("[remap]\n\n")
	fmt.Fprintf(&b, "importer=%s\n", str(im.Name))
	if im.Version != 0 {
		fmt.Fprintf(&b, "importer_version=%d\n", im.Version)
	}
	fmt.Fprintf(&b, "type=%s\n", str(im.Type))
	if id != "" {
		fmt.Fprintf(&b, "uid=%s\n", str(id))
	}
	fmt.Fprintf(&b, "path=%s\n", str(dest))
	if im.Metadata != "" {
		fmt.Fprintf(&b, "metadata=%s\n", im.Metadata)
	}
	b.WriteString("\n[deps]\n\n")
	fmt.Fprintf(&b, "source_file=%s\n", str(source))
	fmt.Fprintf(&b, "dest_files=[%s]\n", str(dest))
	b.WriteString("\n[params]\n\n")
	for _, p := range im.Params {
		fmt.Fprintf(&b, "%s=%s\n", p.Key, p.Value)
	}
	return []byte(b.String())
}

// Info is what a .import file says.
type Info struct {
	Importer   string
	Type       string
	UID        string
	SourceFile string
	// DestFiles are the imported files the editor wrote (dest_files in
	// [deps]), res:// paths.
	DestFiles []string
	// Params are the recorded options as Godot text, by key.
	Params map[string]string
	// Valid is false when the file says the import failed or is disabled
	// (valid=false in [remap]).
	Valid bool
}

// Parse reads a .import file.
func Parse(name string, data []byte) (Info, error) {
	c, err := godot.ParseConfig(name, data)
	if err != nil {
		return Info{}, err
	}
	text := func(section, key string) string {
		v, ok := c.Get(section, key)
		if !ok {
			return ""
		}
		if s, ok := v.(godot.String); ok {
			return string(s)
		}
		return c.FormatValue(v)
	}
	info := Info{Importer: text("remap", "importer"), Type: text("remap", "type"), UID: text("remap", "uid"),
		SourceFile: text("deps", "source_file"), Params: map[string]string{}, Valid: true}
	if v, ok := c.Get("deps", "dest_files"); ok {
		if a, ok := v.(godot.Array); ok {
			for _, it := range a.Items {
				if s, ok := it.(godot.String); ok {
					info.DestFiles = append(info.DestFiles, string(s))
				}
			}
		} else if a, ok := v.(godot.PackedStringArray); ok {
			info.DestFiles = append(info.DestFiles, a...)
		}
	}
	if v, ok := c.Get("remap", "valid"); ok && v == godot.Bool(false) {
		info.Valid = false
	}
	for _, k := range c.Keys("params") {
		v, _ := c.Get("params", k)
		info.Params[k] = c.FormatValue(v)
	}
	return info, nil
}

// SourceMD5 reads the source_md5 a .md5 checksum file records ("" when it
// records none).
func SourceMD5(data []byte) string {
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "source_md5="); ok {
			return strings.Trim(v, `"`)
		}
	}
	return ""
}
