import { DEFAULT_DOCKER_IMAGE } from '@agentbench/sandbox';

/** `--image`: the runner image, by default the one `ab image build` makes (doctor, image *, import-swebench); what it is for is the command's. */
export function runnerImageOption(describe: string) {
  return { type: 'string' as const, default: DEFAULT_DOCKER_IMAGE, describe };
}
