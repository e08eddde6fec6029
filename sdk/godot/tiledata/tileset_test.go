package tiledata

import (
	"slices"
	"strings"
	"testing"
)

// Keys as Godot 4.6's ResourceSaver wrote them (a TileSet built in
// GDScript with every kind of layer, and the 2d-skeleton demo's tiles):
// sorting them by rank must give the same order back.
const savedTileSet = `tile_shape
tile_size
occlusion_layer_0/light_mask
occlusion_layer_1/light_mask
occlusion_layer_1/sdf_collision
physics_layer_0/collision_layer
physics_layer_1/collision_layer
physics_layer_1/collision_mask
terrain_set_0/mode
terrain_set_0/terrain_0/name
terrain_set_0/terrain_0/color
terrain_set_0/terrain_1/name
terrain_set_0/terrain_1/color
terrain_set_1/mode
terrain_set_1/terrain_0/name
terrain_set_1/terrain_0/color
navigation_layer_0/layers
navigation_layer_1/layers
custom_data_layer_0/name
custom_data_layer_0/type
custom_data_layer_1/name
custom_data_layer_1/type
custom_data_layer_10/name
sources/0
sources/2
sources/10
pattern_0
pattern_1`

const savedAtlas = `texture
margins
texture_region_size
use_texture_padding
0:0/0
0:0/0/terrain_set
0:0/0/terrain
0:0/0/occlusion_layer_1/polygon_0/polygon
0:0/0/physics_layer_0/linear_velocity
0:0/0/physics_layer_0/polygon_0/points
0:0/0/physics_layer_0/polygon_0/one_way
0:0/0/physics_layer_0/polygon_0/one_way_margin
0:0/0/physics_layer_0/polygon_1/points
0:0/0/physics_layer_1/polygon_1/points
0:0/0/terrains_peering_bit/right_side
0:0/0/terrains_peering_bit/bottom_right_corner
0:0/0/terrains_peering_bit/bottom_side
0:0/0/terrains_peering_bit/bottom_left_corner
0:0/0/terrains_peering_bit/left_side
0:0/0/navigation_layer_1/polygon
0:0/0/custom_data_0
0:0/0/custom_data_1
1:0/next_alternative_id
1:0/0
1:0/0/terrain_set
1:0/0/terrain
1:0/0/probability
1:0/0/terrains_peering_bit/top_left_corner
1:0/1
1:0/1/flip_h
1:0/1/terrain_set
0:1/0
2:2/size_in_atlas
2:2/0
10:3/0`

func TestRanksGiveGodotsOrder(t *testing.T) {
	for _, c := range []struct {
		name string
		keys string
		rank func(string) int
	}{
		{"TileSet", savedTileSet, TileSetRank},
		// Tiles in creation order: (1, 0) before (0, 1); a tile the keys
		// do not have yet goes last.
		{"TileSetAtlasSource", savedAtlas, AtlasSourceRank(strings.Split(strings.Replace(savedAtlas, "\n10:3/0", "", 1), "\n"))},
	} {
		want := strings.Split(c.keys, "\n")
		got := slices.Clone(want)
		slices.Reverse(got)
		slices.SortStableFunc(got, func(a, b string) int { return c.rank(a) - c.rank(b) })
		if !slices.Equal(got, want) {
			t.Errorf("%s: sorted by rank\n%s\nwant\n%s", c.name, strings.Join(got, "\n"), c.keys)
		}
	}
}

func TestParseTileKey(t *testing.T) {
	for _, c := range []struct {
		key  string
		want TileKey
		ok   bool
	}{
		{"3:4/0", TileKey{Atlas: AtlasCoords{3, 4}, Alt: 0}, true},
		{"3:4/2/physics_layer_0/polygon_0/points", TileKey{Atlas: AtlasCoords{3, 4}, Alt: 2, Prop: "physics_layer_0/polygon_0/points"}, true},
		{"3:4/size_in_atlas", TileKey{Atlas: AtlasCoords{3, 4}, Alt: -1, Prop: "size_in_atlas"}, true},
		{"texture", TileKey{}, false},
		{"70000:0/0", TileKey{}, false},
	} {
		got, ok := ParseTileKey(c.key)
		if ok != c.ok || got != c.want {
			t.Errorf("ParseTileKey(%q) = %+v, %v; want %+v, %v", c.key, got, ok, c.want, c.ok)
		}
		if ok && got.String() != c.key {
			t.Errorf("%+v.String() = %q, want %q", got, got.String(), c.key)
		}
	}
}

func TestPeeringBits(t *testing.T) {
	names := func(ns []Neighbor) string {
		var s []string
		for _, n := range ns {
			s = append(s, n.String())
		}
		return strings.Join(s, " ")
	}
	hexV := Grid{Shape: ShapeHexagon, Axis: AxisVertical}
	for _, c := range []struct {
		grid Grid
		mode TerrainMode
		want string
	}{
		{Grid{}, MatchCornersAndSides, "right_side bottom_right_corner bottom_side bottom_left_corner left_side top_left_corner top_side top_right_corner"},
		{Grid{}, MatchSides, "right_side bottom_side left_side top_side"},
		{Grid{}, MatchCorners, "bottom_right_corner bottom_left_corner top_left_corner top_right_corner"},
		{Grid{Shape: ShapeIsometric}, MatchSides, "bottom_right_side bottom_left_side top_left_side top_right_side"},
		{Grid{Shape: ShapeIsometric, Axis: AxisVertical}, MatchCorners, "right_corner bottom_corner left_corner top_corner"},
		{Grid{Shape: ShapeHexagon}, MatchSides, "right_side bottom_right_side bottom_left_side left_side top_left_side top_right_side"},
		{Grid{Shape: ShapeHalfOffsetSquare}, MatchCorners, "bottom_right_corner bottom_corner bottom_left_corner top_left_corner top_corner top_right_corner"},
		{hexV, MatchSides, "bottom_right_side bottom_side bottom_left_side top_left_side top_side top_right_side"},
		{hexV, MatchCorners, "right_corner bottom_right_corner bottom_left_corner left_corner top_left_corner top_right_corner"},
		{hexV, MatchCornersAndSides, "right_corner bottom_right_side bottom_right_corner bottom_side bottom_left_side bottom_left_corner left_corner top_left_side top_left_corner top_side top_right_side top_right_corner"},
	} {
		if got := names(c.grid.PeeringBits(c.mode)); got != c.want {
			t.Errorf("%+v.PeeringBits(%d) = %q, want %q", c.grid, c.mode, got, c.want)
		}
	}
}
