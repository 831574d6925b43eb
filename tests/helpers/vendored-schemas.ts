/**
 * The JSON Schemas the site's MCP documents are held to, under tests/fixtures/schemas/ (README.md
 * there names each one's source and date: no network at test time), as validators that return
 * ajv's errors, none for a valid document.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { root } from '../../scripts/local-site/dist.ts';

const addFormats = addFormatsModule as unknown as <T extends Ajv | Ajv2020>(ajv: T) => T;

const fixture = (file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(root, 'tests/fixtures/schemas', file), 'utf8')) as Record<string, unknown>;

type Validate = (document: unknown) => ErrorObject[];

function validator(ajv: Ajv | Ajv2020, file: string, ref?: string): Validate {
  const id = `https://schemas.test/${file}`;
  ajv.addSchema({ ...fixture(file), $id: id });
  const validate = ajv.compile({ $ref: `${id}${ref ?? ''}` });
  return (document) => (validate(document) ? [] : [...(validate.errors ?? [])]);
}

const ajv2020 = addFormats(new Ajv2020({ strict: false, allErrors: true }));

/** SEP-2127's Server Card (JSON Schema 2020-12, no root schema: the `ServerCard` definition). */
export const validateServerCard = validator(ajv2020, 'server-card.v1.schema.json', '#/$defs/ServerCard');

/** The card's earlier shape (SEP-1649): a schema of our own, since none was published (README.md there). */
export const validateEarlierServerCard = validator(ajv2020, 'mcp-server-card-sep-1649.schema.json');

/** The official MCP Registry's server.json (JSON Schema draft-07; the 2025-12-11 version). */
export const validateRegistryServer = validator(
  addFormats(new Ajv({ strict: false, allErrors: true })),
  'server.2025-12-11.schema.json',
);
