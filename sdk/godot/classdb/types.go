package classdb

import "strings"

// Prefixes the dump puts on type spellings that carry extra information.
const (
	TypedArrayPrefix      = "typedarray::"
	TypedDictionaryPrefix = "typeddictionary::"
	EnumPrefix            = "enum::"
	BitfieldPrefix        = "bitfield::"
)

func isEnumType(t string) bool {
	return strings.HasPrefix(t, EnumPrefix) || strings.HasPrefix(t, BitfieldPrefix)
}

func trimEnumPrefix(t string) string {
	if s, ok := strings.CutPrefix(t, EnumPrefix); ok {
		return s
	}
	s, _ := strings.CutPrefix(t, BitfieldPrefix)
	return s
}

// NormalizeType removes the inspector hint the dump sometimes leaves in
// typed container spellings: "typedarray::24/17:Font" becomes
// "typedarray::Font" (godotengine/godot#70736). The hint is a
// "<type>/<hint>:" prefix of the element type. Other spellings are returned
// unchanged.
func NormalizeType(t string) string {
	if elem, ok := strings.CutPrefix(t, TypedArrayPrefix); ok {
		return TypedArrayPrefix + stripHint(elem)
	}
	if kv, ok := strings.CutPrefix(t, TypedDictionaryPrefix); ok {
		k, v, found := strings.Cut(kv, ";")
		if !found {
			return t
		}
		return TypedDictionaryPrefix + stripHint(k) + ";" + stripHint(v)
	}
	return t
}

// stripHint removes a leading "<digits>/<digits>:" from s.
func stripHint(s string) string {
	i := digits(s, 0)
	if i == 0 || i >= len(s) || s[i] != '/' {
		return s
	}
	j := digits(s, i+1)
	if j == i+1 || j >= len(s) || s[j] != ':' {
		return s
	}
	return s[j+1:]
}

// digits returns the index after the run of ASCII digits starting at i.
func digits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// TSCNType converts a type as the dump spells it to the spelling .tscn
// and GDScript use: "typedarray::T" becomes "Array[T]" and
// "typeddictionary::K;V" becomes "Dictionary[K, V]", after NormalizeType.
// Any other spelling is returned unchanged.
func TSCNType(jsonType string) string {
	t := NormalizeType(jsonType)
	if elem, ok := strings.CutPrefix(t, TypedArrayPrefix); ok {
		return "Array[" + elem + "]"
	}
	if kv, ok := strings.CutPrefix(t, TypedDictionaryPrefix); ok {
		if k, v, found := strings.Cut(kv, ";"); found {
			return "Dictionary[" + k + ", " + v + "]"
		}
	}
	return t
}

// JSONType is the inverse of TSCNType: "Array[T]" becomes "typedarray::T"
// and "Dictionary[K, V]" becomes "typeddictionary::K;V". Any other
// spelling, including a plain "Array", is returned unchanged.
func JSONType(tscnType string) string {
	if inner, ok := cutBrackets(tscnType, "Array"); ok && inner != "" {
		return TypedArrayPrefix + inner
	}
	if inner, ok := cutBrackets(tscnType, "Dictionary"); ok {
		if k, v, found := strings.Cut(inner, ","); found {
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			if k != "" && v != "" {
				return TypedDictionaryPrefix + k + ";" + v
			}
		}
	}
	return tscnType
}

// cutBrackets returns the trimmed text between "name[" and a final "]".
func cutBrackets(s, name string) (string, bool) {
	rest, ok := strings.CutPrefix(s, name+"[")
	if !ok {
		return "", false
	}
	inner, ok := strings.CutSuffix(rest, "]")
	return strings.TrimSpace(inner), ok
}
