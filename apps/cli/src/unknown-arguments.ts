import { closestName } from '@agentbench/schemas';

const UNKNOWN_ARGUMENTS = /^Unknown arguments?: (.+)$/;

/** `oracleRun` to `oracle-run`: how yargs spells a flag's camel-case twin back. */
function kebabCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** How the user wrote it: `--suit` for a long flag, `-x` for a short one, the bare word for a positional. */
function asWritten(name: string, argv: readonly string[]): string {
  const dashes = name.length === 1 ? '-' : '--';
  const isFlag = argv.some((word) => word === `${dashes}${name}` || word.startsWith(`${dashes}${name}=`) || word === `--no-${name}`);
  return isFlag ? `${dashes}${name}` : name;
}

/**
 * yargs' "Unknown argument(s): suit" in the user's words: each name as typed (never yargs' camel-case
 * twin `oracleRun` of `oracle-run`), with the nearest flag of the command when one is close enough
 * (`--suit (did you mean --suite?)`). Undefined for any other message. `knownFlags` are the command's
 * option names as yargs lists them (camel-case twins and one-letter aliases are left out of suggestions).
 */
export function describeUnknownArguments(message: string, argv: readonly string[], knownFlags: readonly string[]): string | undefined {
  const match = UNKNOWN_ARGUMENTS.exec(message);
  if (match === null) return undefined;
  const names = (match[1] ?? '').split(', ');
  const shown = names.filter((name) => !(/[A-Z]/.test(name) && names.includes(kebabCase(name))));
  const candidates = knownFlags.filter((flag) => flag.length > 1 && !/[A-Z]/.test(flag));
  const described = shown.map((name) => {
    const written = asWritten(name, argv);
    const near = written.startsWith('-') ? closestName(name, candidates) : undefined;
    return near === undefined ? written : `${written} (did you mean --${near}?)`;
  });
  return `${described.length === 1 ? 'unknown argument' : 'unknown arguments'}: ${described.join(', ')}`;
}
