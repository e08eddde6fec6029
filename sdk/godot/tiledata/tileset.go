package tiledata

import (
	"regexp"
	"strconv"
	"strings"
)

// TileSet text keys. A TileSet saves its layers as numbered keys of its
// [resource] section, and a TileSetAtlasSource its tiles as "X:Y/..." keys:
//
//	physics_layer_0/collision_layer = 1
//	terrain_set_0/mode = 0
//	terrain_set_0/terrain_0/name = "Grass"
//	custom_data_layer_0/name = "damage"
//	custom_data_layer_0/type = 2
//	...
//	0:0/0 = 0
//	0:0/0/terrain_set = 0
//	0:0/0/physics_layer_0/polygon_0/points = PackedVector2Array(-8, -8, 8, -8, 8, 8, -8, 8)
//	0:0/0/terrains_peering_bit/right_side = 0
//	0:0/0/custom_data_0 = 5
//
// Godot writes them in its property-list order (tiles in the order they
// were created): TileSetRank and AtlasSourceRank give that order, so a key added by an edit goes where the
// editor would have put it (see godot.Section.SetOrdered).

// Neighbor is a cell neighbour, numbered as Godot's TileSet.CellNeighbor;
// terrain peering bits are named after it.
type Neighbor int

// The cell neighbours, in Godot's order.
const (
	RightSide Neighbor = iota
	RightCorner
	BottomRightSide
	BottomRightCorner
	BottomSide
	BottomCorner
	BottomLeftSide
	BottomLeftCorner
	LeftSide
	LeftCorner
	TopLeftSide
	TopLeftCorner
	TopSide
	TopCorner
	TopRightSide
	TopRightCorner
)

var neighborNames = [...]string{"right_side", "right_corner", "bottom_right_side", "bottom_right_corner",
	"bottom_side", "bottom_corner", "bottom_left_side", "bottom_left_corner", "left_side", "left_corner",
	"top_left_side", "top_left_corner", "top_side", "top_corner", "top_right_side", "top_right_corner"}

// String is the neighbour's name in peering-bit keys ("right_side").
func (n Neighbor) String() string {
	if n < 0 || int(n) >= len(neighborNames) {
		return "neighbor_" + strconv.Itoa(int(n))
	}
	return neighborNames[n]
}

// ParseNeighbor reads a neighbour name.
func ParseNeighbor(s string) (Neighbor, bool) {
	for i, n := range neighborNames {
		if n == s {
			return Neighbor(i), true
		}
	}
	return 0, false
}

// TileShape is TileSet.tile_shape.
type TileShape int

// The tile shapes.
const (
	ShapeSquare TileShape = iota
	ShapeIsometric
	ShapeHalfOffsetSquare
	ShapeHexagon
)

// TerrainMode is TileSet.terrain_set_N/mode.
type TerrainMode int

// The terrain modes.
const (
	MatchCornersAndSides TerrainMode = iota
	MatchCorners
	MatchSides
)

// TerrainModeNames are the modes' names, by value.
var TerrainModeNames = []string{"match_corners_and_sides", "match_corners", "match_sides"}

// pack joins rank fields, each of the given bit width, most significant
// first; a value too wide for its field is clamped.
func pack(fields ...[2]int) int {
	r := 0
	for _, f := range fields {
		v, bits := f[0], f[1]
		v = max(0, min(v, 1<<bits-1))
		r = r<<bits | v
	}
	return r
}

// tileSetBound are the TileSet's own properties, written before its layers.
var tileSetBound = []string{"tile_shape", "tile_layout", "tile_offset_axis", "tile_size", "uv_clipping"}

var layerKey = regexp.MustCompile(`^(occlusion_layer|physics_layer|terrain_set|navigation_layer|custom_data_layer)_(\d+)/(.*)$`)

// Each layer kind's sub keys, in the order Godot lists them.
var layerSubKeys = map[string][]string{
	"occlusion_layer":   {"light_mask", "sdf_collision"},
	"physics_layer":     {"collision_layer", "collision_mask", "collision_priority", "physics_material"},
	"navigation_layer":  {"layers"},
	"custom_data_layer": {"name", "type"},
}

