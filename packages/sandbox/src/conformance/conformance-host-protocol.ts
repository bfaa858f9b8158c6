/**
 * The killed-host check's child: `node SCRIPT <backend> <spec JSON> <marker>` makes one sandbox, runs `sleep <marker>`
 * in it, and once that runs prints this word and `{"id", "workdir"}` as JSON on one line. Then it waits to be killed.
 */
export const CONFORMANCE_HOST_READY = 'CONFORMANCE_HOST_READY';

export interface ConformanceHostReport {
  id: string;
  workdir: string;
}
