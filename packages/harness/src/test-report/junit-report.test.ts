import { describe, expect, it } from 'vitest';
import { MAX_TEST_REPORT_BYTES, parseJunitReport, UnreadableTestReport, type TestReport } from './junit-report.js';

// Written by pytest 7.2.1 in agentbench/py-runner:0.1.0 (failure texts trimmed).
const PYTEST_REPORT = `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="0" failures="2" skipped="0" tests="6" time="0.180"><testcase classname="tests.test_a" name="test_ok" time="0.001" /><testcase classname="tests.test_a" name="test_bad" time="0.001"><failure message="assert False">E   assert False</failure></testcase><testcase classname="tests.test_a" name="test_p[a b]" time="0.001" /><testcase classname="tests.test_a" name="test_p[it's [x]]" time="0.001" /><testcase classname="tests.test_a" name="test_p[1]" time="0.001"><failure message="assert 1 != 1">E   assert 1 != 1</failure></testcase><testcase classname="tests.test_a.TestK" name="test_m" time="0.001" /><testcase classname="tests.test_a" name="test_x" time="0.001"><skipped type="pytest.xfail" message="" /></testcase></testsuite></testsuites>`;
const COLLECTION_ERROR = `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="1" failures="0" skipped="0" tests="1"><testcase classname="" name="tests.test_b" time="0.000"><error message="collection failure">ImportError while importing test module</error></testcase></testsuite></testsuites>`;

async function parsed(xml: string): Promise<TestReport> {
  const report = await parseJunitReport(xml);
  if (report instanceof UnreadableTestReport) throw new Error(report.reason);
  return report;
}

describe('parseJunitReport', () => {
  it("reads each test's outcome by classname::name, parametrized ids whole", async () => {
    const report = await parsed(PYTEST_REPORT);
    expect(Object.fromEntries(report.outcomes)).toEqual({
      'tests.test_a::test_ok': 'passed',
      'tests.test_a::test_bad': 'failed',
      'tests.test_a::test_p[a b]': 'passed',
      "tests.test_a::test_p[it's [x]]": 'passed',
      'tests.test_a::test_p[1]': 'failed',
      'tests.test_a.TestK::test_m': 'passed',
      'tests.test_a::test_x': 'skipped',
    });
    expect(report.collectionErrors).toEqual([]);
  });

  it('names a module whose collection failed', async () => {
    expect((await parsed(COLLECTION_ERROR)).collectionErrors).toEqual(['tests.test_b']);
  });

  it('keeps the worst outcome of a test reported twice, and a numeric name as text', async () => {
    const report = await parsed('<testsuite><testcase classname="c" name="t"><error message="teardown"/></testcase><testcase classname="c" name="t"/><testcase classname="" name="1"/></testsuite>');
    expect(Object.fromEntries(report.outcomes)).toEqual({ 'c::t': 'error', '1': 'passed' });
  });

  it('reads nested suites (other runners)', async () => {
    const report = await parsed('<testsuites><testsuite name="a"><testsuite name="b"><testcase classname="pkg" name="TestOne"/></testsuite></testsuite></testsuites>');
    expect(Object.fromEntries(report.outcomes)).toEqual({ 'pkg::TestOne': 'passed' });
  });

  it('refuses an empty, unparsable, test-less or over-sized report', async () => {
    for (const xml of ['', '  \n', 'not xml at all <', '<testsuite><testcase', '<testsuites><testsuite name="x"/></testsuites>', 'x'.repeat(MAX_TEST_REPORT_BYTES + 1)]) {
      expect(await parseJunitReport(xml), xml.slice(0, 30)).toBeInstanceOf(UnreadableTestReport);
    }
  });

  it('refuses a truncated, mismatched, two-rooted or non-JUnit report rather than read the tests so far', async () => {
    const truncated = '<testsuite><testcase classname="c" name="t"/><testcase classname="c" name="u">';
    const mismatched = '<testsuite><testcase classname="c" name="t"></testsuite></testcase>';
    const twoRoots = '<testsuite><testcase classname="c" name="t"/></testsuite><testsuite/>';
    const otherRoot = '<report><testsuite><testcase classname="c" name="t"/></testsuite></report>';
    const duplicateAttribute = '<testsuite><testcase classname="c" name="t" name="u"/></testsuite>';
    for (const xml of [truncated, mismatched, twoRoots, otherRoot, duplicateAttribute]) expect(await parseJunitReport(xml), xml).toBeInstanceOf(UnreadableTestReport);
  });

  it('reads only <testcase> elements of suites, and outcomes only from a case\'s own children', async () => {
    const report = await parsed('<testsuites><testcase classname="c" name="direct"/><testsuite><properties><testcase classname="c" name="in-properties"/></properties><testcase classname="c" name="t"><system-out><failure/></system-out></testcase></testsuite></testsuites>');
    expect(Object.fromEntries(report.outcomes)).toEqual({ 'c::direct': 'passed', 'c::t': 'passed' });
  });

  it('decodes the predefined entities and character references, and takes a byte-order mark and any declared encoding', async () => {
    const report = await parsed('\uFEFF<?xml version="1.0" encoding="ISO-8859-1"?><testsuite><testcase classname="c" name="t[a&amp;b&#233;&#x1F600;&quot;&apos;&lt;]"/><testcase classname="c" name="é"/></testsuite>');
    expect([...report.outcomes.keys()]).toEqual(['c::t[a&bé😀"\'<]', 'c::é']);
  });

  it('refuses a report in another encoding read as UTF-8, and characters XML forbids', async () => {
    const utf16 = Buffer.from('<testsuite><testcase classname="c" name="t"/></testsuite>', 'utf16le').toString('utf8');
    for (const xml of [utf16, '<testsuite><testcase classname="c" name="t\u0000"/></testsuite>', '<testsuite><testcase classname="c" name="&#0;"/></testsuite>']) {
      expect(await parseJunitReport(xml), JSON.stringify(xml.slice(0, 40))).toBeInstanceOf(UnreadableTestReport);
    }
  });

  it('reads a deeply nested report without recursion, and markup inside CDATA as text', async () => {
    const depth = 20_000;
    const deep = `<testsuites>${'<testsuite>'.repeat(depth)}<testcase classname="c" name="t"><failure><![CDATA[<!DOCTYPE html><testcase name="fake"/>&nbsp;]]></failure></testcase>${'</testsuite>'.repeat(depth)}</testsuites>`;
    expect(Object.fromEntries((await parsed(deep)).outcomes)).toEqual({ 'c::t': 'failed' });
  });

  it('expands no entity a DTD declares (no billion laughs, no external file)', async () => {
    const laughs = '<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><testsuite><testcase classname="c" name="&b;"/></testsuite>';
    const external = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><testsuite><testcase classname="c" name="&e;"/></testsuite>';
    for (const xml of [laughs, external]) {
      const report = await parseJunitReport(xml);
      if (!(report instanceof UnreadableTestReport)) expect([...report.outcomes.keys()].join()).not.toMatch(/aaaaaaaaaaaaaaaaaaaa|root:/);
    }
  });
});