var layerKinds = []string{"occlusion_layer", "physics_layer", "terrain_set", "navigation_layer", "custom_data_layer"}

var terrainKey = regexp.MustCompile(`^terrain_(\d+)/(name|color)$`)

// TileSetRank orders the keys of a TileSet's [resource] section as Godot
// writes them: tile_shape … uv_clipping, then the occlusion, physics,
// terrain, navigation and custom data layers (each by index), the sources,
// the tile proxies and the patterns. Unknown keys rank first.
func TileSetRank(key string) int {
	if i := index(tileSetBound, key); i < len(tileSetBound) {
		return pack([2]int{1, 5}, [2]int{i, 20}, [2]int{0, 20})
	}
	if m := layerKey.FindStringSubmatch(key); m != nil {
		n, _ := strconv.Atoi(m[2])
		sub := 0
		if m[1] == "terrain_set" {
			if t := terrainKey.FindStringSubmatch(m[3]); t != nil {
				ti, _ := strconv.Atoi(t[1])
				sub = 1 + ti*2 + index([]string{"name", "color"}, t[2])
			} // "mode" comes first
		} else {
			sub = index(layerSubKeys[m[1]], m[3])
		}
		return pack([2]int{2 + index(layerKinds, m[1]), 5}, [2]int{n, 20}, [2]int{sub, 20})
	}
	for i, p := range []string{"sources/", "tile_proxies/", "pattern_"} {
		if strings.HasPrefix(key, p) {
			n, _ := strconv.Atoi(key[len(p):])
			return pack([2]int{10 + i, 5}, [2]int{n, 20}, [2]int{0, 20})
		}
	}
	return 0
}

func index(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return len(s)
}

// TileKey is a parsed "X:Y/..." key of a TileSetAtlasSource.
type TileKey struct {
	Atlas AtlasCoords
	// Alt is the alternative id, or -1 for tile-level keys
	// ("size_in_atlas", "next_alternative_id", "animation_…").
	Alt int
	// Prop is what follows "X:Y/" (tile level) or "X:Y/A/" (alternative
	// level); "" for the "X:Y/A = A" declaration itself.
	Prop string
}

var tileKeyRe = regexp.MustCompile(`^(\d+):(\d+)/(?:(\d+)(?:/(.+))?|([a-z_].*))$`)

// ParseTileKey reads a tile key; ok is false for the atlas source's own
// properties (texture, margins, …).
func ParseTileKey(key string) (TileKey, bool) {
	m := tileKeyRe.FindStringSubmatch(key)
	if m == nil {
		return TileKey{}, false
	}
	x, err1 := strconv.Atoi(m[1])
	y, err2 := strconv.Atoi(m[2])
	if err1 != nil || err2 != nil || x > 0xFFFF || y > 0xFFFF {
		return TileKey{}, false
	}
	k := TileKey{Atlas: AtlasCoords{X: uint16(x), Y: uint16(y)}, Alt: -1}
	if m[3] != "" {
		a, err := strconv.Atoi(m[3])
		if err != nil {
			return TileKey{}, false
		}
		k.Alt, k.Prop = a, m[4]
	} else {
		k.Prop = m[5]
	}
	return k, true
}

// String formats the key.
func (k TileKey) String() string {
	s := strconv.Itoa(int(k.Atlas.X)) + ":" + strconv.Itoa(int(k.Atlas.Y)) + "/"
	if k.Alt < 0 {
		return s + k.Prop
	}
	s += strconv.Itoa(k.Alt)
	if k.Prop != "" {
		s += "/" + k.Prop
	}
	return s
}

