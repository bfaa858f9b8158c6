import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathExists } from '@agentbench/helpers';
import { checkArtifact, ScenarioRunResultSchema, ScenarioRunSettingsSchema, type ScenarioRunResult, type ScenarioRunSettings } from '@agentbench/schemas';
import { ScenarioRunnerError } from '../errors/scenario-runner-error.js';
import { RUN_SETTINGS_FILE } from '../run/result-files.js';

const RESULT_FILE = 'result.json';

/** A folder a scenario run wrote: its `result.json` or `run-settings.json` (an agent attempt folder has `attempt.json` instead). */
export async function isScenarioRunFolder(folder: string): Promise<boolean> {
  if (await pathExists(path.join(folder, 'attempt.json'))) return false;
  return (await pathExists(path.join(folder, RESULT_FILE))) || (await pathExists(path.join(folder, RUN_SETTINGS_FILE)));
}

async function readJson(file: string, missing: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new ScenarioRunnerError('replay', `${file}: not found: ${missing}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ScenarioRunnerError('replay', `${file}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** The run's `result.json`, read through its schema: a field it lacks or has wrong is named. */
export async function readScenarioResult(runDir: string): Promise<ScenarioRunResult> {
  const file = path.join(runDir, RESULT_FILE);
  const value = await readJson(file, 'expected the result of a scenario run (is the folder a scenario run folder, scenarios/<time>__<name>__<id>/?)');
  const checked = checkArtifact(ScenarioRunResultSchema, value, 'a scenario run result');
  if (!checked.success) throw new ScenarioRunnerError('replay', `${file}: ${checked.message}`);
  return checked.output;
}

/** The run's `run-settings.json`; a run recorded before runs kept them gets an error saying to re-record it. */
export async function readRunSettings(runDir: string): Promise<ScenarioRunSettings> {
  const file = path.join(runDir, RUN_SETTINGS_FILE);
  if (!(await pathExists(file))) {
    throw new ScenarioRunnerError(
      'replay',
      `${runDir}: this run was recorded before scenario runs kept their settings (no ${RUN_SETTINGS_FILE}), so it cannot be replayed; re-record it with ab scenario run`,
    );
  }
  const checked = checkArtifact(ScenarioRunSettingsSchema, await readJson(file, 'expected the settings of a scenario run'), 'the settings of a scenario run');
  if (!checked.success) throw new ScenarioRunnerError('replay', `${file}: ${checked.message}`);
  return checked.output;
}
