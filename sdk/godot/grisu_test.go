package godot

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// The computed cached powers are the published Grisu table (spot checks at
// both ends, an exact power and a rounded one).
func TestGrisuCachedPowers(t *testing.T) {
	for _, want := range []cachedPower{
		{0xAB70FE17C79AC6CA, -1060, -300},
		{0xD1B71758E219652C, -77, -4},
		{0x9C40000000000000, -50, 4},
		{0x813F3978F8940984, 30, 28},
		{0x9E19DB92B4E31BA9, 1013, 324},
	} {
		got := grisuCache[(want.k-grisuMinDecimal)/grisuDecimalStep]
		if got != want {
			t.Errorf("10^%d: got {%#x, %d, %d}, want {%#x, %d, %d}", want.k, got.f, got.e, got.k, want.f, want.e, want.k)
		}
	}
}

// Grisu2 always reads back exactly and is never shorter than the truly
// shortest form; for a few values it is longer (up to the 17 or 9 digits
// that always suffice).
func TestGrisuRoundTrips(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	differ := 0
	const n = 200000
	for i := range n {
		var f float64
		single := i%2 == 1
		if single {
			f = float64(math.Float32frombits(rng.Uint32()))
		} else {
			f = math.Float64frombits(rng.Uint64())
		}
		if f != f || math.IsInf(f, 0) || f == 0 {
			continue
		}
		bitSize := 64
		if single {
			bitSize = 32
		}
		s := string(appendGrisu(nil, f, single))
		back, err := strconv.ParseFloat(s, bitSize)
		if err != nil || back != f {
			t.Fatalf("%v (float32 %v): %s reads back as %v (%v)", f, single, s, back, err)
		}
		digits, _ := grisuDigits(nil, math.Abs(f), single)
		short := strconv.FormatFloat(math.Abs(f), 'e', -1, bitSize)
		shortDigits := indexByte(short, 'e')
		if shortDigits > 1 {
			shortDigits-- // the '.'
		}
		maxDigits := 17
		if single {
			maxDigits = 9
		}
		if len(digits) > maxDigits || len(digits) < shortDigits {
			t.Fatalf("%v: grisu %s has %d digits, shortest %s", f, digits, len(digits), short)
		}
		if len(digits) != shortDigits {
			differ++
		}
	}
	t.Logf("%d of %d values got more digits than the shortest form", differ, n)
}

func indexByte(s string, c byte) int {
	for i := range len(s) {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// BenchmarkFloatSpelling compares the two spellings with strconv's
// shortest form on the same values: typed decimals as scalars, random
// doubles, and float32 components.
func BenchmarkFloatSpelling(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	vals := make([]float64, 1024)
	for i := range vals {
		switch i % 3 {
		case 0:
			vals[i] = float64(rng.IntN(2_000_000)-1_000_000) / math.Pow10(rng.IntN(6))
		case 1:
			vals[i] = math.Float64frombits(rng.Uint64()&^(0x7ff<<52) | uint64(1023+rng.IntN(60)-30)<<52)
		default:
			vals[i] = float64(float32(rng.NormFloat64() * 1000))
		}
	}
	buf := make([]byte, 0, 64)
	b.Run("strconv-shortest", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			buf = strconv.AppendFloat(buf[:0], vals[i%len(vals)], 'g', -1, 64)
		}
	})
	for _, s := range []FloatStyle{FloatsShortest, FloatsSixDigits} {
		w := writer{floats: s}
		b.Run(s.String(), func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				buf = w.appendScalarFloat(buf[:0], vals[i%len(vals)])
			}
		})
	}
}
