package main

import (
	"reflect"
	"testing"
)

// junit.xml is laid out as gdUnit4 6.1's JUnitXmlReportWriter writes it:
// the suite's res:// path in package, one failure element per failed
// assert with "FAILED: res://file:line" as its message.
const junitXML = `<?xml version="1.0" encoding="UTF-8" ?>
<testsuites id="2026-12-03T10:00:00" name="report_1" tests="3" failures="1" skipped="1" flaky="0" time="0.120">
	<testsuite id="0" name="test_calc" package="res://test/test_calc.gd" timestamp="2026-12-03T10:00:00" hostname="localhost" tests="3" failures="1" errors="0" skipped="1" flaky="0" time="0.120">
		<testcase name="test_ok" classname="test_calc" time="0.010">
		</testcase>
		<testcase name="test_bad" classname="test_calc" time="0.020">
			<failure message="FAILED: res://test/test_calc.gd:8" type="FAILURE">
Expecting:
 '5'
 but was
 '4'
			</failure>
		</testcase>
		<testcase name="test_skipped" classname="test_calc" time="0.000">
			<skipped message="SKIPPED: res://test/test_calc.gd:10">skipped by test</skipped>
		</testcase>
	</testsuite>
</testsuites>
`

func TestParseJUnit(t *testing.T) {
	got, err := ParseJUnit([]byte(junitXML))
	if err != nil {
		t.Fatal(err)
	}
	want := []TestCase{
		{Suite: "res://test/test_calc.gd", Name: "test_ok", Status: "passed"},
		{Suite: "res://test/test_calc.gd", Name: "test_bad", Status: "failed", Message: "Expecting:\n '5'\n but was\n '4'", Location: "res://test/test_calc.gd:8", LineOf: "assert"},
		{Suite: "res://test/test_calc.gd", Name: "test_skipped", Status: "skipped", Message: "skipped by test", Location: "res://test/test_calc.gd:10", LineOf: "assert"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
	if _, err := ParseJUnit([]byte("<testsuites><testsuite>")); err == nil {
		t.Error("a broken report parsed")
	}
}

// junitWeb is the report gdUnit4 6.1 wrote in the web runtime (Godot 4.6
// release) for gdunitSuite: package is the suite's folder without res://,
// name its base name, and the failure's line -1 (a release build has no
// script stack).
const junitWeb = `<?xml version="1.0" encoding="UTF-8" ?>
<testsuites id="2026-12-03" name="report_1" tests="2" failures="1" skipped="0" flaky="0" time="0.000">
	<testsuite id="0" name="test_calc" package="test" timestamp="2026-12-03T14:15:22" hostname="localhost" tests="2" failures="1" errors="0" skipped="0" flaky="0" time="2.372">
		<testcase name="test_ok" classname="test_calc" time="0.984">
		</testcase>
		<testcase name="test_bad" classname="test_calc" time="0.700">
			<failure message="FAILED: res://test/test_calc.gd:-1" type="FAILURE">
<![CDATA[
Expecting:
 '5'
 but was
 '4'
]]>
			</failure>
		</testcase>
	</testsuite>
</testsuites>
`

func TestParseJUnitWeb(t *testing.T) {
	got, err := ParseJUnit([]byte(junitWeb))
	if err != nil {
		t.Fatal(err)
	}
	want := []TestCase{
		{Suite: "res://test/test_calc.gd", Name: "test_ok", Status: "passed"},
		{Suite: "res://test/test_calc.gd", Name: "test_bad", Status: "failed", Message: "Expecting:\n '5'\n but was\n '4'"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
	// Without a report naming the script: folder and name.
	if p := suitePath(junitSuite{Name: "test_x", Package: "tests/unit"}); p != "res://tests/unit/test_x.gd" {
		t.Errorf("suite path %q", p)
	}
}

// GUT's per-test lines as GUT 9 prints them in a debug build (the assert
// line after the failure) and in a release build ("at line -1").
func TestParseGUTTests(t *testing.T) {
	out := "res://test/test_a.gd\n* test_one\n* test_two\n    [Failed]:  [1] expected to equal [2]:  \n      at line 9\n" +
		"res://test/test_a.gd.Inner\n* test_three\n    [Failed]:  boom\n      at line -1\n* test_four\n    [Risky]:  Did not assert\n" +
		"= Run Summary\nres://test/test_a.gd\n- test_two\n"
	got := ParseGUTTests(out)
	want := []TestCase{
		{Suite: "res://test/test_a.gd", Name: "test_one", Status: "passed"},
		{Suite: "res://test/test_a.gd", Name: "test_two", Status: "failed", Message: "[1] expected to equal [2]:", Location: "res://test/test_a.gd:9", LineOf: "assert"},
		{Suite: "res://test/test_a.gd.Inner", Name: "test_three", Status: "failed", Message: "boom"},
		{Suite: "res://test/test_a.gd.Inner", Name: "test_four", Status: "passed", Message: "Did not assert"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
	lines := []string{"extends GutTest", "func test_one():", "\tpass", "class Inner:", "\textends GutTest", "\tfunc test_three():", "\t\tpass"}
	if n := funcLine(lines, "Inner", "test_three"); n != 6 {
		t.Errorf("inner func line %d", n)
	}
	if n := funcLine(lines, "", "test_three"); n != 0 {
		t.Errorf("outer lookup found an inner func at %d", n)
	}
}
