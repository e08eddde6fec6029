package tiledata

import (
	"errors"
	"slices"
	"testing"
)

// A "connect to self" terrain of side tiles: one tile per set of sides,
// as a platformer's ground set has.
func sidesSet() TerrainSet {
	set := TerrainSet{Mode: MatchSides}
	for mask := range 16 {
		t := TerrainTile{Atlas: AtlasCoords{X: uint16(mask)}, Terrain: 0, Bits: map[Neighbor]int{}, Probability: 1}
		for i, n := range []Neighbor{RightSide, BottomSide, LeftSide, TopSide} {
			if mask&(1<<i) != 0 {
				t.Bits[n] = 0
			}
		}
		set.Tiles = append(set.Tiles, t)
	}
	return set
}

// emptyMap is an empty map and a paint of terrain 0 on some of its cells
// with set, as the editor's terrain brush does.
func emptyMap(t *testing.T, set TerrainSet) (map[Coords]int, func(cells ...Coords)) {
	grid := map[Coords]int{}
	current := func(c Coords) int {
		if i, ok := grid[c]; ok {
			return i
		}
		return -1
	}
	return grid, func(cells ...Coords) {
		t.Helper()
		order, chosen, err := ConnectTerrain(set, current, cells, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range order {
			grid[c] = chosen[c]
		}
	}
}

func TestConnectTerrain(t *testing.T) {
	set := sidesSet()
	grid, paint := emptyMap(t, set)
	// A row of three: ends connect inwards, the middle both ways.
	paint(Coords{0, 0}, Coords{1, 0}, Coords{2, 0})
	want := map[Coords]int{{0, 0}: 0b0001, {1, 0}: 0b0101, {2, 0}: 0b0100}
	for c, w := range want {
		if grid[c] != w {
			t.Errorf("row: cell %v has tile %04b, want %04b", c, grid[c], w)
		}
	}
	// A cell below the middle: the middle is re-chosen to connect down.
	paint(Coords{1, 1})
	if grid[Coords{1, 0}] != 0b0111 || grid[Coords{1, 1}] != 0b1000 {
		t.Errorf("after the cell below: middle %04b, new %04b", grid[Coords{1, 0}], grid[Coords{1, 1}])
	}
	if grid[Coords{0, 0}] != 0b0001 {
		t.Errorf("a neighbour not touching the paint changed: %04b", grid[Coords{0, 0}])
	}
	empty := func(Coords) int { return -1 }
	if _, _, err := ConnectTerrain(set, empty, []Coords{{5, 5}}, 3); !errors.Is(err, ErrNoTerrainTile) {
		t.Errorf("unknown terrain: %v", err)
	}
}

// every combination of the mode's peering bits on grid, tile i having
// the bits of mask i.
func everyTile(g Grid, mode TerrainMode) TerrainSet {
	set := TerrainSet{Grid: g, Mode: mode}
	bits := g.PeeringBits(mode)
	for mask := range 1 << len(bits) {
		t := TerrainTile{Atlas: AtlasCoords{X: uint16(mask)}, Terrain: 0, Bits: map[Neighbor]int{}, Probability: 1}
		for i, n := range bits {
			if mask&(1<<i) != 0 {
				t.Bits[n] = 0
			}
		}
		set.Tiles = append(set.Tiles, t)
	}
	return set
}

func bitsOf(t TerrainTile) []Neighbor {
	var out []Neighbor
	for n := RightSide; n <= TopRightCorner; n++ {
		if t.Bit(n) == 0 {
			out = append(out, n)
		}
	}
	return out
}

func TestConnectTerrainHexagons(t *testing.T) {
	set := everyTile(Grid{Shape: ShapeHexagon}, MatchSides)
	grid, paint := emptyMap(t, set)
	want := func(c Coords, bits ...Neighbor) {
		t.Helper()
		if got := bitsOf(set.Tiles[grid[c]]); !slices.Equal(got, bits) {
			t.Errorf("cell %v has bits %v, want %v", c, got, bits)
		}
	}
	paint(Coords{0, 0}, Coords{1, 0}, Coords{2, 0})
	want(Coords{0, 0}, RightSide)
	want(Coords{1, 0}, RightSide, LeftSide)
	want(Coords{2, 0}, LeftSide)
	// (0, 1) is an odd row: its top left and top right sides touch (0, 0)
	// and (1, 0), which connect down to it.
	paint(Coords{0, 1})
	want(Coords{0, 1}, TopLeftSide, TopRightSide)
	want(Coords{0, 0}, RightSide, BottomRightSide)
	want(Coords{1, 0}, RightSide, BottomLeftSide, LeftSide)
	want(Coords{2, 0}, LeftSide)
}

// A neighbour whose terrains no tile has any more is erased, as Godot
// erases it: an edge tile without a centre terrain, whose edge the new
// cell covers.
func TestConnectTerrainErases(t *testing.T) {
	set := TerrainSet{Mode: MatchSides, Tiles: []TerrainTile{
		{Terrain: 0, Probability: 1},
		{Atlas: AtlasCoords{X: 1}, Terrain: -1, Bits: map[Neighbor]int{LeftSide: 0}, Probability: 1},
	}}
	current := func(c Coords) int {
		if c == (Coords{1, 0}) {
			return 1
		}
		return -1
	}
	order, chosen, err := ConnectTerrain(set, current, []Coords{{0, 0}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(order, []Coords{{0, 0}, {1, 0}}) || chosen[Coords{0, 0}] != 0 || chosen[Coords{1, 0}] != -1 {
		t.Errorf("order %v, chosen %v", order, chosen)
	}
}
