import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeSyntheticRun } from '../../bench/write-synthetic-run.mjs';
import { attemptRecord } from '../../test/helpers/write-artifacts.js';
import { readRunFolders } from '../read/read-run-folders.js';
import { embedJson, relativeLink, renderHtmlReport } from './render-html.js';
import { useTemporaryDirectory } from '../../../../test-support/temporary-directory.js';

const temporary = useTemporaryDirectory({ per: 'block', prefix: 'ab-report-html-' });

describe('embedJson', () => {
  it('cannot close the script element, and parses back to the same value', () => {
    const value = { text: '</script><script>alert(1)</script><!-- \u2028' };
    const embedded = embedJson(value);
    expect(embedded).not.toContain('<');
    expect(JSON.parse(embedded)).toEqual(value);
  });
});

describe('relativeLink', () => {
  it('encodes each segment and keeps the folders', () => {
    expect(relativeLink('/r/out', '/r/runs/a b/logs/x#1.txt')).toBe('../runs/a%20b/logs/x%231.txt');
  });
});

describe('renderHtmlReport', () => {
  it('keeps a report of 1,000 attempts with large logs under a few megabytes, linking to the files', async () => {
    const dir = path.join(temporary.path, 'big-run');
    const records: string[] = [];
    // One 220 KB log folder shared by every record keeps the test light on disk; each row still reads and cuts it.
    await mkdir(path.join(dir, 'logs', 'shared'), { recursive: true });
    await writeFile(path.join(dir, 'logs', 'shared', 'run.log'), `${'noise line\n'.repeat(20_000)}FAILED at the very end\n`);
    await writeFile(path.join(dir, 'logs', 'shared', 'setup_1.log'), 'x'.repeat(50_000));
    for (let index = 0; index < 1000; index += 1) {
      const taskId = `task_${String(index).padStart(4, '0')}`;
      records.push(JSON.stringify(attemptRecord({ task_id: taskId, timestamp_start: `2025-03-01T10:${String(Math.floor(index / 60) % 60).padStart(2, '0')}:${String(index % 60).padStart(2, '0')}.000Z`, artifact_paths: { logs: 'logs/shared' } })));
    }
    await writeFile(path.join(dir, 'attempts.jsonl'), `${records.join('\n')}\n`);
    const model = await readRunFolders([dir]);
    const html = renderHtmlReport(model, { baseDir: temporary.path });
    expect(model.rows).toHaveLength(1000);
    expect(Buffer.byteLength(html)).toBeLessThan(4 * 1024 * 1024);
    // Each log is cut with its end kept and a link to the whole file.
    const log = model.rows[0]!.detail.logs[0]!;
    expect(log.preview?.isTruncated).toBe(true);
    expect(log.preview?.text).toContain('FAILED at the very end');
    expect(html).toContain('"file":"big-run/logs/shared/run.log"');
    expect(html).not.toMatch(/<(link|img|script)[^>]+(src|href)="https?:/);
  });

  it('keeps 10,000 synthetic attempts under 15 MB (at most 1 KB a record) with one data blob and pagination controls', async () => {
    const dir = await writeSyntheticRun(path.join(temporary.path, 'synthetic-10k'), 10_000);
    const model = await readRunFolders([dir]);
    const html = renderHtmlReport(model, { baseDir: temporary.path });
    expect(model.rows).toHaveLength(10_000);
    const bytesPerRecord = Buffer.byteLength(html) / model.rows.length;
    expect(bytesPerRecord).toBeLessThan(1024);
    expect(Buffer.byteLength(html)).toBeLessThan(15 * 1024 * 1024);
    // Rows travel as data: no row is in the markup, the script renders one page of them.
    expect(html).not.toContain('data-testid="attempt-row"');
    expect(html.match(/<script type="application\/json" id="report-data">/g)).toHaveLength(1);
    for (const control of ['page-previous', 'page-next', 'page-label', 'page-size']) expect(html).toContain(`data-testid="${control}"`);
  });

  it('embeds sandbox-written text without letting it end the data script, and leaves out nulls and empty lists', async () => {
    const dir = path.join(temporary.path, 'hostile-run');
    await mkdir(dir, { recursive: true });
    const hostile = '</script><script>alert(1)</script><!--\u2028';
    const record = attemptRecord({ task_id: 'toy_fail', model: { provider: 'x', name: hostile }, metrics: null });
    await writeFile(path.join(dir, 'attempts.jsonl'), `${JSON.stringify(record)}\n`);
    const html = renderHtmlReport(await readRunFolders([dir]), { baseDir: temporary.path });
    const blob = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(blob).not.toContain('<');
    const data = JSON.parse(blob) as { rows: Array<Record<string, unknown> & { detail: Record<string, unknown> }> };
    expect(data.rows[0]?.model).toBe(hostile);
    expect(data.rows[0]).not.toHaveProperty('steps');
    expect(data.rows[0]?.detail).not.toHaveProperty('timeline');
  });
});
