// Test helpers shared by the packages' tests (like vitest.shared.ts); not part of any package.

/**
 * The head of a stdlib Python script, run inside a sandbox, that probes what the sandbox can reach: it imports
 * os, socket and sys and defines `attempt(label, action)`, which prints `LABEL reached` or `LABEL failed
 * ERRORTYPE`. A test appends its own `attempt(...)` lines (DNS, a public address, the host, the forwarder).
 */
export const REACH_PROBE_HEAD = String.raw`
import os, socket, sys
def attempt(label, action):
    try:
        action()
        print(label, 'reached')
    except OSError as error:
        print(label, 'failed', type(error).__name__)
`;
