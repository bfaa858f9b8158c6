import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium, driven by playwright-core: never a downloaded browser. */
export const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** Why a browser test cannot run here (printed), or undefined; with AGENTBENCH_REQUIRE_TOOLS=1 a missing browser fails instead. */
export function chromiumSkipReason(testFile: string): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  if (process.env['AGENTBENCH_REQUIRE_TOOLS'] === '1') throw new Error(`AGENTBENCH_REQUIRE_TOOLS=1 but ${CHROMIUM} is missing`);
  const reason = `${CHROMIUM} not installed (apt-get install chromium)`;
  console.warn(`[skipped] ${testFile}: ${reason}`);
  return reason;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
