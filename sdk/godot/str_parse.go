package godot

import (
	"strconv"
	"strings"
)

// strShape is how many numbers the str() text of a type holds (per element
// for packed arrays), for the types whose ToJSON is that text or whose
// str() an agent may copy from a result: "(1, 2)", "[X: (1, 0), Y: (0,
// 1), O: (5, 6)]", "[(1, 2), (3, 4)]".
var strShape = map[string]int{
	"Vector2": 2, "Vector2i": 2, "Vector3": 3, "Vector3i": 3, "Vector4": 4, "Vector4i": 4,
	"Quaternion": 4, "Color": 4, "Rect2": 4, "Rect2i": 4, "AABB": 6, "Plane": 4,
	"Transform2D": 6, "Basis": 9, "Transform3D": 12,
	"PackedVector2Array": 2, "PackedVector3Array": 3, "PackedVector4Array": 4, "PackedColorArray": 4,
	"PackedByteArray": 1,
}

// fromStr reads the text Godot's str() prints (what ToJSON gives for the
// types the addon leaves to JSON.stringify), so a value read from a result
// can be passed back as it is. ok is false when s is not such text.
func fromStr(s, typ string) (Value, bool, error) {
	n, known := strShape[typ]
	if !known || s == "" || s[0] != '(' && s[0] != '[' {
		return nil, false, nil
	}
	body := s
	for _, label := range []string{"X:", "Y:", "Z:", "O:", "P:", "S:", "N:", "D:"} {
		body = strings.ReplaceAll(body, label, "")
	}
	body = strings.NewReplacer("(", " ", ")", " ", "[", " ", "]", " ").Replace(body)
	var nums []any
	for _, f := range strings.Split(body, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		x, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return nil, true, refuse(s, typ, "not the text str() prints for a "+typ)
		}
		nums = append(nums, x)
	}
	if strings.HasPrefix(typ, "Packed") {
		if len(nums)%n != 0 {
			return nil, true, refuse(s, typ, "its numbers do not make whole elements")
		}
		items := make([]any, 0, len(nums)/n)
		for i := 0; i < len(nums); i += n {
			if n == 1 {
				items = append(items, nums[i])
			} else {
				items = append(items, nums[i:i+n])
			}
		}
		v, err := FromJSON(items, typ)
		return v, true, err
	}
	if len(nums) != n {
		return nil, true, refuse(s, typ, strconv.Itoa(len(nums))+" numbers; the text of a "+typ+" has "+strconv.Itoa(n))
	}
	switch typ {
	case "Basis", "Transform3D":
		// str() prints the axes (columns); the flat form is the rows.
		rows := []any{nums[0], nums[3], nums[6], nums[1], nums[4], nums[7], nums[2], nums[5], nums[8]}
		nums = append(rows, nums[9:]...)
	}
	v, err := FromJSON(nums, typ)
	return v, true, err
}
