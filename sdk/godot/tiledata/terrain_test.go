package tiledata

import (
	"errors"
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

func TestConnectTerrain(t *testing.T) {
	set := sidesSet()
	grid := map[Coords]int{}
	current := func(c Coords) int {
		if i, ok := grid[c]; ok {
			return i
		}
		return -1
	}
	paint := func(cells ...Coords) {
		order, chosen, err := ConnectTerrain(set, current, cells, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range order {
			grid[c] = chosen[c]
		}
	}
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
	if _, _, err := ConnectTerrain(set, current, []Coords{{5, 5}}, 3); !errors.Is(err, ErrNoTerrainTile) {
		t.Errorf("unknown terrain: %v", err)
	}
}
