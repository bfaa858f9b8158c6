import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedFixturePath } from '../../../../test-support/shared-fixtures.js';

/** The monorepo root (/work/main in the dev container). */
export const repoRoot = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../..');

/** Real files from comparable projects, kept beside the repository (see ../shared/fixtures/README.md). */
export const elizaScenariosDir = sharedFixturePath('eliza-scenarios');
export const pythonTasksDir = sharedFixturePath('agentbench-py-tasks');

/** A task.yaml with every required field; tests change one thing at a time. */
export const validTaskYaml = `task_spec_version: "1.0"
id: toy_fail_pytest
suite: custom-dev
harness_min_version: "0.1.0"
labels:
  - toy

repo:
  url: https://github.com/example/toy
  commit: 8b2d107781ccba9ae05308d60cde2e6fd074db8f

environment:
  docker_image: agentbench/py-runner:0.1.0
  workdir: /workspace
  timeout_sec: 60

setup:
  commands:
    - pip install .

run:
  command: python -m pytest -q
`;

/** The smallest valid scenario. */
export const validScenarioYaml = `name: Smallest
description: One step
environment:
  type: local
run:
  - input: hello
    evaluations:
      - type: string_contains
        value: hello
judgment:
  strategy: all_pass
`;
