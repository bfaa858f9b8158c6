import { describe, expect, it } from 'vitest';
import { conformanceContext } from './conformance-context.js';
import { CONFORMANCE_CHECK_IDS } from './conformance-options.js';

describe('conformanceContext', () => {
  const context = conformanceContext({
    backend: 'local',
    spec: { workdir: '/base', env: { FROM: 'base' }, labels: { runId: 'run-1' } },
    specOverlay: { env: { FROM: 'overlay' } },
  });

  it("takes the backend's promises from the registry, and none declared means no isolation", () => {
    expect(context.promises).toEqual({ isolation: 'none', cutsNetwork: false, limits: 'ignored' });
    expect(conformanceContext({ backend: 'docker' }).promises).toEqual({ isolation: 'container', cutsNetwork: true, limits: 'enforced' });
    expect(conformanceContext({ backend: 'not-registered' }).promises).toEqual({ isolation: 'none', cutsNetwork: false, limits: 'ignored' });
  });

  it("builds each spec from the base, then the check's own fields, then the overlay; labels are merged", () => {
    expect(context.specFor({ hasNetwork: true, env: { FROM: 'check' }, labels: { taskId: 'task-1' } })).toEqual({
      workdir: '/base',
      hasNetwork: true,
      env: { FROM: 'overlay' },
      labels: { runId: 'run-1', taskId: 'task-1' },
    });
    expect(conformanceContext({ backend: 'local' }).specFor()).toEqual({});
  });

  it('names every check by a unique id', () => {
    expect(new Set(CONFORMANCE_CHECK_IDS).size).toBe(CONFORMANCE_CHECK_IDS.length);
  });
});
