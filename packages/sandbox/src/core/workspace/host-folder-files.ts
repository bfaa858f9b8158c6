import type { FileEntry } from '../../contract/sandbox.js';
import type { HostWorkspace } from './host-workspace.js';

/**
 * The file half of a sandbox whose workspace is a host folder (bwrap, local): every call checks the
 * sandbox is still usable, then goes through the workspace's path checks.
 */
export abstract class HostFolderFiles {
  protected abstract readonly workspace: HostWorkspace;

  /** Throws `sandbox_disposed` once the sandbox is disposed. */
  protected abstract assertUsable(): void;

  async readFile(path: string): Promise<Uint8Array> {
    this.assertUsable();
    return this.workspace.readFile(path);
  }

  async writeFile(path: string, data: string | Uint8Array): Promise<void> {
    this.assertUsable();
    return this.workspace.writeFile(path, data);
  }

  async listFiles(path?: string, options?: { recursive?: boolean }): Promise<FileEntry[]> {
    this.assertUsable();
    return this.workspace.listFiles(path, options);
  }

  async copyIn(hostPath: string, sandboxPath: string): Promise<void> {
    this.assertUsable();
    return this.workspace.copyIn(hostPath, sandboxPath);
  }

  async copyOut(sandboxPath: string, hostPath: string): Promise<void> {
    this.assertUsable();
    return this.workspace.copyOut(sandboxPath, hostPath);
  }
}
