/**
 * Lists and exports stored proposal requests (the "inbox" CRM).
 *
 *   node scripts/inbox.ts [list|export] [--format json|csv] [--out FILE] [--status pending|received|failed]
 *                         [--site SITE_ID --token TOKEN]
 *   node scripts/inbox.ts redeliver [--no-mail] [--no-chat]   the function's background sweep, now (scripts/inbox/redeliver.ts)
 *   node scripts/inbox.ts delete REQUEST_ID | delete --email ADDRESS
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
import { BlobsServer } from '@netlify/blobs/server';
import { listText, selectRecords, toCsv } from './inbox/export.ts';
import { REDELIVER_USAGE, RedeliverRefused, redeliver, type RedeliverOptions } from './inbox/redeliver.ts';
import { isProposalRecord, recordKey, REQUESTS_PREFIX, type ProposalRecord } from '../src/proposal/submit/record.ts';
import { PROPOSALS_STORE, ProposalsStore } from '../src/proposal/store/blobs.ts';
import { forget } from '../src/proposal/store/tally.ts';
import { removePointer } from '../src/proposal/store/keys.ts';
import { unmarkDue } from '../src/proposal/work/due.ts';
import { addressTally } from '../src/proposal/limits/send-gates.ts';

type DeliveryState = ProposalRecord['delivery']['state'] | 'held';

/** netlify-cli's site id for a project that is not linked to a site (UNLINKED_SITE_MOCK_ID). */
const UNLINKED_SITE_ID = 'unlinked';

const USAGE = `Usage: node scripts/inbox.ts [list|export|redeliver|delete] [options]

  list                 one line per stored request (default)
  export               all stored requests as JSON (default) or CSV
  redeliver            run the scheduled function's work now: deliver pending requests to the CRM
                       (without waiting for their backoff), send owed emails and notices, delete
                       what time deletes (requests past RETENTION_DAYS). Uses the CRM_*,
                       SMTP_*, NOTIFY_* and REDELIVERY_* variables of the environment or .env, and the
                       partner facts of .generated/ (npm run build). On a deployed site it refuses
                       without CRM_PROVIDER (and its variables), SMTP_URL and MAIL_FROM, and
                       NOTIFY_WEBHOOK_URL, unless told the site has no mail or chat (below). A request
                       accepted for another CRM than the configured one is not delivered
  delete REQUEST_ID    erase one request with its Idempotency-Key pointer and due entry
  delete --email ADDR  erase every request sent from this address

  --format json|csv    export format
  --out FILE           write the export to FILE instead of standard output
  --status pending|received|failed|held
                       only requests in this state (held: waiting for the person's confirmation)
  --email ADDR         with delete: the sender's address (case-insensitive)
${REDELIVER_USAGE}
  --site ID, --token T read a deployed site's store (default: $NETLIFY_SITE_ID, $NETLIFY_AUTH_TOKEN);
                       without them the local store of \`npm start\` in .netlify/blobs-serve/ is read
`;

type Command = 'list' | 'export' | 'redeliver' | 'delete';
const COMMANDS: readonly string[] = ['list', 'export', 'redeliver', 'delete'];

interface Options {
  command: Command;
  /** delete: the request id, or the sender's address. */
  target: { requestId: string } | { email: string } | undefined;
  format: 'json' | 'csv';
  out: string | undefined;
  status: DeliveryState | undefined;
  site: string | undefined;
  token: string | undefined;
  redeliver: RedeliverOptions;
}

