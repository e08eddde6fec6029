package main

import (
	"encoding/xml"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// gdUnit4 writes a JUnit report (results.xml in a report_N folder of the
// report directory, -rd): a testsuite per suite with package = its res://
// path, a testcase per test, and under a test its reports as failure,
// error or skipped elements whose message is "FAILED: res://file:line"
// (line -1 when the engine reported none, as a release build does).

type junitReport struct {
	Suites []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name    string      `xml:"name,attr"`
	Package string      `xml:"package,attr"`
	Cases   []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Failures  []junitDetail `xml:"failure"`
	Errors    []junitDetail `xml:"error"`
	Skipped   []junitDetail `xml:"skipped"`
}

type junitDetail struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

var junitWhereRE = regexp.MustCompile(`^(?:FAILED|ERROR|SKIPPED): (res://\S+?):(-?\d+)$`)

// ParseJUnit reads a gdUnit4 JUnit report.
func ParseJUnit(b []byte) ([]TestCase, error) {
	var r junitReport
	if err := xml.Unmarshal(b, &r); err != nil {
		return nil, err
	}
	tests := []TestCase{}
	for _, s := range r.Suites {
		suite := suitePath(s)
		for _, c := range s.Cases {
			if len(tests) >= maxTests {
				return tests, nil
			}
			tc := TestCase{Suite: suite, Name: c.Name, Status: "passed"}
			var d *junitDetail
			switch {
			case len(c.Failures) > 0:
				tc.Status, d = "failed", &c.Failures[0]
			case len(c.Errors) > 0:
				tc.Status, d = "error", &c.Errors[0]
			case len(c.Skipped) > 0:
				tc.Status, d = "skipped", &c.Skipped[0]
			}
			if d != nil {
				tc.Message = strings.TrimSpace(d.Text)
				if m := junitWhereRE.FindStringSubmatch(strings.TrimSpace(d.Message)); m != nil {
					if n, _ := strconv.Atoi(m[2]); n > 0 {
						tc.Location, tc.LineOf = m[1]+":"+m[2], "assert"
					}
				}
			}
			tests = append(tests, tc)
		}
	}
	return tests, nil
}

// suitePath is a suite's res:// script. gdUnit4 6.1 writes the suite's
// folder without res:// as package and the script's base name as name
// ("test", "test_calc"); a report's message names the script itself.
func suitePath(s junitSuite) string {
	for _, c := range s.Cases {
		for _, d := range [][]junitDetail{c.Failures, c.Errors, c.Skipped} {
			for _, x := range d {
				if m := junitWhereRE.FindStringSubmatch(strings.TrimSpace(x.Message)); m != nil {
					return m[1]
				}
			}
		}
	}
	switch {
	case strings.HasPrefix(s.Package, "res://"):
		return s.Package
	case s.Name == "":
		return s.Package
	case s.Package == "":
		return "res://" + s.Name + ".gd"
	}
	return "res://" + strings.TrimSuffix(s.Package, "/") + "/" + s.Name + ".gd"
}

// readJUnitDir reads the results.xml gdUnit4 wrote under dir.
func readJUnitDir(dir string) ([]TestCase, bool) {
	var found string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == "results.xml" {
			found = p
		}
		return nil
	})
	if found == "" {
		return nil, false
	}
	b, err := os.ReadFile(found)
	if err != nil {
		return nil, false
	}
	tests, err := ParseJUnit(b)
	return tests, err == nil
}
