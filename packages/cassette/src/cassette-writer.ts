import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CassetteExchange, CassetteHeader } from '@agentbench/schemas';

/**
 * Writes a cassette as exchanges finish: the header first, then one line per exchange, each
 * appended whole, so a crash leaves every finished exchange readable. Appends are chained: lines
 * never interleave.
 */
export class CassetteWriter {
  readonly file: string;
  private pending: Promise<void>;
  private count = 0;

  private constructor(file: string, ready: Promise<void>) {
    this.file = file;
    this.pending = ready;
  }

  static open(file: string, header: CassetteHeader): CassetteWriter {
    const ready = mkdir(path.dirname(file), { recursive: true }).then(() => writeFile(file, `${JSON.stringify(header)}\n`, { mode: 0o600 }));
    return new CassetteWriter(file, ready);
  }

  append(exchange: CassetteExchange): void {
    this.count += 1;
    this.pending = this.pending.then(() => appendFile(this.file, `${JSON.stringify(exchange)}\n`));
  }

  get exchangeCount(): number {
    return this.count;
  }

  /** Resolves once every line is on disk; rejects with the first write error. */
  flush(): Promise<void> {
    return this.pending;
  }
}