// The tile-level keys, and an alternative's own properties, in the order
// Godot lists them; the per-layer ones follow.
var (
	tileLevel = []string{"animation_columns", "animation_separation", "animation_speed", "animation_mode",
		"animation_frames_count", "animation_frame_", "size_in_atlas", "next_alternative_id"}
	altBound = []string{"", "flip_h", "flip_v", "transpose", "texture_origin", "modulate", "material",
		"z_index", "y_sort_origin", "terrain_set", "terrain", "probability"}
	altLayer = regexp.MustCompile(`^(occlusion_layer_(\d+)|physics_layer_(\d+)|terrains_peering_bit|navigation_layer_(\d+)|custom_data_(\d+))(?:/(.*))?$`)
	polyKey  = regexp.MustCompile(`^polygon_(\d+)/(points|one_way|one_way_margin|polygon)$`)
)

// atlasBound are a TileSetAtlasSource's own properties, before its tiles.
var atlasBound = []string{"texture", "margins", "separation", "texture_region_size", "use_texture_padding"}

// AtlasSourceRank returns the order of the keys of a TileSetAtlasSource
// whose keys are now keys, as Godot writes them: its own properties, then
// the tiles in the order they were created (the order of keys; a new tile
// after them all), each with its tile-level keys, then its alternatives by
// id, each with its properties and layers (occlusion, physics, peering
// bits, navigation, custom data).
func AtlasSourceRank(keys []string) func(key string) int {
	order := map[AtlasCoords]int{}
	for _, k := range keys {
		if tk, ok := ParseTileKey(k); ok {
			if _, seen := order[tk.Atlas]; !seen {
				order[tk.Atlas] = len(order)
			}
		}
	}
	return func(key string) int {
		k, ok := ParseTileKey(key)
		if !ok {
			return pack([2]int{0, 1}, [2]int{index(atlasBound, key), 20})
		}
		tile, seen := order[k.Atlas]
		if !seen {
			tile = len(order)
		}
		var prop int
		if k.Alt < 0 {
			prop = len(tileLevel)
			for j, p := range tileLevel {
				if k.Prop == p || (strings.HasSuffix(p, "_") && strings.HasPrefix(k.Prop, p)) {
					prop = j
					break
				}
			}
		} else {
			prop = altRank(k.Prop)
		}
		return pack([2]int{1, 1}, [2]int{tile, 20}, [2]int{k.Alt + 1, 13}, [2]int{prop, 17})
	}
}

// altRank orders an alternative's property keys (17 bits).
func altRank(prop string) int {
	if i := index(altBound, prop); i < len(altBound) {
		return pack([2]int{0, 4}, [2]int{0, 5}, [2]int{i, 8})
	}
	m := altLayer.FindStringSubmatch(prop)
	if m == nil {
		return 1<<17 - 1
	}
	num := func(s string) int { n, _ := strconv.Atoi(s); return n }
	switch {
	case m[2] != "": // occlusion_layer_N/polygon_M/polygon
		return pack([2]int{1, 4}, [2]int{num(m[2]), 5}, [2]int{polySub(m[6]), 8})
	case m[3] != "": // physics_layer_N/…
		sub := polySub(m[6])
		switch m[6] {
		case "linear_velocity":
			sub = 0
		case "angular_velocity":
			sub = 1
		}
		return pack([2]int{2, 4}, [2]int{num(m[3]), 5}, [2]int{sub, 8})
	case m[1] == "terrains_peering_bit":
		n, _ := ParseNeighbor(m[6])
		return pack([2]int{3, 4}, [2]int{0, 5}, [2]int{int(n), 8})
	case m[4] != "":
		return pack([2]int{4, 4}, [2]int{num(m[4]), 5}, [2]int{0, 8})
	default:
		return pack([2]int{5, 4}, [2]int{num(m[5]), 5}, [2]int{0, 8})
	}
}

// polySub ranks "polygon_M/points|one_way|one_way_margin|polygon" after a
// physics layer's velocities.
func polySub(s string) int {
	p := polyKey.FindStringSubmatch(s)
	if p == nil {
		return 255
	}
	i, _ := strconv.Atoi(p[1])
	return 2 + min(i, 80)*3 + index([]string{"points", "one_way", "one_way_margin"}, p[2])%3
}
