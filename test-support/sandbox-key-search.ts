// Test helpers shared by the packages' tests (like vitest.shared.ts); not part of any package.

/**
 * A stdlib Python script, run inside a sandbox, that looks for secrets in every readable file
 * (not /proc, /sys, /dev, nor the top-level folders named after `--skip`), in every process's
 * environment and command line, and in its own environment. Arguments: the secrets, each given
 * as two halves joined in memory (`a b c d` is the secrets `ab` and `cd`), so the search's own
 * command line holds none; then optionally `--skip FOLDER...` (absolute paths). Prints
 * `found [...]` (where each secret was found) then `searched N files`.
 */
export const SANDBOX_KEY_SEARCH = String.raw`
import os, sys
args = sys.argv[1:]
skip = set(args[args.index('--skip') + 1:]) if '--skip' in args else set()
halves = args[:args.index('--skip')] if '--skip' in args else args
keys = [(halves[index] + halves[index + 1]).encode() for index in range(0, len(halves), 2)]
found, count = [], 0
for name, value in os.environ.items():
    if any(key in value.encode() for key in keys):
        found.append('env ' + name)
for root, folders, files in os.walk('/'):
    if root == '/':
        folders[:] = [name for name in folders if name not in ('proc', 'sys', 'dev')]
    folders[:] = [name for name in folders if os.path.join(root, name) not in skip]
    for name in files:
        file = os.path.join(root, name)
        if os.path.islink(file) or not os.path.isfile(file):
            continue
        try:
            with open(file, 'rb') as handle:
                data = handle.read()
        except OSError:
            continue
        count += 1
        if any(key in data for key in keys):
            found.append(file)
for pid in filter(str.isdigit, os.listdir('/proc')):
    for part in ('environ', 'cmdline'):
        try:
            with open('/proc/%s/%s' % (pid, part), 'rb') as handle:
                data = handle.read()
        except OSError:
            continue
        count += 1
        if any(key in data for key in keys):
            found.append('/proc/%s/%s' % (pid, part))
print('found', found)
print('searched', count, 'files')
`;
