//go:build !unix

package workspace

import (
	"io/fs"
	"os"
)

// openRegular opens abs for reading if it is a regular file.
func openRegular(abs string) (*os.File, fs.FileInfo, error) {
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, notRegular(fi.Mode())
	}
	f, err := os.Open(abs)
	if err != nil {
		return nil, nil, err
	}
	if fi, err = f.Stat(); err == nil && !fi.Mode().IsRegular() {
		err = notRegular(fi.Mode())
	}
	if err != nil {
		_ = f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}
