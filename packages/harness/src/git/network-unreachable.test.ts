import { describe, expect, it } from 'vitest';
import { networkFailureOf } from './network-unreachable.js';

describe('networkFailureOf', () => {
  it('recognises git\'s words for a network that cannot be reached', () => {
    expect(networkFailureOf("fatal: unable to access 'https://github.com/pytest-dev/pytest/': Could not resolve host: github.com\n")).toBe('Could not resolve host: github.com');
    expect(networkFailureOf("fatal: unable to access 'https://github.com/a/b/': Failed to connect to 127.0.0.1 port 1 after 0 ms: Couldn't connect to server")).toBe(
      "Failed to connect to 127.0.0.1 port 1 after 0 ms: Couldn't connect to server",
    );
    expect(networkFailureOf('ssh: Could not resolve hostname github.com: Temporary failure in name resolution\nfatal: Could not read from remote repository.')).toBe(
      'Could not resolve hostname github.com',
    );
    expect(networkFailureOf('connect to host example.org port 22: Network is unreachable')).toBe('Network is unreachable');
  });

  it('leaves the task\'s own clone failures alone', () => {
    expect(networkFailureOf("fatal: repository '/srv/none.git' does not exist")).toBeUndefined();
    expect(networkFailureOf("remote: Repository not found.\nfatal: repository 'https://github.com/a/gone/' not found")).toBeUndefined();
    expect(networkFailureOf('fatal: Authentication failed for https://github.com/a/private/')).toBeUndefined();
  });
});
