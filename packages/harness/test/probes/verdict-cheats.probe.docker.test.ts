import { describeVerdictCheats } from './trust-boundary-probes.js';

describeVerdictCheats('docker', 'verdict-cheats.probe.docker.test.ts');
