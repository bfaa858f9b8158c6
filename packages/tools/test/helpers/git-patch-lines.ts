// Test helpers: lines of git diffs that more than one patch reader is tested on (tools' patch parser, evaluators' scanner diff).

/**
 * A git diff that adds `sitecustomize.py` and deletes `old.py`. The added file's first line reads `++ b/not-a-header.py`,
 * so its diff line `+++ b/not-a-header.py` looks like a file header inside a hunk: a reader must count the hunk's lines.
 */
export const ADDED_AND_DELETED_FILE_LINES: readonly string[] = [
  'diff --git a/sitecustomize.py b/sitecustomize.py',
  'new file mode 100644',
  'index 0000000..3333333',
  '--- /dev/null',
  '+++ b/sitecustomize.py',
  '@@ -0,0 +1,2 @@',
  '+++ b/not-a-header.py',
  '+print("hi")',
  'diff --git a/old.py b/old.py',
  'deleted file mode 100644',
  '--- a/old.py',
  '+++ /dev/null',
  '@@ -1 +0,0 @@',
  '-x = 1',
];
