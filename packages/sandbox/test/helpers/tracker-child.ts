// Child process for the live-sandbox tracker test: makes one bwrap and one local sandbox (their
// folders in $TMPDIR, which the test chooses), says so, then waits for a signal it does not handle.
import { BwrapSandbox } from '../../src/bwrap/bwrap-sandbox.js';
import { LocalSandbox } from '../../src/local/local-sandbox.js';

const [rootfs = ''] = process.argv.slice(2);
const bwrap = await BwrapSandbox.create({ rootfs });
const local = await LocalSandbox.create({}, { isWarningSilenced: true });
await Promise.all([bwrap.exec(['true']), local.exec(['true'])]);
console.log(`ready ${local.workdir}`);
setInterval(() => undefined, 60_000);
