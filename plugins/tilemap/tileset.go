package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/uid"
)

// A TileSet lives either in its own .tres ([resource] section) or embedded
// in a scene as a [sub_resource]. Its sources are "sources/N =
// SubResource(...)" entries pointing at TileSetAtlasSource sub resources
// of the same file; a tile is "X:Y/0 = 0" in the atlas source, plus
// "X:Y/size_in_atlas" when it spans more than one atlas cell.

type tileSet struct {
	d    *doc
	sec  *godot.Section
	docs []*doc // files to write: the TileSet's, and the scene if it changed
}

// tileMapNode finds a TileMapLayer or TileMap node.
func tileMapNode(d *doc, p string) (*godot.Node, error) {
	n, err := findNode(d, p)
	if err != nil {
		return nil, err
	}
	if t := n.Type(); t != "TileMapLayer" && t != "TileMap" {
		return nil, errNotTileMap(p, t)
	}
	return n, nil
}

// locateTileset opens the TileSet of node_path or the file tileset_path.
// check validates the choice of TileSet before either mode runs.
func (in tilesetArgs) check() error {
	if (in.NodePath == "") == (in.TilesetPath == "") {
		return invalid("pass node_path (a tile map with a tile_set) or tileset_path (a TileSet .tres), not both",
			"exactly one of node_path and tileset_path is required")
	}
	return nil
}

func locateTileset(ctx context.Context, call *sdk.Call, in tilesetArgs) (*tileSet, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	if in.TilesetPath != "" {
		return openTilesetFile(ctx, call, string(in.TilesetPath))
	}
	d, err := openScene(ctx, call, in.ScenePath)
	if err != nil {
		return nil, err
	}
	n, err := tileMapNode(d, in.NodePath)
	if err != nil {
		return nil, err
	}
	if ts, err := tilesetOfNode(ctx, call, d, n); err != nil || ts != nil {
		return ts, err
	}
	e := invalid("create one with godot_tilemap_create_tileset first", "%s has no tile_set", in.NodePath)
	e.Required = "tile_set"
	return nil, e
}

func openTilesetFile(ctx context.Context, call *sdk.Call, p string) (*tileSet, error) {
	d, err := readDoc(ctx, call, p)
	if err != nil {
		return nil, err
	}
	if d.res.ResourceType() != "TileSet" || d.res.Resource() == nil {
		return nil, invalid("pass the path of a TileSet resource", "%s is a %s, not a TileSet", p, d.res.ResourceType())
	}
	return &tileSet{d: d, sec: d.res.Resource(), docs: []*doc{d}}, nil
}

// sources maps source ids to their sub resources.
func (ts *tileSet) sources() map[int]*godot.SubResourceDecl {
	out := map[int]*godot.SubResourceDecl{}
	for _, k := range ts.sec.Keys() {
		idText, ok := strings.CutPrefix(k, "sources/")
		if !ok {
			continue
		}
		id, err := strconv.Atoi(idText)
		if err != nil {
			continue
		}
		v, _ := ts.sec.Get(k)
		if ref, ok := v.(godot.SubResource); ok {
			out[id] = ts.d.res.SubResource(ref.ID)
		} else {
			out[id] = nil // external source: exists, not editable here
		}
	}
	return out
}

func (ts *tileSet) pathOut() any {
	if ts.d.res.IsScene() {
		return nil
	}
	return ts.d.file.Path
}

// check validates create_tileset's arguments in both modes and answers
// the tile size.
func (in createTilesetArgs) check() ([2]int, error) {
	size, err := vec2("tile_size", in.TileSize, &[2]int{16, 16})
	if err != nil {
		return size, err
	}
	if size[0] <= 0 || size[1] <= 0 {
		return size, invalid("give a positive tile size such as [16, 16]", "tile_size (%d, %d) must be positive", size[0], size[1])
	}
	if in.NodePath == "" && in.SavePath == "" {
		return size, invalid("pass node_path, save_path or both", "node_path or save_path is required")
	}
	return size, nil
}

