// A static file server for the built page, on 127.0.0.1 only (the page uploads nothing; this
// just hands the browser its files). Used by tools/scripts/web.sh and by the page's test.
//   node web/serve.mjs build/web [port]
import { createServer } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
                '.css': 'text/css', '.wasm': 'application/wasm', '.txt': 'text/plain; charset=utf-8',
                '.ips': 'application/octet-stream', '.bps': 'application/octet-stream' };

// Resolves to the listening server; its address().port is the port.
export function serve(directory, port = 0) {
  const root = resolve(directory);
  const server = createServer((request, response) => {
    let path = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    if (path.endsWith('/')) path += 'index.html';
    const file = join(root, path);
    if (!file.startsWith(root + '/') || !existsSync(file) || !statSync(file).isFile() || !TYPES[extname(file)]) {
      response.writeHead(404, { 'Content-Type': 'text/plain' });
      response.end('not found\n');
      return;
    }
    response.writeHead(200, { 'Content-Type': TYPES[extname(file)], 'Cache-Control': 'no-store' });
    response.end(readFileSync(file));
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => ok(server));
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const directory = process.argv[2];
  if (!directory || !existsSync(join(directory, 'index.html'))) {
    console.error('usage: node web/serve.mjs BUILT_PAGE_DIR [PORT]   (the folder holding index.html, e.g. build/web)');
    process.exit(2);
  }
  const server = await serve(directory, Number(process.argv[3] || 8000));
  console.log(`nestris-ai page: http://127.0.0.1:${server.address().port}/  (Ctrl-C stops it)`);
}
