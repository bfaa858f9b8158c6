import { hostname } from 'node:os';

/** Every container AgentBench creates carries this label, set to `true`. */
export const LABEL_MANAGED = 'dev.agentbench.managed';
export const LABEL_RUN_ID = 'dev.agentbench.run-id';
export const LABEL_TASK_ID = 'dev.agentbench.task-id';
/** ISO 8601 time the container was created. */
export const LABEL_CREATED_AT = 'dev.agentbench.created-at';
/** Process id of the process that created the container (the harness). */
export const LABEL_PID = 'dev.agentbench.pid';
/** Host name of that process: a pid only means something on its own machine. */
export const LABEL_HOSTNAME = 'dev.agentbench.hostname';

/** On a sandbox that joined a network holder: the holder's container name. */
export const LABEL_NETWORK_HOLDER = 'dev.agentbench.network-holder';
/** `network-holder` on a network holder (see network-holder-pool.ts). */
export const LABEL_ROLE = 'dev.agentbench.role';

/** On a sandbox a SandboxPool started: the pool's id (see pool/sandbox-pool.ts). */
export const LABEL_POOL = 'dev.agentbench.pool';
/** `pool-sandbox` (LABEL_ROLE) on a sandbox a SandboxPool started, warm or handed out. */
export const POOL_SANDBOX_ROLE = 'pool-sandbox';

const labelPrefix = 'dev.agentbench.';

// Spellings of the run and task ids accepted in SandboxSpec.labels.
const aliases: Record<string, string> = {
  runId: LABEL_RUN_ID,
  'run-id': LABEL_RUN_ID,
  run_id: LABEL_RUN_ID,
  taskId: LABEL_TASK_ID,
  'task-id': LABEL_TASK_ID,
  task_id: LABEL_TASK_ID,
};

/**
 * Labels for a new container. `specLabels` come from SandboxSpec.labels: `runId` /
 * `run-id` / `run_id` (and the same for the task) map to the run and task labels; a key
 * with a dot is used as is (`com.example.team`); any other key gets the
 * `dev.agentbench.` prefix. The managed, created-at, pid and hostname labels cannot be
 * overridden.
 */
export function buildContainerLabels(specLabels: Record<string, string> | undefined, now: Date = new Date()): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [key, value] of Object.entries(specLabels ?? {})) {
    const name = aliases[key] ?? (key.includes('.') ? key : `${labelPrefix}${key}`);
    labels[name] = String(value);
  }
  labels[LABEL_MANAGED] = 'true';
  labels[LABEL_CREATED_AT] = now.toISOString();
  labels[LABEL_PID] = String(process.pid);
  labels[LABEL_HOSTNAME] = hostname();
  return labels;
}
