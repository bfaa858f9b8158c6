import { describe, expect, it } from 'vitest';
import { commandText } from './exec-settings.js';

describe('commandText', () => {
  it('keeps a shell command as written', () => {
    expect(commandText('echo "$HOME" | wc -c')).toBe('echo "$HOME" | wc -c');
  });

  it('quotes the words of an argv that a shell would split or expand, and only those', () => {
    expect(commandText(['python3', '-m', 'pytest', 'tests/test_calc.py::test_add'])).toBe('python3 -m pytest tests/test_calc.py::test_add');
    expect(commandText(['python3', '-c', "print('hi there')", ''])).toBe(`python3 -c 'print('\\''hi there'\\'')' ''`);
  });
});
