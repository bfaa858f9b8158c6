/**
 * git's (and curl's and ssh's) words for a network that cannot be reached: a name that does not
 * resolve, a connection refused, timed out or without a route. Such a clone failure is the
 * machine's (offline, behind a firewall), not the task's: its repository may be fine.
 */
const NETWORK_FAILURES: readonly RegExp[] = [
  /Could not resolve host: [^\s']+/i,
  /Could not resolve proxy: [^\s']+/i,
  /Could not resolve hostname [^\s:]+/i,
  /Temporary failure in name resolution/i,
  /Name or service not known/i,
  /Failed to connect to [^\n]+/i,
  /Couldn't connect to server/i,
  /Connection refused/i,
  /Connection timed out/i,
  /Network is unreachable/i,
  /No route to host/i,
];

/** The part of git's message that says the network is unreachable (`Could not resolve host: github.com`), or undefined. */
export function networkFailureOf(gitMessage: string): string | undefined {
  for (const pattern of NETWORK_FAILURES) {
    const match = pattern.exec(gitMessage);
    if (match !== null) return match[0].trim();
  }
  return undefined;
}

/** What to do when a task's repository cannot be fetched for want of a network. */
export const OFFLINE_CLONE_HINT =
  "no network (not the task's fault): use a mirror (AGENTBENCH_GIT_MIRRORS or git.mirrors in agentbench.config.json) or a local clone as repo.url";
