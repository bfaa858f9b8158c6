import { createReadStream } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { readRunFolders, type ReadRunFoldersOptions } from '../read/read-run-folders.js';
import { renderHtmlReport } from '../render/render-html.js';
import { escapeXml as escapeHtml } from '../format/escape-xml.js';

export interface ServeReportOptions extends ReadRunFoldersOptions {
  runDirs: readonly string[];
  /** 0 (default) picks a free port. */
  port?: number;
  title?: string;
}

export interface ReportServer {
  url: string;
  port: number;
  close(): Promise<void>;
  /** Settles once the server has closed (by `close` or otherwise). */
  closed: Promise<void>;
}

const TEXT_EXTENSIONS = new Set(['.txt', '.log', '.json', '.jsonl', '.patch', '.diff', '.md', '.yaml', '.yml', '.py', '.ts', '.js', '.xml', '.html', '.csv']);

function send(response: ServerResponse, status: number, text: string, contentType = 'text/plain; charset=utf-8'): void {
  response.writeHead(status, { 'Content-Type': contentType, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' });
  response.end(text);
}

/** Whether `target` is `root` or inside it. */
function isInside(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * Resolves `/files/<index>/<path>` to a file or folder inside that run folder, or undefined when
 * the path leaves it (`..`, an absolute path, an encoded slash, a symbolic link pointing out).
 */
export async function resolveServedPath(roots: readonly string[], urlPath: string): Promise<string | undefined> {
  const match = /^\/files\/(\d+)(?:\/(.*))?$/.exec(urlPath);
  if (match === null) return undefined;
  const root = roots[Number(match[1])];
  if (root === undefined) return undefined;
  const segments = (match[2] ?? '').split('/').filter((segment) => segment !== '');
  let decoded: string[];
  try {
    decoded = segments.map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
  if (decoded.some((segment) => segment === '..' || segment === '.' || segment.includes('/') || segment.includes('\\') || segment.includes('\0'))) return undefined;
  const target = path.resolve(root, ...decoded);
  if (!isInside(root, target)) return undefined;
  // A symbolic link inside the folder must not lead out of it.
  const real = await realpath(target).catch(() => undefined);
  const realRoot = await realpath(root).catch(() => root);
  if (real === undefined || !isInside(realRoot, real)) return undefined;
  return real;
}

async function serveFile(response: ServerResponse, file: string, urlPath: string, isHead: boolean): Promise<void> {
  const info = await stat(file);
  if (info.isDirectory()) {
    const entries = (await readdir(file, { withFileTypes: true })).sort((left, right) => left.name.localeCompare(right.name));
    const base = urlPath.endsWith('/') ? urlPath : `${urlPath}/`;
    const items = entries.map((entry) => `<li><a href="${escapeHtml(base + encodeURIComponent(entry.name))}${entry.isDirectory() ? '/' : ''}">${escapeHtml(entry.name)}${entry.isDirectory() ? '/' : ''}</a></li>`).join('');
    send(response, 200, `<!doctype html><meta charset="utf-8"><title>${escapeHtml(urlPath)}</title><ul>${items}</ul>`, 'text/html; charset=utf-8');
    return;
  }
  // Artifacts are shown as text, never run as pages.
  const contentType = TEXT_EXTENSIONS.has(path.extname(file).toLowerCase()) || path.extname(file) === '' ? 'text/plain; charset=utf-8' : 'application/octet-stream';
  response.writeHead(200, { 'Content-Type': contentType, 'Content-Length': info.size, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' });
  if (isHead) {
    response.end();
    return;
  }
  createReadStream(file).pipe(response);
}

/**
 * Serves the HTML report of the run folders on 127.0.0.1 (read again from disk on every page
 * load, so a running suite can be watched), and the files of those folders read-only under
 * `/files/<index>/`, which the page links to. Nothing outside the run folders is reachable.
 */
export async function serveReport(options: ServeReportOptions): Promise<ReportServer> {
  const roots = options.runDirs.map((dir) => path.resolve(dir));
  // Fail before listening when a folder is missing or empty.
  await readRunFolders(roots, options);
  const linkFor = (file: string): string => {
    const index = roots.findIndex((root) => isInside(root, file));
    if (index === -1) return '#not-in-a-run-folder';
    const relative = path.relative(roots[index] as string, file).split(path.sep).map((segment) => encodeURIComponent(segment)).join('/');
    return `/files/${index}/${relative}`;
  };
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const method = request.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') {
      response.setHeader('Allow', 'GET, HEAD');
      send(response, 405, 'read-only: only GET and HEAD\n');
      return;
    }
    const urlPath = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (urlPath === '/' || urlPath === '/index.html') {
      const model = await readRunFolders(roots, options);
      send(response, 200, renderHtmlReport(model, { linkFor, ...(options.title === undefined ? {} : { title: options.title }) }), 'text/html; charset=utf-8');
      return;
    }
    const file = await resolveServedPath(roots, urlPath);
    if (file === undefined) {
      send(response, 404, 'not found (only files inside the run folders are served)\n');
      return;
    }
    await serveFile(response, file, urlPath, method === 'HEAD');
  };
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) send(response, 500, `error: ${error instanceof Error ? error.message : String(error)}\n`);
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const closed = new Promise<void>((resolve) => server.once('close', () => resolve()));
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    closed,
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (!server.listening) {
          resolve();
          return;
        }
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
