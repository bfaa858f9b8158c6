import type { ReportModel, ReportRow } from '../model/report-model.js';

import { summarizeGroup } from '../summary/summarize-report.js';
import { escapeXml } from '../format/escape-xml.js';

function seconds(value: number | null): string {
  return (value ?? 0).toFixed(3);
}

function testcaseName(row: ReportRow, rows: readonly ReportRow[]): string {
  const parts = [row.taskId];
  const label = row.model ?? row.variant;
  if (label !== null) parts.push(`[${label}]`);
  if (row.combination !== null) parts.push(`(${row.combination})`);
  const name = parts.join(' ');
  // Repeats of the same task and model get a number, so CI systems list each.
  const same = rows.filter((other) => other.taskId === row.taskId && (other.model ?? other.variant) === label && other.combination === row.combination);
  return same.length > 1 ? `${name} #${same.indexOf(row) + 1}` : name;
}

function testcase(row: ReportRow, rows: readonly ReportRow[]): string {
  const attributes = `name="${escapeXml(testcaseName(row, rows))}" classname="${escapeXml(row.suite ?? (row.kind === 'scenario' ? 'scenario' : 'task'))}" time="${seconds(row.durationSec)}"`;
  if (row.passed) return `    <testcase ${attributes}/>`;
  const reason = row.failureReason ?? 'UNCLASSIFIED';
  const message = row.detail.message ?? '';
  const body = [
    `failure reason: ${reason}`,
    ...(row.stopReason === null ? [] : [`stop reason: ${row.stopReason}`]),
    ...(message === '' ? [] : [message]),
    ...row.detail.errors.slice(0, 10),
    ...row.detail.evaluations.filter((evaluation) => !evaluation.success).map((evaluation) => `evaluation ${evaluation.type} failed: ${evaluation.error ?? evaluation.message}`),
    ...(row.folder === null ? [] : [`artifacts: ${row.folder}`]),
  ].join('\n');
  const element = row.status === 'errored' ? 'error' : 'failure';
  const summary = message === '' ? reason : `${reason}: ${message}`;
  return `    <testcase ${attributes}>\n      <${element} type="${escapeXml(reason)}" message="${escapeXml(summary.slice(0, 500))}">${escapeXml(body)}</${element}>\n    </testcase>`;
}

/**
 * JUnit XML: one `<testsuite>` per run folder, one `<testcase>` per attempt or scenario run;
 * a failure carries its failure reason as `type` and in its message, an infrastructure failure
 * is an `<error>`. Follows the Ant/Jenkins schema (see test/fixtures/junit/).
 */
export function renderJunitReport(model: ReportModel): string {
  const suites = model.sources.map((source) => {
    const rows = model.rows.filter((row) => row.sourceId === source.id);
    const failures = rows.filter((row) => row.status === 'failed').length;
    const errors = rows.filter((row) => row.status === 'errored').length;
    const time = rows.reduce((sum, row) => sum + (row.durationSec ?? 0), 0);
    const timestamp = source.run?.createdAt ?? rows[0]?.startedAt ?? model.generatedAt;
    const group = summarizeGroup(source.id, source.label, rows);
    const properties = [
      ['dir', source.dir],
      // Errored attempts are <error>s and not counted in the pass rate; the conservative rate counts them as failures.
      ['errored_not_counted', String(group.erroredNotCounted)],
      ['pass_rate', group.passRate.rate === null ? '' : group.passRate.rate.toFixed(4)],
      ['conservative_pass_rate', group.conservativePassRate.rate === null ? '' : group.conservativePassRate.rate.toFixed(4)],
      // Unknown, not $0: the models whose attempts report no cost.
      ...(group.costUnknownModels.length === 0 ? [] : [['cost_unknown_models', group.costUnknownModels.join(',')]]),
      ...(source.run === null ? [] : [['run_id', source.run.runId], ['run_kind', source.run.kind], ['run_status', source.run.status]]),
    ]
      .map(([name, value]) => `      <property name="${escapeXml(name as string)}" value="${escapeXml(value as string)}"/>`)
      .join('\n');
    return [
      `  <testsuite name="${escapeXml(source.label)}" tests="${rows.length}" failures="${failures}" errors="${errors}" skipped="0" time="${seconds(time)}" timestamp="${escapeXml(timestamp.replace(/Z$/, ''))}">`,
      '    <properties>',
      properties,
      '    </properties>',
      ...rows.map((row) => testcase(row, rows)),
      '  </testsuite>',
    ].join('\n');
  });
  const total = model.rows.length;
  const failures = model.rows.filter((row) => row.status === 'failed').length;
  const errors = model.rows.filter((row) => row.status === 'errored').length;
  const time = model.rows.reduce((sum, row) => sum + (row.durationSec ?? 0), 0);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="agentbench" tests="${total}" failures="${failures}" errors="${errors}" time="${seconds(time)}">\n${suites.join('\n')}\n</testsuites>\n`;
}
