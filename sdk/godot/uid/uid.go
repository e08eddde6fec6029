// Package uid converts Godot resource UIDs between their text form
// ("uid://cecaux1sm7mo0") and the 63-bit integer the engine stores
// (ResourceUID::ID).
//
// Godot 4 gives every resource a UID so references survive renames and
// moves. Text resources carry it in their header and on each ext_resource
// (uid="uid://..."), imported assets in their .import file, and scripts and
// shaders in a ".uid" sidecar. The text form is "uid://" followed by base-34
// digits, most significant first.
//
// # Reading and writing
//
//	id, err := uid.Parse("uid://cecaux1sm7mo0")
//	if err != nil {
//		return err // says what was wrong and what a UID looks like
//	}
//	fmt.Println(int64(id)) // the engine's integer
//	fmt.Println(id)        // uid://cecaux1sm7mo0
//
//	fresh := uid.New() // a new random UID, as the editor makes them
//
// # The alphabet quirk
//
// The engine writes digits 0..24 as 'a'..'y' and 25..33 as '0'..'8', so
// 'z' and '9' never appear in text it produces. Its reader, however, maps
// every lowercase letter to c-'a' and every decimal digit to c-'0'+25, which
// makes 'z' an alias of '0' and '9' an out-of-range digit 34. The mismatch is
// an old off-by-one kept for compatibility (godotengine/godot#83843). Parse
// reproduces the reader exactly, so text containing 'z' or '9' yields the
// same integer the engine would load; String never emits either character.
// Such text therefore does not survive a round trip through the integer:
// keep the original text if byte-exact output matters.
package uid

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// ID is a resource UID as the engine stores it. Valid IDs are non-negative;
// Invalid (-1) marks a missing or unreadable UID.
type ID int64

// Invalid is the engine's ResourceUID::INVALID_ID. Its text form is
// "uid://<invalid>".
const Invalid ID = -1

// Max is the largest valid ID. The engine masks every UID to 63 bits so it
// fits a non-negative int64.
const Max ID = 1<<63 - 1

// Prefix starts every UID in text form.
const Prefix = "uid://"

// InvalidText is the text form of Invalid, written by the engine for
// resources whose UID is unknown.
const InvalidText = Prefix + "<invalid>"

// MaxDigits is the longest digit string String produces: 34^13 is the
// smallest power of 34 above 2^63.
const MaxDigits = 13

const (
	base = 34
	// letters is how many digit values are spelled with a letter ('a'..'y');
	// the rest are spelled '0'..'8'.
	letters = 25
	mask    = 1<<63 - 1
)

// Valid reports whether id is a real UID, that is, not Invalid or any other
// negative value.
func (id ID) Valid() bool { return id >= 0 }

// String returns the text form of id: "uid://" and base-34 digits without
// 'z' or '9', or InvalidText when id is negative.
func (id ID) String() string { return Format(id) }

// Format returns the text form of id, exactly as the engine writes it (see
// ID.String).
func Format(id ID) string {
	if id < 0 {
		return InvalidText
	}
	var buf [len(Prefix) + MaxDigits]byte
	i := len(buf)
	v := uint64(id)
	// do-while: zero still needs one digit ("uid://a").
	for {
		d := byte(v % base)
		i--
		if d < letters {
			buf[i] = 'a' + d
		} else {
			buf[i] = '0' + d - letters
		}
		v /= base
		if v == 0 {
			break
		}
	}
	i -= len(Prefix)
	copy(buf[i:], Prefix)
	return string(buf[i:])
}

// ParseError describes text that is not a UID. Parse returns it unwrapped;
// use errors.As to reach the offending text and offset.
type ParseError struct {
	Text   string // the input, verbatim
	Offset int    // byte offset of the problem within Text
	Reason string // what was wrong
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("uid: %q: %s; expected %q followed by base-34 digits a-y and 0-8 (or %q)",
		e.Text, e.Reason, Prefix, InvalidText)
}

// Parse converts the text form of a UID to its integer, accepting exactly
// what the engine's ResourceUID::text_to_id accepts and computing the same
// value:
//
//   - "uid://<invalid>" is Invalid with a nil error;
//   - digits are lowercase ASCII letters and decimal digits, including the
//     'z' and '9' the engine never writes (see the package doc);
//   - any number of digits, even none, is read; the value wraps in 64 bits
//     and is then masked to 63, so the result is never negative.
//
// Text without the "uid://" prefix or with any other character is rejected
// with a *ParseError, and the ID is Invalid (the engine silently loads such
// text as INVALID_ID; here the caller learns why).
func Parse(text string) (ID, error) {
	if text == InvalidText {
		return Invalid, nil
	}
	digits, ok := strings.CutPrefix(text, Prefix)
	if !ok {
		return Invalid, &ParseError{Text: text, Reason: "missing the " + Prefix + " prefix"}
	}
	var v uint64
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		v *= base
		switch {
		case c >= 'a' && c <= 'z':
			v += uint64(c - 'a')
		case c >= '0' && c <= '9':
			v += uint64(c-'0') + letters
		default:
			// Name the whole character, not its first byte, so a stray
			// non-ASCII letter reads as itself in the message.
			r, _ := utf8.DecodeRuneInString(digits[i:])
			return Invalid, &ParseError{
				Text:   text,
				Offset: len(Prefix) + i,
				Reason: fmt.Sprintf("invalid character %q at offset %d", r, len(Prefix)+i),
			}
		}
	}
	return ID(v & mask), nil
}

// MustParse is Parse for constants known to be valid; it panics on error.
func MustParse(text string) ID {
	id, err := Parse(text)
	if err != nil {
		panic(err)
	}
	return id
}

// IsCanonical reports whether text is exactly what String writes for the ID
// it parses to. Text the engine reads but would never write (a 'z' or '9',
// a leading 'a', more than 13 digits, an empty digit string) is not
// canonical. InvalidText is canonical.
func IsCanonical(text string) bool {
	id, err := Parse(text)
	return err == nil && Format(id) == text
}

// MarshalText implements encoding.TextMarshaler using the text form.
func (id ID) MarshalText() ([]byte, error) { return []byte(Format(id)), nil }

// UnmarshalText implements encoding.TextUnmarshaler using Parse.
func (id *ID) UnmarshalText(text []byte) error {
	v, err := Parse(string(text))
	if err != nil {
		return err
	}
	*id = v
	return nil
}

// Generate makes a fresh UID the way the editor does: 8 random bytes
// masked to 63 bits. It reads exactly 8 bytes from r and fails only if r
// does. A deterministic r gives deterministic UIDs, which tests rely on.
func Generate(r io.Reader) (ID, error) {
	var b [8]byte
	if _, err := io.ReadFull(r, b[:]); err != nil {
		return Invalid, fmt.Errorf("uid: reading 8 random bytes: %w", err)
	}
	return ID(binary.LittleEndian.Uint64(b[:]) & mask), nil
}

// New returns a fresh random UID from crypto/rand. The chance that it
// collides with an existing UID in a project is negligible (63 random bits),
// and the engine takes the same chance.
func New() ID {
	// crypto/rand.Reader never fails; on a broken system it aborts the
	// program instead of returning an error.
	id, err := Generate(rand.Reader)
	if err != nil {
		panic(err)
	}
	return id
}
