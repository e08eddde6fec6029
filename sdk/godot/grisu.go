package godot

// The digits of FloatsShortest: Grisu2 (Loitsch, "Printing Floating-Point
// Numbers Quickly and Accurately with Integers", PLDI 2010), the algorithm
// Godot 4.5 and later use in String::num_scientific. Grisu2 finds the
// shortest digits inside a rounding interval narrowed by one unit of its
// 64-bit arithmetic on each side, so for about one value in five hundred
// it gives a digit more, or a different last digit, than the truly
// shortest form strconv produces. Both read back as the same number; this
// implementation reproduces the engine's choice so that an edited file is
// byte-identical to what the editor writes (tested against the engine in
// internal/enginecheck).

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"
)

// diyFp is f × 2^e.
type diyFp struct {
	f uint64
	e int
}

// mul returns x × y rounded to 64 bits (ties up).
func (x diyFp) mul(y diyFp) diyFp {
	hi, lo := bits.Mul64(x.f, y.f)
	hi += lo >> 63
	return diyFp{hi, x.e + y.e + 64}
}

func (x diyFp) normalize() diyFp {
	s := bits.LeadingZeros64(x.f)
	return diyFp{x.f << s, x.e - s}
}

// Grisu's scaling keeps the binary exponent of the scaled value in
// [grisuAlpha, grisuGamma], so the integral part fits 32 bits and the
// fraction can be multiplied by 10 without overflow.
const (
	grisuAlpha       = -60
	grisuMinDecimal  = -300 // decimal exponent of the first cached power
	grisuDecimalStep = 8    // between cached powers
	grisuPowers      = 79
)

// cachedPower is c = f × 2^e ≈ 10^k, f normalised and rounded to nearest.
type cachedPower struct {
	f uint64
	e int
	k int
}

var grisuCache = func() [grisuPowers]cachedPower {
	var out [grisuPowers]cachedPower
	ten := big.NewInt(10)
	for i := range out {
		k := grisuMinDecimal + i*grisuDecimalStep
		// 10^k as the fraction num/den.
		num, den := big.NewInt(1), big.NewInt(1)
		if k >= 0 {
			num.Exp(ten, big.NewInt(int64(k)), nil)
		} else {
			den.Exp(ten, big.NewInt(int64(-k)), nil)
		}
		// The scale 2^s that puts the quotient in [2^63, 2^64), then the
		// quotient rounded to nearest.
		s := 63 - (num.BitLen() - den.BitLen())
		quo, rem, d := scaledQuotient(num, den, s)
		for quo.BitLen() != 64 {
			if quo.BitLen() > 64 {
				s--
			} else {
				s++
			}
			quo, rem, d = scaledQuotient(num, den, s)
		}
		if rem.Lsh(rem, 1).Cmp(d) >= 0 {
			quo.Add(quo, big.NewInt(1))
			if quo.BitLen() > 64 { // rounded up to 2^64
				quo.Rsh(quo, 1)
				s--
			}
		}
		out[i] = cachedPower{f: quo.Uint64(), e: -s, k: k}
	}
	return out
}()

// scaledQuotient divides num × 2^s by den, returning the quotient, the
// remainder and the divisor used.
func scaledQuotient(num, den *big.Int, s int) (quo, rem, d *big.Int) {
	n, d := new(big.Int).Set(num), new(big.Int).Set(den)
	if s >= 0 {
		n.Lsh(n, uint(s))
	} else {
		d.Lsh(d, uint(-s))
	}
	quo, rem = new(big.Int).QuoRem(n, d, new(big.Int))
	return quo, rem, d
}

// cachedPowerFor returns the cached power c for which w × c has a binary
// exponent in [alpha, gamma], for a normalised w with exponent e.
func cachedPowerFor(e int) cachedPower {
	f := grisuAlpha - e - 1
	k := f * 78913 / (1 << 18) // ceil(f × log10(2)) for |f| <= 1500
	if f > 0 {
		k++
	}
	return grisuCache[(-grisuMinDecimal+k+grisuDecimalStep-1)/grisuDecimalStep]
}

