/**
 * `npm start`: builds and serves the site and the proposal function locally, the way Netlify
 * does, on PORT (default 8888); `npm start -- --no-build` serves the build already there
 * (scripts/serve/existing-build.ts). `netlify serve` runs on internal loopback ports behind a small
 * front server that reads every request body within bounds first (scripts/serve/body-guard.ts),
 * so no single request can end the local server. Stopping this process stops both.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import {
  createServer,
  request as forward,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { problemTypeUri } from '../src/contract/http.ts';
import { readBoundedBody } from './serve/body-guard.ts';
import { parseableHost, refuseUnparseableHost } from './serve/host-header.mjs';
import { freePort } from './free-port.ts';
import { listenHost, netlifyChildEnv } from './serve/listen-host.ts';
import { EXISTING_BUILD_ENV, missingBuild } from './serve/existing-build.ts';
import { serverDir } from './serve/server-dir.ts';
import { runSchedule, scheduleOf, SCHEDULED_FUNCTION } from './serve/schedule.ts';
import { headerTypes, typedHeaders, UNTYPED } from './serve/untyped-files.ts';
import { isNoise } from './serve/quiet.ts';
import { LOOPBACK_DIRECTORY_ENV } from '../src/contract/web-bot-auth.ts';

const port = Number(process.env['PORT'] ?? 8888);
/** The site's port listens here (loopback unless HOST says otherwise); the inner ports always on loopback. */
const host = listenHost();
const checkout = fileURLToPath(new URL('../', import.meta.url));
const noBuild = process.argv.slice(2).includes('--no-build');
if (noBuild) {
  const missing = missingBuild(checkout);
  if (missing) {
    console.error(`npm start --no-build: nothing built to serve (${missing} missing); run npm run build first.`);
    process.exit(1);
  }
}
// This server's own folder (scripts/serve/server-dir.ts): any number of npm starts can run side by side.
const site = serverDir(checkout, noBuild);
process.once('exit', () => rmSync(site, { recursive: true, force: true }));
/**
 * netlify serve binds its ports (ours, and the functions port it picks itself) only after the
 * build, so another process can take one in between; it then exits with EADDRINUSE. It is
 * started again on fresh ports this many times.
 */
const PORT_RACE_RESTARTS = 3;

let innerPort = 0;
let netlify: ChildProcess | undefined;
// netlify serve announces its internal port in a box; people need the one address they can open.
let announced = false;

/** Starts netlify serve on fresh loopback ports; its output passes through, and is watched for a lost port. */
async function startNetlify(restartsLeft: number): Promise<void> {
  const [inner, staticPort] = [await freePort(), await freePort()];
  innerPort = inner;
  const child = spawn(
    'netlify',
    [
      'serve',
      '--offline',
      '--internal-disable-edge-functions',
      '--port',
      String(inner),
      '--staticServerPort',
      String(staticPort),
    ],
    {
      cwd: site,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        // The build netlify serve runs publishes absolute URLs at this address (src/integrations/site-url.ts).
        SITE_URL: `http://localhost:${port}`,
        // The local Blobs server shares its process with every invocation: see src/proposal/store/blobs.ts (timeFactor).
        STORE_TIMEOUT_FACTOR: '2',
        // Signed requests from agents on loopback are checked locally (src/contract/web-bot-auth.ts).
        [LOOPBACK_DIRECTORY_ENV]: '1',
        ...process.env,
        // Nobody else on the network reaches netlify serve's inner ports (./serve/listen-host.ts).
        ...netlifyChildEnv('127.0.0.1'),
        ...(noBuild ? { [EXISTING_BUILD_ENV]: '1' } : {}),
        BROWSER: 'none',
      },
    },
  );
  netlify = child;
  let lostPort = false;
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const) {
    let scheduledReply = false;
    createInterface({ input: stream }).on('line', (line) => {
      if (line.includes('EADDRINUSE')) lostPort = true;
      // The clock's own invocations are not news: their request and reply lines, and a run with nothing due.
      if (line.includes(`/.netlify/functions/${SCHEDULED_FUNCTION}`)) return void (scheduledReply = true);
      if (scheduledReply && /^Response with status/.test(line)) return void (scheduledReply = false);
      if (/"event":"scheduled_run","due":0,/.test(line)) return;
      if (!announced && /Local dev server ready/.test(line)) {
        announced = true;
        console.log(`\nnpm start: the site and the proposal function are at http://localhost:${port}\n`);
      }
      if (isNoise(line) || /Static server listening to/.test(line)) return;
      out.write(`${line}\n`);
    });
  }
  child.once('exit', (code, signal) => {
    if (lostPort && restartsLeft > 0 && signal === null) {
      console.error('netlify serve lost a port to another process; starting it again on new ports');
      void startNetlify(restartsLeft - 1);
      return;
    }
    console.error(`netlify serve exited (${signal ?? code ?? 0})`);
    process.exit(typeof code === 'number' ? code : 1);
  });
}

