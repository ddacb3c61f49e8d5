// The one static server of the browser tests, the benchmark page and the differential
// helper, on 127.0.0.1, with the right MIME types; for the benchmark page, cross-origin
// isolation (a 5 µs performance.now()). Node built-ins only.
// Usage: node serve.mjs DIR [PORT]
import { createServer } from 'node:http';
import { readFileSync, existsSync, statSync } from 'node:fs';
import { join, extname, resolve } from 'node:path';

const MIME = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.wasm': 'application/wasm', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png' };

/**
 * Serves `dir`; resolves to { url, close }.
 * @param port - 0: any free port
 * @param isolated - send COOP/COEP, as the benchmark page wants (the package's tests serve plain pages)
 */
export function serve(dir, { port = 0, isolated = true } = {}) {
  const root = resolve(dir);
  const server = createServer((req, res) => {
    let path = join(root, decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (existsSync(path) && statSync(path).isDirectory()) path = join(path, 'index.html');
    if (!path.startsWith(root) || !existsSync(path)) {
      res.writeHead(404).end('not found');
      return;
    }
    const isolation = isolated
      ? { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' }
      : {};
    res.writeHead(200, {
      'content-type': MIME[extname(path)] ?? 'application/octet-stream',
      ...isolation,
      'cache-control': 'no-store',
    });
    res.end(readFileSync(path));
  });
  return new Promise((ok) => server.listen(port, '127.0.0.1', () => ok({ url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() })));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { url } = await serve(process.argv[2] ?? 'dist', { port: Number(process.argv[3] ?? 8765) });
  console.log(`pqverify benchmark page: ${url}`);
}
