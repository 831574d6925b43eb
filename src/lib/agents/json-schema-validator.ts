/** Build-time validation of published JSON documents against their JSON Schema 2020-12. */
import { Ajv2020 } from 'ajv/dist/2020.js';
// CommonJS whose `module.exports` is the plugin itself (with `.default` pointing back at it).
import addFormats from 'ajv-formats';

/** Throws an error listing every mismatch, so a bad build names the field that broke. */
export function assertMatchesSchema(name: string, schema: object, value: unknown): void {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  if (!validate(value)) {
    const errors = (validate.errors ?? []).map(
      (e) => `  ${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
    );
    throw new Error(`${name} does not match its JSON Schema:\n${errors.join('\n')}`);
  }
}
