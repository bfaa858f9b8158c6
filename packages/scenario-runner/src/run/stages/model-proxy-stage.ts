import path from 'node:path';
import { CASSETTE_FILE_NAME, startModelProxy } from '@agentbench/cassette';
import { roleUpstreams } from '../../llm/llm-settings.js';
import { resultFolderOf } from './result-stage.js';
import type { ScenarioRun } from './scenario-run.js';

/**
 * The run's model proxy, recording every exchange of the agent, the user simulator and the judge
 * to `cassette.jsonl` beside `result.json` (one role each: `/role/<role>/v1`); with `replay`, serving
 * them from a recorded cassette instead (and writing the replay's own). A run that writes no result
 * writes no cassette either.
 */
export async function modelProxyStage(run: ScenarioRun): Promise<void> {
  if (run.options.writeResult === false) return;
  const upstreams = roleUpstreams(run.llmSettings, run.env);
  const spec = run.agentChoice.spec;
  if (spec.type !== 'command' && spec.base_url !== undefined) upstreams.agent = spec.base_url;
  // A command agent finds its model through OPENAI_BASE_URL; the proxy takes its place.
  if (spec.type === 'command') upstreams.agent = run.options.env?.['OPENAI_BASE_URL'] ?? run.env['OPENAI_BASE_URL'] ?? upstreams.agent;
  const replay = run.options.replay;
  run.resources.modelProxy = await startModelProxy({
    mode: replay?.mode ?? 'record',
    cassette: path.join(resultFolderOf(run), CASSETTE_FILE_NAME),
    upstreams,
    run: { scenarioId: run.definition.name, repeatIndex: run.options.matrix?.repeat ?? 0 },
    ...(replay === undefined ? {} : { replayFrom: replay.cassette }),
    ...(replay?.onDivergence === undefined ? {} : { onDivergence: replay.onDivergence }),
  });
}
