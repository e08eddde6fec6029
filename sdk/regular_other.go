//go:build !unix

package sdk

import (
	"io/fs"
	"os"
)

// OpenRegular opens abs for reading if it is a regular file, and answers
// its FileInfo; anything else is a *NotRegularError.
func OpenRegular(abs string) (*os.File, fs.FileInfo, error) {
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, NotRegular(fi.Mode())
	}
	f, err := os.Open(abs)
	if err != nil {
		return nil, nil, err
	}
	if fi, err = f.Stat(); err == nil && !fi.Mode().IsRegular() {
		err = NotRegular(fi.Mode())
	}
	if err != nil {
		_ = f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}
