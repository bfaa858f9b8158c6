import { readFile, writeFile } from 'node:fs/promises';
import { expect } from 'vitest';
import type { Sandbox } from '../../src/contract/sandbox.js';

/**
 * Attempts, from inside a sandbox, to change the host's kernel: one row per vector, shared
 * by every backend's probe file (`kernel-surface.probe.*.test.ts`), so a new vector is one
 * line here. Each attempt must fail inside the sandbox, and the host's value, read on the
 * host before and after, must be unchanged.
 */
export interface KernelSurfaceProbe {
  name: string;
  /** Shell text run in the sandbox, given the host's value before; it must fail. */
  command(hostValueBefore: string): string;
  /** The host's state the attempt aims at, read on the host. */
  readHostState(): Promise<string>;
  /** Puts the host's state back if an attempt got through (root on the host only), so a failing test does not leave the host changed. */
  restoreHostState?(value: string): Promise<void>;
}

const ABSENT = '<absent on this host>';

/** A sysctl or /sys file: the attempt writes a value other than the host's. */
function kernelFile(path: string, otherValue: (current: string) => string): KernelSurfaceProbe {
  return {
    name: `write ${path}`,
    command: (before) => `printf '%s\\n' '${otherValue(before === ABSENT ? '' : before)}' > ${path}`,
    readHostState: () => readHostFile(path),
    restoreHostState: async (value) => {
      if (value !== ABSENT) await writeFile(path, value);
    },
  };
}

/** A write-only kernel file: nothing to read back on the host; the write itself must fail (and the file's presence is compared). */
function writeOnlyKernelFile(path: string, value: string): KernelSurfaceProbe {
  return {
    name: `write ${path}`,
    command: () => `printf '%s' '${value}' > ${path}`,
    readHostState: async () => ((await readHostFile(path)) === ABSENT ? ABSENT : 'present'),
  };
}

const toggle = (current: string): string => (current.trim() === '1' ? '0' : '1');
const plusOne = (current: string): string => String((Number.parseInt(current.trim(), 10) || 0) + 1);
const mountMarker = `agentbench-probe-${process.pid}`;

export const KERNEL_SURFACE_PROBES: readonly KernelSurfaceProbe[] = [
  // A pipe in core_pattern makes the kernel run a program as root on the host at the next crash.
  kernelFile('/proc/sys/kernel/core_pattern', () => '|/bin/sh -c agentbench-probe-%p'),
  kernelFile('/proc/sys/kernel/core_uses_pid', toggle),
  kernelFile('/proc/sys/fs/file-max', plusOne),
  // 0 or 1 only: 2 (strict accounting) could hurt the host if a regression let it through.
  kernelFile('/proc/sys/vm/overcommit_memory', (current) => (current.trim() === '0' ? '1' : '0')),
  // Run as root by the kernel to load a module: the same route as core_pattern.
  kernelFile('/proc/sys/kernel/modprobe', () => '/tmp/agentbench-probe-modprobe'),
  kernelFile('/proc/sys/kernel/sysrq', toggle),
  // With network, the sandbox shares the host's network namespace: per-namespace sysctls are the host's.
  kernelFile('/proc/sys/net/ipv4/tcp_keepalive_time', plusOne),
  writeOnlyKernelFile('/proc/sysrq-trigger', 'h'),
  kernelFile('/sys/kernel/mm/ksm/run', toggle),
  // Run as root by the kernel on every device event.
  kernelFile('/sys/kernel/uevent_helper', () => '/tmp/agentbench-probe-uevent'),
  {
    name: 'change the host name',
    command: () => 'hostname agentbench-probe',
    readHostState: () => readHostFile('/proc/sys/kernel/hostname'),
  },
  {
    name: 'mount a file system',
    command: () => `mkdir -p /tmp/agentbench-probe-mount && mount -t tmpfs ${mountMarker} /tmp/agentbench-probe-mount`,
    readHostState: async () => ((await readFile('/proc/self/mountinfo', 'utf8')).includes(mountMarker) ? 'mounted' : 'not mounted'),
  },
];

/**
 * Runs one probe in `sandbox`: the attempt must run (not 126/127: the tool exists) and
 * fail, and the host's state must be what it was. If the host changed, it is put back
 * before the test fails.
 */
export async function expectProbeRefused(sandbox: Sandbox, probe: KernelSurfaceProbe): Promise<void> {
  const before = await probe.readHostState();
  const result = await sandbox.exec(probe.command(before), { timeoutSec: 30 });
  const after = await probe.readHostState();
  if (after !== before) await probe.restoreHostState?.(before).catch(() => undefined);
  expect(after, `the host's state after: ${probe.name}`).toBe(before);
  expect(result.exitCode, `${probe.name} succeeded inside the sandbox: ${result.stdout}${result.stderr}`).not.toBe(0);
  expect([126, 127], `${probe.name}: the command did not run at all: ${result.stderr}`).not.toContain(result.exitCode);
}

async function readHostFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return ABSENT;
    return `<unreadable: ${code ?? String(error)}>`;
  }
}