/** An opened store plus a line saying where it is, whether it is a deployed site's, and how to close it. */
interface Source {
  store: ProposalsStore;
  where: string;
  deployed: boolean;
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
        email: { type: 'string' },
        'no-mail': { type: 'boolean' },
        'no-chat': { type: 'boolean' },
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
  const command = (positionals[0] ?? 'list') as Command;
  if (!COMMANDS.includes(command)) fail(`Unknown command "${command}".\n\n${USAGE}`);
  let target: Options['target'];
  if (command === 'delete') {
    const id = positionals[1];
    if ((id === undefined) === (values.email === undefined))
      fail(`delete needs a REQUEST_ID or --email ADDRESS (one of them).\n\n${USAGE}`);
    target = id !== undefined ? { requestId: id } : { email: values.email! };
    if (positionals.length > 2) fail(`Unexpected argument "${positionals[2]}".\n\n${USAGE}`);
  } else {
    if (positionals.length > 1) fail(`Unexpected argument "${positionals[1]}".\n\n${USAGE}`);
    if (values.email !== undefined) fail(`--email goes with delete.\n\n${USAGE}`);
  }
  const noMail = values['no-mail'] === true;
  const noChat = values['no-chat'] === true;
  if (command !== 'redeliver' && (noMail || noChat)) fail(`--no-mail and --no-chat go with redeliver.\n\n${USAGE}`);
  const format = values.format ?? 'json';
  if (format !== 'json' && format !== 'csv') fail(`--format must be json or csv.\n\n${USAGE}`);
  const status = values.status;
  if (status !== undefined && !['pending', 'received', 'failed', 'held'].includes(status)) {
    fail(`--status must be pending, received, failed or held.\n\n${USAGE}`);
  }
  return {
    command,
    target,
    format,
    out: values.out,
    status: status as DeliveryState | undefined,
    site: values.site ?? nonEmpty(process.env['NETLIFY_SITE_ID']),
    token: values.token ?? nonEmpty(process.env['NETLIFY_AUTH_TOKEN']),
    redeliver: { noMail, noChat },
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === '' ? undefined : value;
}

/** The deployed site's store, through the Netlify API. */
function remoteSource(siteID: string, token: string): Source {
  return {
    store: new ProposalsStore({ location: { siteID, token } }),
    where: `site ${siteID}`,
    deployed: true,
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
    store: new ProposalsStore({ location: { siteID, token, edgeURL: url, uncachedEdgeURL: url } }),
    where: `local store ${shown}, site ${siteID}`,
    deployed: false,
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

/** Every stored request's value, unchecked (selectRecords checks their shape). */
async function readAllRecords(store: ProposalsStore): Promise<unknown[]> {
  const keys = await store.listWhile(`${REQUESTS_PREFIX}/`);
  return (await Promise.all(keys.map(async (key) => (await store.read(key))?.value))).filter((v) => v !== undefined);
}

/** A request, its key's pointer (while it names it) and its due entry; returns what existed. */
async function eraseRecord(store: ProposalsStore, record: ProposalRecord): Promise<string[]> {
  await removePointer(store, record.idempotency_entry, record.request_id);
  if (record.due_at !== undefined) await unmarkDue(store, record.due_at, REQUESTS_PREFIX, record.request_id);
  await store.remove(recordKey(record.request_id));
  return [recordKey(record.request_id), record.idempotency_entry];
}

async function erase(source: Source, target: NonNullable<Options['target']>): Promise<void> {
  const { store } = source;
  let records: ProposalRecord[];
  if ('requestId' in target) {
    const value = (await store.read(recordKey(target.requestId)))?.value;
    records = isProposalRecord(value) ? [value] : [];
  } else {
    const wanted = target.email.trim().toLowerCase();
    records = selectRecords(await readAllRecords(store)).filter(
      (record) => record.contact.email.toLowerCase() === wanted,
    );
  }
  const what = 'requestId' in target ? `request ${target.requestId}` : `requests from ${target.email}`;
  // The send limits' count of the address's requests is about the person too.
  const tally = 'email' in target && (await forget(store, addressTally(target.email), new Date()));
  if (tally) process.stdout.write(`Deleted the count of requests from ${target.email} (send limits).\n`);
  if (records.length === 0) {
    process.stdout.write(`Nothing to delete: no ${what} in the ${source.where}.\n`);
    return;
  }
  const lines = [`Deleted from the ${source.where}:`];
  for (const record of records) {
    const removed = await eraseRecord(store, record);
    lines.push(`  request ${record.request_id} (received ${record.received_at}): ${removed.join(', ')}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function main(): Promise<void> {
  // The function's log lines are diagnostics here: all on stderr (console.info writes to stdout), so
  // stdout holds only the report or the export.
  console.info = console.warn;
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
    if (options.command === 'redeliver') {
      process.stdout.write(await redeliver(source, options.redeliver));
      return;
    }
    if (options.command === 'delete') return await erase(source, options.target!);
    const records = selectRecords(await readAllRecords(source.store), options.status);
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
  if (error instanceof RedeliverRefused) fail(error.message);
  const message = error instanceof Error ? error.message : String(error);
  fail(`inbox: ${message}`, 1);
});
