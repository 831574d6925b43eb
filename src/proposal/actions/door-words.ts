/**
 * The actions state facts; a door says how they are done through it. An action's text that points
 * at another action or at the idempotency key takes the words of the door the request came in by,
 * so an HTTP client reads about headers and an MCP client about tools and arguments.
 */
import type { ProposalAction } from '../../contract/fields.ts';

export interface DoorWords {
  /** How a client runs an action through this door, e.g. `{"action":"summarize"} at <url>`. */
  action(action: ProposalAction): string;
  /** Where this door takes the idempotency key, e.g. `the Idempotency-Key header`. */
  key: string;
  /** Where the key is among the fields, when this door takes it with them (MCP's argument). */
  keyPointer?: string;
  /** Where this door publishes the request schemas, e.g. `GET /api/proposal`. */
  schemas: string;
}
