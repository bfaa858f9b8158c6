export type InputFileProblemKind = 'not_found' | 'not_a_file' | 'too_large' | 'unreadable' | 'encoding' | 'not_text' | 'not_json' | 'invalid';

/** Why a file was not read. `message` does not name the file; `line`/`column` are set when the problem has a place. */
export interface InputFileProblem {
  kind: InputFileProblemKind;
  message: string;
  line?: number;
  column?: number;
}