// grisuDigits returns the digits and decimal exponent (value = digits ×
// 10^exp) Grisu2 gives for the positive finite v, computed as a float32
// when single is set (v must then be a float32 value).
func grisuDigits(buf []byte, v float64, single bool) ([]byte, int) {
	var mant uint64
	var prec, bias int
	if single {
		mant, prec, bias = uint64(math.Float32bits(float32(v))), 24, 150
	} else {
		mant, prec, bias = math.Float64bits(v), 53, 1075
	}
	hidden := uint64(1) << (prec - 1)
	biased := mant >> (prec - 1)
	frac := mant & (hidden - 1)
	w := diyFp{frac + hidden, int(biased) - bias}
	if biased == 0 { // subnormal
		w = diyFp{frac, 1 - bias}
	}
	// The boundaries half way to the neighbouring floats; the lower one is
	// closer when v is a power of two above the smallest normal.
	plus := diyFp{2*w.f + 1, w.e - 1}.normalize()
	minus := diyFp{2*w.f - 1, w.e - 1}
	if frac == 0 && biased > 1 {
		minus = diyFp{4*w.f - 1, w.e - 2}
	}
	minus = diyFp{minus.f << (minus.e - plus.e), plus.e}
	w = w.normalize()

	c := cachedPowerFor(plus.e)
	cp := diyFp{c.f, c.e}
	sw, sMinus, sPlus := w.mul(cp), minus.mul(cp), plus.mul(cp)
	// One unit of error on each side: every number in [lo, hi] reads back
	// as v.
	lo, hi := diyFp{sMinus.f + 1, sMinus.e}, diyFp{sPlus.f - 1, sPlus.e}
	return grisuGenerate(buf, -c.k, lo, sw, hi)
}

// grisuGenerate produces the digits of hi from the left and stops as soon
// as the number is inside [lo, hi], then moves the last digit towards w.
func grisuGenerate(buf []byte, exp int, lo, w, hi diyFp) ([]byte, int) {
	delta := hi.f - lo.f
	dist := hi.f - w.f
	shift := uint(-hi.e)
	one := uint64(1) << shift
	p1 := uint32(hi.f >> shift)
	p2 := hi.f & (one - 1)

	n, pow10 := 10, uint32(1_000_000_000)
	for n > 1 && p1 < pow10 {
		n--
		pow10 /= 10
	}
	for n > 0 {
		d, r := p1/pow10, p1%pow10
		buf = append(buf, byte('0'+d))
		p1 = r
		n--
		rest := uint64(p1)<<shift + p2
		if rest <= delta {
			grisuRound(buf, dist, delta, rest, uint64(pow10)<<shift)
			return buf, exp + n
		}
		pow10 /= 10
	}
	m := 0
	for {
		p2 *= 10
		buf = append(buf, byte('0'+p2>>shift))
		p2 &= one - 1
		m++
		delta *= 10
		dist *= 10
		if p2 <= delta {
			break
		}
	}
	grisuRound(buf, dist, delta, p2, one)
	return buf, exp - m
}

// grisuRound lowers the last digit while that brings the number closer to
// w and keeps it in the interval.
func grisuRound(buf []byte, dist, delta, rest, ulp uint64) {
	for rest < dist && delta-rest >= ulp && (rest+ulp < dist || dist-rest > rest+ulp-dist) {
		buf[len(buf)-1]--
		rest += ulp
	}
}

// appendGrisu writes the finite, non-zero f as num_scientific does:
// fixed notation when the decimal point falls within 15 digits to the
// left or 4 zeros to the right of the first digit, else d.ddde±XX.
func appendGrisu(dst []byte, f float64, single bool) []byte {
	if f < 0 {
		dst = append(dst, '-')
		f = -f
	}
	var tmp [24]byte
	digits, exp := grisuDigits(tmp[:0], f, single)
	k := len(digits)
	n := k + exp // position of the decimal point from the first digit
	switch {
	case k <= n && n <= 15:
		dst = append(dst, digits...)
		for range n - k {
			dst = append(dst, '0')
		}
	case 0 < n && n <= 15:
		dst = append(dst, digits[:n]...)
		dst = append(dst, '.')
		dst = append(dst, digits[n:]...)
	case -4 < n && n <= 0:
		dst = append(dst, '0', '.')
		for range -n {
			dst = append(dst, '0')
		}
		dst = append(dst, digits...)
	default:
		dst = append(dst, digits[0])
		if k > 1 {
			dst = append(dst, '.')
			dst = append(dst, digits[1:]...)
		}
		e := n - 1
		dst = append(dst, 'e')
		if e < 0 {
			dst = append(dst, '-')
			e = -e
		} else {
			dst = append(dst, '+')
		}
		if e < 10 {
			dst = append(dst, '0')
		}
		dst = strconv.AppendInt(dst, int64(e), 10)
	}
	return dst
}