await startNetlify(PORT_RACE_RESTARTS);
// The platform's clock for the scheduled function, on the inner port (the front server refuses it, as production does).
runSchedule(
  scheduleOf(join(site, 'netlify', 'functions', `${SCHEDULED_FUNCTION}.mts`)),
  () => `http://127.0.0.1:${innerPort}`,
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    netlify?.kill(signal);
    process.exit(0);
  });
}

/** Problem replies of the front server; their types are the function's own where one fits. */
function agentsPage(): string {
  try {
    const knowledge = JSON.parse(readFileSync(join(site, '.generated', 'knowledge.json'), 'utf8')) as {
      urls: { agents: string };
    };
    return knowledge.urls.agents;
  } catch {
    return 'about:blank';
  }
}

function refuse(res: ServerResponse, status: 408 | 413 | 502, detail: string): void {
  const type = status === 413 ? problemTypeUri(agentsPage(), 'payload-too-large') : 'about:blank';
  const title = { 408: 'Request Timeout', 413: 'The request body is too large', 502: 'Bad Gateway' }[status];
  const body = JSON.stringify({ type, title, status, detail });
  // The body may still be arriving: close the connection rather than read the rest.
  res.writeHead(status, {
    'content-type': 'application/problem+json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  });
  res.end(body);
}

/** The header rules' Content-Types, read once the build is there (./serve/untyped-files.ts). */
let types: ReturnType<typeof headerTypes> | undefined;

const HOP_BY_HOP = new Set([
  'transfer-encoding',
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
]);

/**
 * Hop-by-hop fields are one connection's, never passed on in either direction (RFC 9110 7.6.1): a
 * client's `Connection: close` forwarded made the next request on the pooled inner socket a bare 400,
 * and the inner reply's `Connection: keep-alive` passed back kept open the socket of a client that
 * asked to close it, whose next request was then a bare 400.
 */
function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name) && !named.includes(name)));
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  // Before anything reads the body: netlify serve would throw on a Host it cannot parse.
  if (!parseableHost(req.headers.host, req.url)) return refuseUnparseableHost(res);
  // A scheduled function has no URL on Netlify: only the local clock above invokes it.
  if (req.url?.startsWith(`/.netlify/functions/${SCHEDULED_FUNCTION}`)) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    return void res.end('Not found\n');
  }
  const hasBody = !['GET', 'HEAD', 'OPTIONS'].includes(req.method ?? 'GET');
  let body: Buffer | undefined;
  if (hasBody) {
    const read = await readBoundedBody(req);
    if (!read.ok) {
      if (read.reason === 'aborted') return void req.socket.destroy();
      return read.reason === 'too-large'
        ? refuse(res, 413, 'The body is larger than the 6 MB a function accepts.')
        : refuse(res, 408, 'The request body did not arrive in time.');
    }
    body = read.body;
  }
  // The Host stays the one the client used: the function sees its own address as the client does
  // (the MCP endpoint compares a browser's Origin with it).
  const headers = endToEnd(req.headers);
  if (body) headers['content-length'] = String(body.length);
  const upstream = forward(
    { host: '127.0.0.1', port: innerPort, method: req.method, path: req.url, headers },
    (reply) => {
      // The inner server's `Connection: keep-alive` would keep open a socket the client asked to close.
      const send = (headers = reply.headers) => {
        res.writeHead(reply.statusCode ?? 502, endToEnd(headers));
        reply.pipe(res);
      };
      // A file without an extension gets the type netlify.toml or _headers gives it, as on Netlify.
      if (reply.headers['content-type'] !== UNTYPED) return send();
      (types ??= headerTypes(site)).then(
        (typeFor) => send(typedHeaders(req, reply, typeFor)),
        () => send(),
      );
    },
  );
  upstream.once('error', () =>
    res.headersSent
      ? res.destroy()
      : refuse(res, 502, 'The local server is still starting or has stopped; retry in a moment.'),
  );
  res.once('close', () => upstream.destroy());
  upstream.end(body);
}

const server = createServer((req, res) => {
  handle(req, res).catch(() => res.destroy());
});
// Node's own limits: a client that never finishes its headers cannot hold a socket forever.
server.headersTimeout = 15_000;
server.requestTimeout = 30_000;
server.once('error', (error: NodeJS.ErrnoException) => {
  // Said plainly, so a caller that picked the port (the tests) can try another one.
  console.error(`npm start: cannot listen on ${host} port ${port}: ${error.code ?? error.message}`);
  netlify?.kill('SIGTERM');
  process.exit(1);
});
server.listen(port, host);
