import type { ReportModel } from '../model/report-model.js';
import { escapeXml as escapeHtml } from '../format/escape-xml.js';

/**
 * The task-validity section of the HTML page (suite runs made with `--oracle-runs N`): per run
 * folder "K of M tasks valid", and per task its verdict, oracle passes and baseline failures out
 * of N. Flagged tasks come first. Empty when no folder has a `validity.json`.
 */
export function renderValiditySection(model: ReportModel, linkFor: (file: string) => string): string {
  const sources = model.sources.filter((source) => source.validity !== undefined);
  if (sources.length === 0) return '';
  const blocks = sources.map((source) => {
    const validity = source.validity as NonNullable<typeof source.validity>;
    const tasks = [...validity.tasks].sort((left, right) => Number(left.verdict === 'valid') - Number(right.verdict === 'valid') || left.task_id.localeCompare(right.task_id));
    const rows = tasks
      .map((task) => {
        const links = task.run_folders.map((folder) => `<a href="${escapeHtml(linkFor(`${source.dir}/${folder}`))}">${escapeHtml(folder.split('/').slice(-1)[0] ?? folder)}</a>`).join(' ');
        const isValid = task.verdict === 'valid';
        return `<tr data-testid="validity-row" data-verdict="${escapeHtml(task.verdict)}"><td><code>${escapeHtml(task.task_id)}</code></td><td class="${isValid ? 'pass' : 'fail'}">${escapeHtml(task.verdict.replaceAll('_', '-'))}</td><td>${task.has_oracle ? `${task.oracle_passes}/${task.runs}` : '–'}</td><td>${task.baseline_failures}/${task.runs}</td><td>${escapeHtml(task.message)}</td><td>${links}</td></tr>`;
      })
      .join('');
    return `<h3>${escapeHtml(source.label)}: ${validity.valid} of ${validity.total} tasks valid</h3>
<table><thead><tr><th>Task</th><th>Verdict</th><th>Oracle passed</th><th>Baseline failed</th><th>Why</th><th>Runs</th></tr></thead><tbody>${rows}</tbody></table>`;
  });
  return `<section id="validity" data-testid="validity"><h2>Task validity (oracle and baseline, ${sources.map((source) => source.validity?.oracle_runs).join(', ')} run(s) each)</h2>
<p>A task is valid when its baseline fails every time and its reference patch passes every time; the others are flagged.</p>
${blocks.join('\n')}</section>`;
}
