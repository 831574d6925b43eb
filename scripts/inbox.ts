/**
 * Lists and exports stored proposal requests (the "inbox" CRM).
 *
 *   node scripts/inbox.ts [list|export] [--format json|csv] [--out FILE] [--status pending|received]
 *                         [--site SITE_ID --token TOKEN]
 *
 * Locally it reads what `netlify serve` / `npm start` stored: the CLI runs a BlobsServer on
 * .netlify/blobs-serve/, which keeps each blob at entries/<site id>/site:<store>/<key> (metadata
 * beside it under metadata/). The site id is the linked site's (.netlify/state.json "siteId")
 * or "unlinked" for a project that was never linked. We start our own BlobsServer on the same
 * directory and read through @netlify/blobs, so the on-disk format stays the library's business.
 * With NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN (or --site/--token) it reads the deployed site.
 *
 * Runs on Node 24 type stripping: erasable TypeScript only.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { getStore, type Store } from '@netlify/blobs';
import { BlobsServer } from '@netlify/blobs/server';
import { listText, selectRecords, toCsv } from '../src/proposal/submit/inbox-export.ts';
import { PROPOSALS_STORE, RECORDS_PREFIX, type DeliveryState } from '../src/proposal/submit/record.ts';

/** netlify-cli's site id for a project that is not linked to a site (UNLINKED_SITE_MOCK_ID). */
const UNLINKED_SITE_ID = 'unlinked';

const USAGE = `Usage: node scripts/inbox.ts [list|export] [options]

  list                 one line per stored request (default)
  export               all stored requests as JSON (default) or CSV

  --format json|csv    export format
  --out FILE           write the export to FILE instead of standard output
  --status pending|received
                       only requests in this delivery state
  --site ID, --token T read a deployed site's store (default: $NETLIFY_SITE_ID, $NETLIFY_AUTH_TOKEN);
                       without them the local store of \`npm start\` in .netlify/blobs-serve/ is read
`;

interface Options {
  command: 'list' | 'export';
  format: 'json' | 'csv';
  out: string | undefined;
  status: DeliveryState | undefined;
  site: string | undefined;
  token: string | undefined;
}

/** An opened store plus a line saying where it is, and how to close it. */
interface Source {
  store: Store;
  where: string;
  close: () => Promise<void>;
}

function fail(message: string, code = 2): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

function readOptions(): Options {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        format: { type: 'string' },
        out: { type: 'string' },
        status: { type: 'string' },
        site: { type: 'string' },
        token: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    fail(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  const command = positionals[0] ?? 'list';
  if (command !== 'list' && command !== 'export') fail(`Unknown command "${command}".\n\n${USAGE}`);
  if (positionals.length > 1) fail(`Unexpected argument "${positionals[1]}".\n\n${USAGE}`);
  const format = values.format ?? 'json';
  if (format !== 'json' && format !== 'csv') fail(`--format must be json or csv.\n\n${USAGE}`);
  const status = values.status;
  if (status !== undefined && status !== 'pending' && status !== 'received') {
    fail(`--status must be pending or received.\n\n${USAGE}`);
  }
  return {
    command,
    format,
    out: values.out,
    status,
    site: values.site ?? nonEmpty(process.env['NETLIFY_SITE_ID']),
    token: values.token ?? nonEmpty(process.env['NETLIFY_AUTH_TOKEN']),
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === '' ? undefined : value;
}

/** The deployed site's store, through the Netlify API. */
function remoteSource(siteID: string, token: string): Source {
  return {
    store: getStore({ name: PROPOSALS_STORE, siteID, token }),
    where: `site ${siteID}`,
    close: async () => undefined,
  };
}

/**
 * The store `netlify serve` keeps on disk, or null (after printing why) when there is none.
 * Which site id directory holds it: the linked site's, else "unlinked", else any that has the
 * store (e.g. a site id given to the CLI by flag or environment).
 */
async function localSource(root: string): Promise<Source | null> {
  const directory = join(root, '.netlify', 'blobs-serve');
  const entries = join(directory, 'entries');
  const shown = relative(process.cwd(), directory) || directory;
  if (!existsSync(entries)) {
    process.stdout.write(
      `No local store yet: ${shown} does not exist.\n` +
        'Start the site with `npm start` and submit a proposal request, or pass --site and --token ' +
        '(or set NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN) to read a deployed site.\n',
    );
    return null;
  }
  const holdsStore = (siteID: string) =>
    existsSync(join(entries, siteID)) &&
    readdirSync(join(entries, siteID)).some((name) => name.endsWith(PROPOSALS_STORE));
  const candidates = [linkedSiteId(root), UNLINKED_SITE_ID, ...readdirSync(entries)].filter(
    (id): id is string => id !== undefined,
  );
  const siteID = candidates.find(holdsStore);
  if (siteID === undefined) {
    process.stdout.write(
      `No proposal requests stored locally yet (nothing under ${shown}/entries/*/site:${PROPOSALS_STORE}).\n`,
    );
    return null;
  }
  // Our own server on the same directory: the CLI's runs on a random port with a random token.
  const token = randomUUID();
  const server = new BlobsServer({ directory, token });
  const { port } = await server.start();
  const url = `http://127.0.0.1:${port}`;
  return {
    store: getStore({ name: PROPOSALS_STORE, siteID, token, edgeURL: url, uncachedEdgeURL: url }),
    where: `local store ${shown}, site ${siteID}`,
    close: () => server.stop(),
  };
}

function linkedSiteId(root: string): string | undefined {
  try {
    const state: unknown = JSON.parse(readFileSync(join(root, '.netlify', 'state.json'), 'utf8'));
    if (typeof state === 'object' && state !== null && 'siteId' in state && typeof state.siteId === 'string') {
      return state.siteId;
    }
  } catch {
    // No state file: the project is not linked.
  }
  return undefined;
}

async function readRecords(store: Store): Promise<unknown[]> {
  const { blobs } = await store.list({ prefix: RECORDS_PREFIX });
  const values: unknown[] = [];
  // A few at a time: enough to be quick, gentle on the API's rate limit.
  for (let i = 0; i < blobs.length; i += 8) {
    const batch = blobs.slice(i, i + 8).map(async ({ key }): Promise<unknown> => store.get(key, { type: 'json' }));
    values.push(...(await Promise.all(batch)));
  }
  return values;
}

async function main(): Promise<void> {
  const options = readOptions();
  if ((options.site === undefined) !== (options.token === undefined)) {
    fail(
      'Reading a deployed site needs both a site id and a token (--site and --token, or NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN).',
    );
  }
  const source =
    options.site !== undefined && options.token !== undefined
      ? remoteSource(options.site, options.token)
      : await localSource(process.cwd());
  if (source === null) return;
  try {
    const records = selectRecords(await readRecords(source.store), options.status);
    if (records.length === 0) {
      const which = options.status === undefined ? '' : `${options.status} `;
      process.stderr.write(`No ${which}proposal requests in the ${source.where}.\n`);
      if (options.command === 'list') return;
    }
    if (options.command === 'list') {
      process.stdout.write(`From the ${source.where}:\n${listText(records)}`);
      return;
    }
    const output = options.format === 'csv' ? toCsv(records) : `${JSON.stringify(records, null, 2)}\n`;
    if (options.out === undefined) process.stdout.write(output);
    else {
      await writeFile(options.out, output, { mode: 0o600 });
      process.stderr.write(`Wrote ${records.length} request${records.length === 1 ? '' : 's'} to ${options.out}.\n`);
    }
  } finally {
    await source.close();
  }
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  fail(`inbox: ${message}`, 1);
});
