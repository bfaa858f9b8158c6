/** The report page's styles: inline, no web fonts, no network. */
export const REPORT_STYLES = `
:root { --pass: #1a7f37; --fail: #cf222e; --error: #9a6700; --muted: #57606a; --line: #d0d7de; --soft: #f6f8fa; --accent: #0969da; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; color: #1f2328; background: #fff; }
header { padding: 16px 24px; border-bottom: 1px solid var(--line); background: var(--soft); }
header h1 { margin: 0 0 4px; font-size: 20px; }
header .meta { color: var(--muted); }
main { padding: 16px 24px 48px; }
section { margin-bottom: 28px; }
h2 { font-size: 16px; margin: 0 0 10px; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; min-width: 220px; background: #fff; }
.card .big { font-size: 22px; font-weight: 600; }
.card .small { color: var(--muted); font-size: 12px; }
.baseline-note { margin: 8px 0 0; color: var(--muted); }
.charts { display: flex; flex-wrap: wrap; gap: 24px; }
.chart { max-width: 100%; height: auto; }
.chart-title { font-weight: 600; font-size: 13px; }
.chart-label, .chart-value { font-size: 12px; fill: #1f2328; }
.chart-note { font-size: 11px; fill: var(--muted); }
.chart-track { fill: var(--soft); stroke: var(--line); }
.chart-bar-pass { fill: var(--pass); }
.chart-bar-fail { fill: var(--fail); }
.chart-whisker { stroke: #1f2328; stroke-width: 1.5; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid var(--line); padding: 5px 8px; text-align: left; vertical-align: top; }
th { background: var(--soft); position: sticky; top: 0; z-index: 1; white-space: nowrap; }
th[data-sort] { cursor: pointer; user-select: none; }
th[aria-sort="ascending"]::after { content: " ▲"; }
th[aria-sort="descending"]::after { content: " ▼"; }
td.number { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.attempt-row { cursor: pointer; }
tr.attempt-row:hover { background: #f3f8ff; }
tr.attempt-row.expanded { background: #eef4ff; }
.status { font-weight: 600; }
.status-passed { color: var(--pass); }
.status-failed { color: var(--fail); }
.status-errored { color: var(--error); }
.filters { display: flex; flex-wrap: wrap; gap: 10px; align-items: center; margin-bottom: 10px; }
.filters label { color: var(--muted); font-size: 12px; display: flex; flex-direction: column; gap: 2px; }
.filters input, .filters select { font: inherit; padding: 3px 6px; }
.count { color: var(--muted); margin-left: auto; }
.pager { display: flex; flex-wrap: wrap; gap: 10px; align-items: center; margin-top: 10px; }
.pager button { font: inherit; padding: 3px 10px; }
.pager label { color: var(--muted); font-size: 12px; display: flex; gap: 6px; align-items: center; margin-left: auto; }
.detail-cell { background: #fbfcfd; padding: 12px 16px; }
.detail h3 { font-size: 14px; margin: 14px 0 6px; }
.detail .message { margin: 0 0 8px; }
.detail .errors li { color: var(--error); }
pre { margin: 4px 0; padding: 8px; background: var(--soft); border: 1px solid var(--line); border-radius: 6px; overflow: auto; max-height: 420px; white-space: pre-wrap; word-break: break-word; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.timeline { list-style: none; padding: 0; margin: 0; border-left: 2px solid var(--line); }
.timeline-entry { margin: 0 0 4px 10px; }
.timeline-entry > summary { cursor: pointer; }
.timeline-entry .kind { display: inline-block; min-width: 96px; font-size: 11px; text-transform: uppercase; color: var(--muted); }
.timeline-entry.is-error > summary { color: var(--fail); }
.timeline-entry .duration { color: var(--muted); font-size: 12px; }
.truncated-note { color: var(--muted); font-size: 12px; }
.diff .line-add { background: #dafbe1; display: block; }
.diff .line-del { background: #ffebe9; display: block; }
.diff .line-hunk { color: #8250df; display: block; }
.diff .line-meta { color: var(--muted); font-weight: 600; display: block; }
.conversation { display: grid; grid-template-columns: 60px 1fr 1fr; gap: 6px 12px; align-items: start; }
.conversation .column-title { font-weight: 600; color: var(--muted); }
.conversation .bubble { padding: 8px 10px; border-radius: 8px; white-space: pre-wrap; word-break: break-word; }
.conversation .user { background: #eef4ff; }
.conversation .agent { background: #f0fff4; }
.conversation .turn-number { color: var(--muted); font-size: 12px; }
.evaluations .reasoning { margin-top: 4px; font-style: italic; }
.evaluations td.success { color: var(--pass); font-weight: 600; }
.evaluations td.failure { color: var(--fail); font-weight: 600; }
.comparison td.cell-pass { background: #dafbe1; text-align: center; }
.comparison td.cell-fail { background: #ffebe9; text-align: center; }
.comparison td.cell-mixed { background: #fff8c5; text-align: center; }
.problems li { font-family: ui-monospace, monospace; font-size: 12px; }
a { color: var(--accent); }
`;
