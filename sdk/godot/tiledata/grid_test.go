package tiledata

import (
	"fmt"
	"testing"
)

// allGrids is every shape, layout and offset axis a TileSet can have.
func allGrids() []Grid {
	var out []Grid
	for shape := ShapeSquare; shape <= ShapeHexagon; shape++ {
		for layout := LayoutStacked; layout <= LayoutDiamondDown; layout++ {
			for axis := AxisHorizontal; axis <= AxisVertical; axis++ {
				out = append(out, Grid{Shape: shape, Layout: layout, Axis: axis})
			}
		}
	}
	return out
}

// Neighbour offsets as Godot's TileSet.get_neighbor_cell gives them.
func TestNeighborCell(t *testing.T) {
	hexH := Grid{Shape: ShapeHexagon}
	hexV := Grid{Shape: ShapeHexagon, Axis: AxisVertical}
	iso := Grid{Shape: ShapeIsometric, Layout: LayoutDiamondDown}
	for _, c := range []struct {
		g    Grid
		at   XY
		n    Neighbor
		want XY
	}{
		{Grid{}, XY{0, 0}, TopRightCorner, XY{1, -1}},
		{hexH, XY{0, 0}, BottomRightSide, XY{0, 1}},
		{hexH, XY{0, 1}, BottomRightSide, XY{1, 2}},
		{hexH, XY{0, -1}, TopLeftSide, XY{0, -2}},
		{hexH, XY{3, 2}, TopLeftSide, XY{2, 1}},
		{Grid{Shape: ShapeHexagon, Layout: LayoutStackedOffset}, XY{0, 0}, BottomRightSide, XY{1, 1}},
		{hexV, XY{0, 0}, BottomRightSide, XY{1, 0}},
		{hexV, XY{1, 0}, BottomRightSide, XY{2, 1}},
		{hexV, XY{1, 0}, TopRightSide, XY{2, 0}},
		{hexV, XY{0, 0}, TopRightSide, XY{1, -1}},
		{hexV, XY{0, 0}, BottomSide, XY{0, 1}},
		{Grid{Shape: ShapeIsometric}, XY{0, 0}, BottomCorner, XY{0, 2}},
		{Grid{Shape: ShapeIsometric, Axis: AxisVertical}, XY{0, 0}, RightCorner, XY{2, 0}},
		{iso, XY{0, 0}, RightCorner, XY{1, -1}},
		{iso, XY{0, 0}, BottomCorner, XY{1, 1}},
		{iso, XY{0, 0}, BottomLeftSide, XY{0, 1}},
		{Grid{Shape: ShapeIsometric, Layout: LayoutDiamondRight}, XY{0, 0}, RightCorner, XY{1, 1}},
		{Grid{Shape: ShapeHexagon, Layout: LayoutStairsRight}, XY{0, 0}, TopRightSide, XY{1, -1}},
		{Grid{Shape: ShapeHexagon, Layout: LayoutStairsDown}, XY{0, 0}, RightSide, XY{2, -1}},
		{Grid{Shape: ShapeHexagon, Layout: LayoutStairsDown, Axis: AxisVertical}, XY{0, 0}, RightCorner, XY{5, 5}},
		{Grid{Shape: ShapeHexagon, Layout: LayoutStairsRight, Axis: AxisVertical}, XY{0, 0}, BottomSide, XY{-1, 2}},
		{Grid{Shape: ShapeIsometric, Layout: LayoutDiamondRight, Axis: AxisVertical}, XY{0, 0}, LeftCorner, XY{-1, -1}},
	} {
		got, ok := c.g.NeighborCell(c.at, c.n)
		if c.want == (XY{5, 5}) {
			if ok {
				t.Errorf("%+v: %v has no %s, got %v", c.g, c.at, c.n, got)
			}
			continue
		}
		if !ok || got != c.want {
			t.Errorf("%+v: %s of %v = %v %v, want %v", c.g, c.n, c.at, got, ok, c.want)
		}
	}
}

// Every neighbour relation goes both ways: the cell at n of c has c at
// the opposite neighbour.
func TestNeighborsAreMutual(t *testing.T) {
	for _, g := range allGrids() {
		count := 0
		for n := RightSide; n <= TopRightCorner; n++ {
			if !g.HasNeighbor(n) {
				continue
			}
			count++
			for _, c := range []XY{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {-3, -5}, {4, -7}} {
				nb, ok := g.NeighborCell(c, n)
				back, ok2 := g.NeighborCell(nb, (n+8)%16)
				if !ok || !ok2 || back != c || nb == c {
					t.Errorf("%+v: %s of %v is %v, whose %s is %v", g, n, c, nb, (n+8)%16, back)
				}
			}
		}
		want := 8
		if g.Shape == ShapeHalfOffsetSquare || g.Shape == ShapeHexagon {
			want = 6
		}
		if count != want {
			t.Errorf("%+v has %d neighbours, want %d", g, count, want)
		}
	}
}

// checkPoints checks the naming of the points around cell c: each of its
// peering bits names a point whose meeting cells include c at that bit,
// every meeting cell names the same point by its own bit, the meeting
// cells are distinct neighbours, and sides join two cells, corners three
// (four on square and isometric grids).
func checkPoints(g Grid, c XY) error {
	for _, b := range g.PeeringBits(MatchCornersAndSides) {
		p := g.point(c, b)
		meet := g.meeting(p)
		want := 2
		if !b.IsSide() {
			want = 3
			if g.Shape == ShapeSquare || g.Shape == ShapeIsometric {
				want = 4
			}
		}
		if len(meet) != want {
			return fmt.Errorf("%+v: %s of %v meets %d cells, want %d", g, b, c, len(meet), want)
		}
		found := false
		seen := map[XY]bool{}
		for i, m := range meet {
			if g.Axis == AxisVertical && g.Shape != ShapeSquare && g.Shape != ShapeIsometric && p.id == 3 && i == 2 {
				// Godot names the bottom cell's top_left_corner where the
				// geometry has its top_right_corner (see verticalPoints).
				if m.bit != TopLeftCorner {
					return fmt.Errorf("%+v: point %v: Godot's bit is top_left_corner, got %s", g, p, m.bit)
				}
				m.bit = TopRightCorner
			}
			if seen[m.cell] {
				return fmt.Errorf("%+v: %s of %v meets %v twice", g, b, c, m.cell)
			}
			seen[m.cell] = true
			if m.cell == c && m.bit == b {
				found = true
			}
			if q := g.point(m.cell, m.bit); q != p {
				return fmt.Errorf("%+v: %s of %v is %v, but %s of %v is %v", g, b, c, p, m.bit, m.cell, q)
			}
		}
		if !found {
			return fmt.Errorf("%+v: %s of %v names %v, which does not meet it", g, b, c, p)
		}
	}
	return nil
}

func TestTerrainPoints(t *testing.T) {
	for _, g := range allGrids() {
		for _, c := range []XY{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {-1, -1}, {2, -3}} {
			if err := checkPoints(g, c); err != nil {
				t.Error(err)
			}
		}
	}
}

func FuzzTerrainPoints(f *testing.F) {
	f.Add(uint8(0), 0, 0)
	f.Add(uint8(3*12+5*2+1), -7, 13)
	f.Fuzz(func(t *testing.T, grid uint8, x, y int) {
		gs := allGrids()
		g := gs[int(grid)%len(gs)]
		if err := checkPoints(g, XY{x % 100000, y % 100000}); err != nil {
			t.Fatal(err)
		}
	})
}
