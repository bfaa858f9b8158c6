/**
 * The report page's script: plain browser JavaScript (no framework, no network). It reads the
 * data embedded in `#report-data`, sorts and filters every row, puts one page of them in the
 * attempts table (the rest stay data until paged to), and renders an attempt's detail when its
 * row is clicked. Data is only ever inserted as text, never as HTML.
 * Written without template literals so it can live in this TypeScript string.
 */
export const REPORT_SCRIPT = `
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var rows = data.rows;
  // The blob leaves out null fields and empty lists to stay small (see compactRows); put them back.
  var DETAIL_LISTS = ['timeline', 'diffs', 'conversation', 'evaluations', 'logs', 'errors', 'notes'];
  rows.forEach(function (row) {
    if (!row.detail) row.detail = {};
    DETAIL_LISTS.forEach(function (name) { if (!row.detail[name]) row.detail[name] = []; });
    row.detail.timeline.forEach(function (entry) { if (!entry.links) entry.links = []; });
  });
  var PAGE_SIZES = [50, 100, 250, 1000];
  var sourceLabels = {};
  var baselineSources = {};
  data.sources.forEach(function (source) { sourceLabels[source.id] = source.label; baselineSources[source.id] = source.isBaseline === true; });
  // In a baseline validation run, passed means a valid baseline (see result-wording.ts).
  function statusText(row) {
    return baseStatusText(row) + (row.notStarted ? ' · not started: ' + row.notStarted : '') + validityMark(row);
  }
  function baseStatusText(row) {
    if (!baselineSources[row.sourceId] || row.status === 'errored') return row.status;
    return row.status === 'passed' ? 'valid baseline' : 'invalid baseline';
  }
  // Every report marks an attempt of a task whose baseline was not shown to fail (see attempt-counts.ts).
  function validityMark(row) {
    var validity = row.taskValidity;
    if (!validity || validity.status === 'valid') return '';
    if (validity.status === 'unvalidated') return ' · unvalidated task';
    return ' · unverified task' + (validity.isCounted ? '' : ', not counted');
  }
  // Only one page of rows is in the DOM at a time: a report of 10,000 attempts stays responsive.
  var state = { sortKey: 'startedAt', sortDirection: 1, expanded: {}, page: 0, pageSize: 100 };
  var body = document.getElementById('attempts-body');
  var filters = {
    text: document.getElementById('filter-text'),
    source: document.getElementById('filter-source'),
    model: document.getElementById('filter-model'),
    status: document.getElementById('filter-status'),
    failure: document.getElementById('filter-failure')
  };

  function element(tag, attributes, children) {
    var node = document.createElement(tag);
    if (attributes) {
      Object.keys(attributes).forEach(function (name) {
        var value = attributes[name];
        if (value === undefined || value === null || value === false) return;
        if (name === 'text') node.textContent = String(value);
        else if (name === 'className') node.className = value;
        else node.setAttribute(name, value === true ? '' : String(value));
      });
    }
    (children || []).forEach(function (child) {
      if (child === null || child === undefined) return;
      node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
    });
    return node;
  }

  function modelOf(row) { return row.model || row.variant || 'unknown'; }
  function number(value, digits) {
    if (value === null || value === undefined) return '–';
    return Number.isInteger(value) ? String(value) : value.toFixed(digits === undefined ? 1 : digits);
  }
  function seconds(value) {
    if (value === null || value === undefined) return '–';
    if (value < 1) return Math.round(value * 1000) + ' ms';
    if (value < 60) return value.toFixed(value < 10 ? 1 : 0) + ' s';
    var minutes = Math.floor(value / 60);
    return minutes + ' min ' + Math.round(value - minutes * 60) + ' s';
  }
  function cost(value) { return value === null || value === undefined ? '–' : '$' + value.toFixed(value < 0.01 && value > 0 ? 4 : 2); }
  function tokens(row) {
    if (row.inputTokens == null && row.outputTokens == null) return null;
    return (row.inputTokens || 0) + (row.outputTokens || 0);
  }

  function fillSelect(select, values, labelOf) {
    values.forEach(function (value) { select.appendChild(element('option', { value: value, text: labelOf ? labelOf(value) : value })); });
  }
  function unique(values) { return values.filter(function (value, index) { return values.indexOf(value) === index; }).sort(); }
  fillSelect(filters.source, data.sources.map(function (source) { return source.id; }), function (id) { return sourceLabels[id]; });
  fillSelect(filters.model, unique(rows.map(modelOf)));
  fillSelect(filters.failure, unique(rows.map(function (row) { return row.failureReason || (row.passed ? '' : 'UNCLASSIFIED'); }).filter(Boolean)));

  var columns = [
    { key: 'taskId', value: function (row) { return row.taskId; } },
    { key: 'source', value: function (row) { return sourceLabels[row.sourceId]; } },
    { key: 'model', value: modelOf },
    { key: 'variant', value: function (row) { return row.combination ? (row.variant || '') + ' ' + row.combination : row.variant; } },
    { key: 'status', value: function (row) { return row.status; }, format: function (value, row) { return statusText(row); } },
    { key: 'failureReason', value: function (row) { return row.failureReason; } },
    { key: 'durationSec', value: function (row) { return row.durationSec; }, isNumber: true, format: seconds },
    { key: 'steps', value: function (row) { return row.steps; }, isNumber: true, format: number },
    { key: 'tokens', value: tokens, isNumber: true, format: function (value) { return number(value, 0); } },
    { key: 'costUsd', value: function (row) { return row.costUsd; }, isNumber: true, format: cost }
  ];
  var columnByKey = {};
  columns.forEach(function (column) { columnByKey[column.key] = column; });
  columnByKey.startedAt = { key: 'startedAt', value: function (row) { return row.startedAt; } };

  function matches(row) {
    var text = filters.text.value.trim().toLowerCase();
    if (text && [row.taskId, modelOf(row), row.variant, row.failureReason, row.detail.message].join(' ').toLowerCase().indexOf(text) === -1) return false;
    if (filters.source.value && row.sourceId !== filters.source.value) return false;
    if (filters.model.value && modelOf(row) !== filters.model.value) return false;
    if (filters.status.value && row.status !== filters.status.value) return false;
    if (filters.failure.value && (row.failureReason || (row.passed ? '' : 'UNCLASSIFIED')) !== filters.failure.value) return false;
    return true;
  }

  function compare(left, right) {
    var column = columnByKey[state.sortKey];
    var a = column.value(left);
    var b = column.value(right);
    if (a === b) return 0;
    if (a === null || a === undefined) return 1;
    if (b === null || b === undefined) return -1;
    return (a < b ? -1 : 1) * state.sortDirection;
  }

  function preview(value, className) {
    if (!value) return null;
    var nodes = [element('pre', { className: className || '', text: value.text })];
    if (value.isTruncated || value.file) {
      var note = element('div', { className: 'truncated-note' }, [value.isTruncated ? 'Shortened (' + value.totalLength + ' in all). ' : '']);
      if (value.file) note.appendChild(element('a', { href: value.file, target: '_blank', text: 'Open the file' }));
      nodes.push(note);
    }
    return element('div', {}, nodes);
  }

  function diffView(diff) {
    var pre = element('pre', { className: 'diff', 'data-testid': 'diff' });
    diff.diff.text.split('\\n').forEach(function (line) {
      var kind = line.indexOf('+++') === 0 || line.indexOf('---') === 0 || line.indexOf('diff ') === 0 ? 'line-meta'
        : line.charAt(0) === '+' ? 'line-add' : line.charAt(0) === '-' ? 'line-del' : line.indexOf('@@') === 0 ? 'line-hunk' : '';
      pre.appendChild(element('span', { className: kind, text: line + '\\n' }));
    });
    var parts = [element('div', { text: diff.label }), pre];
    if (diff.diff.isTruncated || diff.diff.file) {
      var note = element('div', { className: 'truncated-note' }, [diff.diff.isTruncated ? 'Shortened. ' : '']);
      if (diff.diff.file) note.appendChild(element('a', { href: diff.diff.file, target: '_blank', text: 'Open the patch' }));
      parts.push(note);
    }
    return element('div', { className: 'diff-block' }, parts);
  }

  function timelineView(detail) {
    var list = element('ol', { className: 'timeline', 'data-testid': 'timeline' });
    detail.timeline.forEach(function (entry) {
      var summary = element('summary', {}, [
        element('span', { className: 'kind', text: entry.kind }),
        entry.step === null || entry.step === undefined ? '' : 'step ' + entry.step + ' · ',
        entry.title,
        entry.durationSec === null || entry.durationSec === undefined ? '' : element('span', { className: 'duration', text: ' · ' + seconds(entry.durationSec) })
      ]);
      var children = [summary];
      if (entry.input) children.push(element('div', {}, [element('strong', { text: entry.kind === 'tool' ? 'Arguments' : 'Input' }), preview(entry.input)]));
      if (entry.output) children.push(element('div', {}, [element('strong', { text: 'Output' }), preview(entry.output)]));
      if (entry.links.length) children.push(element('div', {}, entry.links.map(function (link) { return element('a', { href: link.file, target: '_blank', text: link.label + ' ' }); })));
      list.appendChild(element('li', {}, [element('details', { className: 'timeline-entry' + (entry.isError ? ' is-error' : ''), 'data-testid': 'timeline-entry', 'data-kind': entry.kind }, children)]));
    });
    return list;
  }

  function conversationView(detail) {
    var grid = element('div', { className: 'conversation', 'data-testid': 'conversation' }, [
      element('div', { className: 'column-title', text: 'Turn' }),
      element('div', { className: 'column-title', text: 'Simulated user' }),
      element('div', { className: 'column-title', text: 'Agent' })
    ]);
    detail.conversation.forEach(function (turn) {
      grid.appendChild(element('div', { className: 'turn-number', text: turn.turn + (turn.durationMs ? ' · ' + seconds(turn.durationMs / 1000) : '') }));
      grid.appendChild(element('div', { className: 'bubble user', text: turn.user }));
      grid.appendChild(element('div', { className: 'bubble agent', text: turn.agent + (turn.error ? '\\n[error: ' + turn.error + ']' : '') }));
    });
    return grid;
  }

  function evaluationsView(detail) {
    var table = element('table', { className: 'evaluations', 'data-testid': 'evaluations' }, [
      element('thead', {}, [element('tr', {}, ['Evaluation', 'Phase', 'Result', 'Score', 'Message and reasoning'].map(function (title) { return element('th', { text: title }); }))])
    ]);
    var tbody = element('tbody');
    detail.evaluations.forEach(function (evaluation) {
      var cell = element('td', {}, [evaluation.error ? 'error: ' + evaluation.error + ' — ' + evaluation.message : evaluation.message]);
      if (evaluation.reasoning) cell.appendChild(element('div', { className: 'reasoning', text: 'Reasoning: ' + evaluation.reasoning }));
      if (evaluation.details) cell.appendChild(element('details', {}, [element('summary', { text: 'details' }), preview(evaluation.details)]));
      tbody.appendChild(element('tr', {}, [
        element('td', { text: evaluation.type + (evaluation.description ? ' — ' + evaluation.description : '') }),
        element('td', { text: (evaluation.phase || '') + (evaluation.turn ? ' ' + evaluation.turn : '') }),
        element('td', { className: evaluation.success ? 'success' : 'failure', text: evaluation.success ? 'pass' : 'fail' }),
        element('td', { className: 'number', text: evaluation.score === undefined ? '' : number(evaluation.score, 2) }),
        cell
      ]));
    });
    table.appendChild(tbody);
    return table;
  }

  function detailView(row) {
    var detail = row.detail;
    var parts = [];
    if (detail.message && !detail.judgment) parts.push(element('p', { className: 'message', text: detail.message }));
    var facts = ['status ' + statusText(row)];
    if (row.failureReason) facts.push('failure reason ' + row.failureReason);
    if (row.stopReason) facts.push('stop reason ' + row.stopReason);
    if (row.startedAt) facts.push('started ' + row.startedAt);
    var factLine = element('p', { className: 'facts', text: facts.join(' · ') + ' ' });
    if (row.folder) factLine.appendChild(element('a', { href: row.folder, target: '_blank', text: 'artifacts folder' }));
    parts.push(factLine);
    if (detail.errors.length) parts.push(element('ul', { className: 'errors' }, detail.errors.map(function (text) { return element('li', { text: text }); })));
    if (detail.notes.length) parts.push(element('ul', { className: 'notes' }, detail.notes.map(function (text) { return element('li', { text: text }); })));
    if (detail.judgment) parts.push(element('p', { text: 'Judgment (' + detail.judgment.strategy + '): ' + (detail.judgment.passed ? 'passed' : 'failed') + ', score ' + number(detail.judgment.score, 2) + ' — ' + detail.judgment.reason }));
    if (detail.conversation.length) { parts.push(element('h3', { text: 'Conversation' })); parts.push(conversationView(detail)); }
    if (detail.evaluations.length) { parts.push(element('h3', { text: 'Evaluations' })); parts.push(evaluationsView(detail)); }
    if (detail.finalResponse) { parts.push(element('h3', { text: 'Final response' })); parts.push(preview(detail.finalResponse)); }
    if (detail.timeline.length) { parts.push(element('h3', { text: 'Timeline' + (detail.omittedTimelineEntries ? ' (' + detail.omittedTimelineEntries + ' entries not shown)' : '') })); parts.push(timelineView(detail)); }
    if (detail.diffs.length) { parts.push(element('h3', { text: 'Diffs' })); detail.diffs.forEach(function (diff) { parts.push(diffView(diff)); }); }
    if (detail.logs.length) {
      parts.push(element('h3', { text: 'Logs' }));
      detail.logs.forEach(function (log) {
        parts.push(element('div', {}, [element('a', { href: log.file, target: '_blank', text: log.label })]));
        if (log.preview) parts.push(preview(log.preview, 'log'));
      });
    }
    return element('div', { className: 'detail', 'data-testid': 'attempt-detail' }, parts);
  }

  var pager = {
    previous: document.getElementById('page-previous'),
    next: document.getElementById('page-next'),
    label: document.getElementById('page-label'),
    size: document.getElementById('page-size')
  };
  fillSelect(pager.size, PAGE_SIZES.map(String));
  pager.size.value = String(state.pageSize);

  function countText(first, last, matching) {
    if (matching <= state.pageSize) return 'Showing ' + matching + ' of ' + rows.length;
    return 'Showing ' + first + '–' + last + ' of ' + matching + (matching < rows.length ? ' matching (' + rows.length + ' in all)' : '');
  }

  function render() {
    var visible = rows.filter(matches).sort(compare);
    var pageCount = Math.max(1, Math.ceil(visible.length / state.pageSize));
    if (state.page >= pageCount) state.page = pageCount - 1;
    var start = state.page * state.pageSize;
    var pageRows = visible.slice(start, start + state.pageSize);
    body.textContent = '';
    pageRows.forEach(function (row) {
      var cells = columns.map(function (column) {
        var value = column.value(row);
        var text = column.format ? column.format(value, row) : value === null || value === undefined ? '' : String(value);
        var attributes = { text: text };
        if (column.isNumber) attributes.className = 'number';
        if (column.key === 'status') attributes.className = 'status status-' + row.status;
        return element('td', attributes);
      });
      var tr = element('tr', { className: 'attempt-row' + (state.expanded[row.id] ? ' expanded' : ''), 'data-row-id': row.id, 'data-testid': 'attempt-row', 'aria-expanded': state.expanded[row.id] ? 'true' : 'false', tabindex: '0' }, cells);
      tr.addEventListener('click', function () { state.expanded[row.id] = !state.expanded[row.id]; render(); });
      tr.addEventListener('keydown', function (event) { if (event.key === 'Enter') { state.expanded[row.id] = !state.expanded[row.id]; render(); } });
      body.appendChild(tr);
      if (state.expanded[row.id]) body.appendChild(element('tr', { className: 'detail-row' }, [element('td', { colspan: String(columns.length), className: 'detail-cell' }, [detailView(row)])]));
    });
    document.getElementById('attempts-count').textContent = countText(start + 1, start + pageRows.length, visible.length);
    pager.label.textContent = 'Page ' + (state.page + 1) + ' of ' + pageCount;
    pager.previous.disabled = state.page === 0;
    pager.next.disabled = state.page >= pageCount - 1;
    document.querySelectorAll('#attempts-table th[data-sort]').forEach(function (header) {
      header.setAttribute('aria-sort', header.getAttribute('data-sort') === state.sortKey ? (state.sortDirection === 1 ? 'ascending' : 'descending') : 'none');
    });
  }

  document.querySelectorAll('#attempts-table th[data-sort]').forEach(function (header) {
    header.addEventListener('click', function () {
      var key = header.getAttribute('data-sort');
      if (state.sortKey === key) state.sortDirection = -state.sortDirection;
      else { state.sortKey = key; state.sortDirection = 1; }
      state.page = 0;
      render();
    });
  });
  function fromFirstPage() { state.page = 0; render(); }
  Object.keys(filters).forEach(function (name) { filters[name].addEventListener('input', fromFirstPage); filters[name].addEventListener('change', fromFirstPage); });
  pager.previous.addEventListener('click', function () { if (state.page > 0) { state.page -= 1; render(); } });
  pager.next.addEventListener('click', function () { state.page += 1; render(); });
  pager.size.addEventListener('change', function () { state.pageSize = Number(pager.size.value) || 100; fromFirstPage(); });
  render();
})();
`;
