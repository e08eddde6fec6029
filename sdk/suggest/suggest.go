// Package suggest finds the name a caller probably meant: the "did you
// mean" of every refusal of a class, property, setting, tool, node path or
// file name. Names are compared by edit distance (Levenshtein, in runes).
//
//	suggest.Closest("Sprit2D", []string{"Sprite2D", "Node2D"}) // "Sprite2D"
package suggest

// Distance is the edit distance between a and b in runes: how many
// insertions, deletions and substitutions turn one into the other. It gives
// up early and returns a value above bound once every path exceeds bound,
// which keeps a scan of a thousand names cheap.
func Distance(a, b string, bound int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > bound || -d > bound {
		return bound + 1
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > bound {
			return bound + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Closest returns the candidate nearest to s when it is near enough to be
// a likely typo (fewer edits than a third of s's length, plus one), else
// "". Of equally near candidates the first in byte order wins, so the
// answer does not depend on the candidates' order.
func Closest(s string, candidates []string) string {
	best, bestD := "", len([]rune(s))/3+1
	for _, c := range candidates {
		if d := Distance(s, c, bestD); d < bestD || (d == bestD && best != "" && c < best) {
			best, bestD = c, d
		}
	}
	return best
}
