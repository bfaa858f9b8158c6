export { SandboxError, PathEscapeError, SymlinkBlockedError, ImageMissingError, RuntimeUnavailableError, type SandboxErrorKind } from './sandbox-error.js';