func createTileset(ctx context.Context, call *sdk.Call, in createTilesetArgs) (sdk.Result, error) {
	size, err := in.check()
	if err != nil {
		return sdk.Result{}, err
	}
	out := map[string]any{"node_path": nilIfEmpty(in.NodePath), "tileset_path": nilIfEmpty(string(in.SavePath)), "tile_size": size[:], "created": true}
	var newData []byte
	id := uid.Format(uid.New())
	if in.SavePath != "" {
		var b strings.Builder
		fmt.Fprintf(&b, "[gd_resource type=\"TileSet\" format=3 uid=%q]\n\n[resource]\n", id)
		if size != [2]int{16, 16} {
			fmt.Fprintf(&b, "tile_size = Vector2i(%d, %d)\n", size[0], size[1])
		}
		newData = []byte(b.String())
	}
	var docs []*doc
	if in.NodePath != "" {
		d, err := openScene(ctx, call, in.ScenePath)
		if err != nil {
			return sdk.Result{}, err
		}
		n, err := tileMapNode(d, in.NodePath)
		if err != nil {
			return sdk.Result{}, err
		}
		if in.SavePath != "" {
			ext, err := d.res.AddExtResource("TileSet", string(in.SavePath), id)
			if err != nil {
				return sdk.Result{}, err
			}
			n.Set("tile_set", ext)
		} else {
			sub, err := d.res.AddSubResource("TileSet")
			if err != nil {
				return sdk.Result{}, err
			}
			if size != [2]int{16, 16} {
				sub.Set("tile_size", godot.Vector2i{X: int32(size[0]), Y: int32(size[1])})
			}
			n.Set("tile_set", sub.Ref())
		}
		docs = append(docs, d)
	}
	return commitNew(ctx, call, "Create TileSet", out, string(in.SavePath), newData, docs...)
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// textureExts are the image files Godot imports as Texture2D.
var textureExts = []string{".png", ".webp", ".jpg", ".jpeg", ".svg", ".bmp", ".tga", ".exr", ".hdr", ".ktx", ".dds", ".tres", ".res"}

var importUID = regexp.MustCompile(`(?m)^uid="(uid://[a-z0-9]+)"`)

// check validates add_tileset_atlas_source's arguments in both modes and
// answers the region size.
func (in atlasArgs) check() ([2]int, error) {
	region, err := vec2("region_size", in.RegionSize, &[2]int{16, 16})
	if err != nil {
		return region, err
	}
	if region[0] <= 0 || region[1] <= 0 {
		return region, invalid("give a positive region size such as [16, 16]", "region_size (%d, %d) must be positive", region[0], region[1])
	}
	if !slices.Contains(textureExts, strings.ToLower(path.Ext(string(in.TexturePath)))) {
		return region, invalid("pass the res:// path of an image the project imports as a Texture2D", "texture_path %q is not a texture", in.TexturePath)
	}
	if in.SourceID != nil && (*in.SourceID < 0 || *in.SourceID > 0xFFFF) {
		e := invalid("omit source_id to take the next free one", "source_id %d must be between 0 and 65535", *in.SourceID)
		e.Required = "source_id"
		return region, e
	}
	return region, in.tilesetArgs.check()
}

func addAtlasSource(ctx context.Context, call *sdk.Call, in atlasArgs) (sdk.Result, error) {
	region, err := in.check()
	if err != nil {
		return sdk.Result{}, err
	}
	st, err := call.Workspace().Stat(ctx, string(in.TexturePath))
	if err != nil {
		return sdk.Result{}, err
	}
	if !st.Exists || st.IsDir {
		return sdk.Result{}, &sdk.Error{Code: sdk.CodeNotFound, Message: fmt.Sprintf("no texture at %s", in.TexturePath),
			Hint: "pass an existing image (godot_project_search_files finds *.png)"}
	}
	ts, err := locateTileset(ctx, call, in.tilesetArgs)
	if err != nil {
		return sdk.Result{}, err
	}
	id, _, err := ts.addAtlas(ctx, call, in.TexturePath, region, in.SourceID, [2]int{}, [2]int{})
	if err != nil {
		return sdk.Result{}, err
	}
	out := map[string]any{"node_path": nilIfEmpty(in.NodePath), "tileset_path": ts.pathOut(), "source_id": id,
		"texture_path": in.TexturePath, "region_size": region[:]}
	return commit(ctx, call, fmt.Sprintf("Add atlas source %d", id), out, ts.docs...)
}

// atlasGridOf is the atlas grid of source src, from its texture's size,
// margins, separation and region size; ok is false when the texture
// cannot be read (not in the project, or not PNG, JPEG or GIF).
func atlasGridOf(ctx context.Context, call *sdk.Call, ts *tileSet, src *godot.SubResourceDecl) (grid [2]int, texture string, ok bool) {
	v, _ := src.Get("texture")
	ref, isExt := v.(godot.ExtResource)
	if !isExt {
		return grid, "", false
	}
	e := ts.d.res.ExtResource(ref.ID)
	if e == nil {
		return grid, "", false
	}
	f, err := call.Workspace().Read(ctx, e.Path())
	if err != nil {
		return grid, "", false
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(f.Data))
	if err != nil {
		return grid, "", false
	}
	vec := func(key string, def [2]int) [2]int {
		if v, ok := src.Get(key); ok {
			if x, ok := v.(godot.Vector2i); ok {
				return [2]int{int(x.X), int(x.Y)}
			}
		}
		return def
	}
	grid = atlasGrid([2]int{cfg.Width, cfg.Height}, vec("margins", [2]int{}), vec("separation", [2]int{}), vec("texture_region_size", [2]int{16, 16}))
	return grid, e.Path(), true
}

// addAtlas adds a TileSetAtlasSource over texture with the given region
// size, margins and separation (zero: none), as source id (nil: the next
// free one), and answers its id.
func (ts *tileSet) addAtlas(ctx context.Context, call *sdk.Call, texture sdk.ResPath, region [2]int, sourceID *int, margins, separation [2]int) (int, *godot.SubResourceDecl, error) {
	srcs := ts.sources()
	id := 0
	for k := range srcs {
		id = max(id, k+1)
	}
	if sourceID != nil {
		if _, taken := srcs[*sourceID]; taken {
			e := invalid("omit source_id to take the next free one", "source_id %d is already used by this TileSet", *sourceID)
			e.Required = "source_id"
			return 0, nil, e
		}
		id = *sourceID
	}
	texUID := ""
	if imp, err := call.Workspace().Read(ctx, string(texture)+".import"); err == nil {
		if m := importUID.FindSubmatch(imp.Data); m != nil {
			texUID = string(m[1])
		}
	}
	ext, err := ts.d.res.AddExtResource("Texture2D", string(texture), texUID)
	if err != nil {
		return 0, nil, err
	}
	sub, err := ts.d.res.AddSubResource("TileSetAtlasSource")
	if err != nil {
		return 0, nil, err
	}
	sub.Set("texture", ext)
	if margins != [2]int{} {
		sub.Set("margins", godot.Vector2i{X: int32(margins[0]), Y: int32(margins[1])})
	}
	if separation != [2]int{} {
		sub.Set("separation", godot.Vector2i{X: int32(separation[0]), Y: int32(separation[1])})
	}
	if region != [2]int{16, 16} {
		sub.Set("texture_region_size", godot.Vector2i{X: int32(region[0]), Y: int32(region[1])})
	}
	ts.set(fmt.Sprintf("sources/%d", id), sub.Ref())
	return id, sub, nil
}

var tileKey = regexp.MustCompile(`^(\d+):(\d+)/(0|size_in_atlas)$`)

// check validates create_tile's arguments in both modes and answers the
// atlas coordinates and size.
func (in createTileArgs) check() (at, size [2]int, err error) {
	if at, err = vec2("atlas_coords", in.AtlasCoords, nil); err != nil {
		return at, size, err
	}
	if size, err = vec2("size", in.Size, &[2]int{1, 1}); err != nil {
		return at, size, err
	}
	if size[0] <= 0 || size[1] <= 0 || at[0] < 0 || at[1] < 0 {
		return at, size, invalid("atlas_coords are >= 0 and size >= [1, 1]", "atlas_coords (%d, %d) or size (%d, %d) out of range", at[0], at[1], size[0], size[1])
	}
	if in.SourceID == nil {
		e := invalid("pass the id of an atlas source (godot_tilemap_add_tileset_atlas_source returns it)", "source_id is required")
		e.Required = "source_id"
		return at, size, e
	}
	return at, size, in.tilesetArgs.check()
}

func createTile(ctx context.Context, call *sdk.Call, in createTileArgs) (sdk.Result, error) {
	at, size, err := in.check()
	if err != nil {
		return sdk.Result{}, err
	}
	ts, err := locateTileset(ctx, call, in.tilesetArgs)
	if err != nil {
		return sdk.Result{}, err
	}
	src := ts.sources()[*in.SourceID]
	if src == nil || src.Type() != "TileSetAtlasSource" {
		e := invalid("pass the id of an atlas source of this TileSet", "source %d does not exist or is not an atlas source", *in.SourceID)
		e.Required = "source_id"
		return sdk.Result{}, e
	}
	// Refuse overlap with existing tiles, as the atlas does.
	type area struct{ x, y, w, h int }
	tiles := map[[2]int]*area{}
	for _, k := range src.Keys() {
		m := tileKey.FindStringSubmatch(k)
		if m == nil {
			continue
		}
		x, _ := strconv.Atoi(m[1])
		y, _ := strconv.Atoi(m[2])
		a := tiles[[2]int{x, y}]
		if a == nil {
			a = &area{x, y, 1, 1}
			tiles[[2]int{x, y}] = a
		}
		if m[3] == "size_in_atlas" {
			if v, ok := src.Get(k); ok {
				if s, ok := v.(godot.Vector2i); ok {
					a.w, a.h = int(s.X), int(s.Y)
				}
			}
		}
	}
	if grid, tex, ok := atlasGridOf(ctx, call, ts, src); ok && (at[0]+size[0] > grid[0] || at[1]+size[1] > grid[1]) {
		return sdk.Result{}, invalid(fmt.Sprintf("the atlas grid of %s is %dx%d tiles: atlas_coords from [0, 0] to [%d, %d] (a larger tile must fit too)", tex, grid[0], grid[1], grid[0]-1, grid[1]-1),
			"a %dx%d tile at (%d, %d) is outside the texture", size[0], size[1], at[0], at[1])
	}
	for _, a := range tiles {
		if at[0] < a.x+a.w && a.x < at[0]+size[0] && at[1] < a.y+a.h && a.y < at[1]+size[1] {
			return sdk.Result{}, invalid("pick free atlas coordinates (godot_resources_edit_read_resource_file shows the TileSet's tiles)",
				"no room for a %dx%d tile at (%d, %d): the tile at (%d, %d) covers it", size[0], size[1], at[0], at[1], a.x, a.y)
		}
	}
	key := fmt.Sprintf("%d:%d/", at[0], at[1])
	if size != [2]int{1, 1} {
		src.Set(key+"size_in_atlas", godot.Vector2i{X: int32(size[0]), Y: int32(size[1])})
	}
	src.Set(key+"0", godot.Int(0))
	out := map[string]any{"node_path": nilIfEmpty(in.NodePath), "tileset_path": ts.pathOut(), "source_id": *in.SourceID,
		"atlas_coords": at[:], "size": size[:]}
	return commit(ctx, call, fmt.Sprintf("Create tile %d:%d in source %d", at[0], at[1], *in.SourceID), out, ts.docs...)
}
