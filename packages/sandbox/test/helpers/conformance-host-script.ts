import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { bundleChildScript } from './bundle-child.js';

/**
 * The conformance suite's killed-host child, bundled from the sources (the built `dist/conformance-host.js` may be
 * older than them). Call at the top of a conformance test file; the bundle is removed when the file ends.
 */
export async function bundledConformanceHost(name: string): Promise<string> {
  const entry = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'conformance', 'conformance-host.ts');
  const bundle = await bundleChildScript(entry, `conformance-host-${name}`);
  afterAll(() => bundle.cleanup());
  return bundle.file;
}
