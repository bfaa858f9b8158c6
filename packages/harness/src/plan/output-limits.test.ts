import path from 'node:path';
import { DEFAULT_LOG_CAP_BYTES, LocalSandbox } from '@agentbench/sandbox';
import type { Task } from '@agentbench/schemas';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTemporaryDirectory, type TemporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { ConfigurationError } from '@agentbench/schemas';
import { maxOutputBytesFor, TruncatedLogs } from './output-limits.js';

function taskWith(maxOutputBytes?: number): Task {
  const environment = { docker_image: 'image', workdir: '/workspace', timeout_sec: 60, ...(maxOutputBytes === undefined ? {} : { max_output_bytes: maxOutputBytes }) };
  return { task_spec_version: '1.0', id: 't', suite: 's', repo: { url: '.', commit: 'abc1234' }, environment, setup: { commands: [] }, run: { command: 'true' }, labels: [] };
}

describe('maxOutputBytesFor', () => {
  it('takes the caller’s value, else the task’s, else 10 MiB', () => {
    expect(maxOutputBytesFor(taskWith())).toBe(DEFAULT_LOG_CAP_BYTES);
    expect(maxOutputBytesFor(taskWith(2000))).toBe(2000);
    expect(maxOutputBytesFor(taskWith(2000), 500)).toBe(500);
  });

  it('refuses a value that is not a whole number of bytes of at least 1', () => {
    for (const bad of [0, -1, 2.5, Number.NaN]) {
      expect(() => maxOutputBytesFor(taskWith(), bad)).toThrow(ConfigurationError);
    }
  });
});

describe('TruncatedLogs', () => {
  let folder: TemporaryDirectory;
  beforeEach(async () => {
    folder = await createTemporaryDirectory();
  });
  afterEach(async () => {
    await folder.remove();
  });

  it('lists, relative to the run directory, the logs of the watched sandboxes that dropped output', async () => {
    const truncated = new TruncatedLogs(folder.path);
    const create = truncated.watch((spec) => LocalSandbox.create(spec, { isWarningSilenced: true }));
    const sandbox = await create({ logDir: path.join(folder.path, 'logs'), logCapBytes: 100 });
    try {
      await sandbox.exec('echo small', { logName: 'small' });
      await sandbox.exec('seq 1 1000', { logName: 'flood' });
      await sandbox.exec('seq 1 1000 >&2', { logName: 'flood_stderr' });
      await sandbox.exec('seq 1 1000', { logName: 'flood' });
    } finally {
      await sandbox.dispose();
    }
    expect(truncated.list()).toEqual(['logs/flood.log', 'logs/flood_stderr.log']);
  });

  it('notes nothing for a sandbox that keeps no logs', async () => {
    const truncated = new TruncatedLogs(folder.path);
    const sandbox = await truncated.watch((spec) => LocalSandbox.create(spec, { isWarningSilenced: true }))({});
    try {
      await sandbox.exec('seq 1 100000');
    } finally {
      await sandbox.dispose();
    }
    expect(truncated.list()).toEqual([]);
  });
});
