import { describeVerdictCheats } from './trust-boundary-probes.js';

describeVerdictCheats('bwrap', 'verdict-cheats.probe.bwrap.test.ts');
