/**
 * Ways a sandbox could make host git run a command, one row each: a shell snippet run in the
 * repository (as a setup command or an agent's `run` step) that, if host git ever honoured what
 * it wrote, would create `$MARKER` on the host. Adding a vector is adding a row.
 */
export interface GitVector {
  name: string;
  /** POSIX shell run in the repository folder; `$MARKER` is the host path that must never appear. */
  plant: string;
}

const hook = (name: string): string => `mkdir -p .git/hooks && printf '#!/bin/sh\\ntouch "$MARKER.${name}"\\n' > .git/hooks/${name} && chmod +x .git/hooks/${name}`;

export const GIT_VECTORS: readonly GitVector[] = [
  { name: 'core.fsmonitor', plant: `git config core.fsmonitor "touch \\"$MARKER.fsmonitor\\"; false"` },
  { name: 'core.hooksPath', plant: `mkdir -p hooks2 && printf '#!/bin/sh\\ntouch "$MARKER.hookspath"\\n' > hooks2/post-index-change && chmod +x hooks2/post-index-change && git config core.hooksPath "$PWD/hooks2"` },
  { name: 'post-index-change hook', plant: hook('post-index-change') },
  { name: 'reference-transaction hook', plant: hook('reference-transaction') },
  { name: 'diff.external', plant: `git config diff.external "sh -c 'touch \\"$MARKER.external\\"'"` },
  { name: 'textconv driver', plant: `git config diff.evil.textconv "sh -c 'touch \\"$MARKER.textconv\\"; cat \\"\\$1\\"' --" && echo '* diff=evil' >> .gitattributes` },
  { name: 'clean filter', plant: `git config filter.evil.clean "sh -c 'touch \\"$MARKER.clean\\"; cat'" && git config filter.evil.required true && echo '* filter=evil' >> .gitattributes` },
  { name: 'smudge filter', plant: `git config filter.evil2.smudge "sh -c 'touch \\"$MARKER.smudge\\"; cat'" && echo '*.py filter=evil2' >> .gitattributes` },
  { name: 'core.pager', plant: `git config core.pager "sh -c 'touch \\"$MARKER.pager\\"; cat'"` },
  { name: 'core.sshCommand', plant: `git config core.sshCommand "sh -c 'touch \\"$MARKER.ssh\\"'"` },
  { name: 'include.path', plant: `printf '[core]\\n\\tfsmonitor = touch "$MARKER.include"; false\\n' > included.cfg && git config include.path "$PWD/included.cfg"` },
  { name: 'nested repository with fsmonitor', plant: `mkdir -p nested && git init -q nested && echo x > nested/file && git -C nested -c user.name=a -c user.email=a@b add . && git -C nested -c user.name=a -c user.email=a@b commit -qm x && git -C nested config core.fsmonitor "touch \\"$MARKER.nested\\"; false"` },
  { name: 'uploadpack hook', plant: `git config uploadpack.packObjectsHook "sh -c 'touch \\"$MARKER.uploadpack\\"'"` },
  { name: 'FIFO in the work tree', plant: 'mkfifo stuck.fifo' },
  // Last: it moves .git away, so the rows above still configure the real one.
  { name: 'gitdir link to a planted repository', plant: `mkdir -p ../planted.git && git init -q --bare ../planted.git && git --git-dir=../planted.git config core.fsmonitor "touch \\"$MARKER.gitfile\\"; false" && mv .git .git-real && echo "gitdir: ../planted.git" > .git` },
];

/** The whole table as one script (one attempt plants every vector). */
export function plantAllGitVectors(marker: string): string {
  return [`MARKER='${marker}'`, 'export MARKER', ...GIT_VECTORS.map((vector) => `( ${vector.plant} ) || echo "could not plant ${vector.name}" >&2`), 'true'].join('\n');
}
