import { readdir, readFile } from 'node:fs/promises';

/** Live (not zombie) processes whose command line holds `marker`, as `pid: command line`. */
export async function processesWithMarker(marker: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const commandLine = (await readFile(`/proc/${name}/cmdline`, 'utf8')).replace(/\0/g, ' ');
      const status = await readFile(`/proc/${name}/status`, 'utf8');
      if (commandLine.includes(marker) && !/^State:\s+Z/m.test(status)) found.push(`${name}: ${commandLine}`);
    } catch {
      // Gone while looking.
    }
  }
  return found;
}

/** A unique number of seconds for `sleep`, so a test can find exactly its own processes. */
export function uniqueSleep(): string {
  return `${1000 + Math.floor(Math.random() * 1000)}.${process.pid}${Math.floor(Math.random() * 1e6)}`;
}
