/**
 * The workspace's steps as WebMCP tools, registered where the browser offers a model context.
 * Input schemas are the published contract's request schemas (GET /api/proposal), less the
 * fields the page itself sets; each tool fills the visible form and runs the same step a person
 * would, so the person sees what the agent did. Submit requires consent and reuses the draft's
 * Idempotency-Key, so an agent's retry is never stored twice.
 */
type Action = 'guide' | 'summarize' | 'submit';
type Schema = { properties?: Record<string, unknown>; required?: string[]; [key: string]: unknown };

export interface WorkspaceApi {
  endpoint: string;
  fill(values: Record<string, unknown>): void;
  consent(agreed: boolean): void;
  run(action: Action): Promise<{ status: number; data: unknown } | undefined>;
}

interface ModelContext {
  registerTool(tool: {
    name: string;
    description: string;
    inputSchema: object;
    execute: (input: Record<string, unknown>) => Promise<unknown>;
    annotations?: { readOnlyHint?: boolean; consequentialHint?: boolean };
  }): void;
}

/**
 * Takes over a form's declarative tool: same name and wording, but the contract's full schema.
 * The browser allows one tool per name, and removing the attributes unregisters the form's.
 */
function takeOver(action: Action): { name: string; description: string } | undefined {
  const form = document.querySelector<HTMLFormElement>(`form[data-step="${action}"]`);
  const name = form?.getAttribute('toolname');
  const description = form?.getAttribute('tooldescription');
  if (!form || !name || !description) return undefined;
  // The parameter descriptions go too: without a tool name they would describe nothing. The
  // form leaves the document meanwhile, so the browser never sees it half annotated.
  const place = document.createComment('');
  form.replaceWith(place);
  for (const el of [form, ...form.querySelectorAll('[toolparamdescription]')]) {
    for (const attr of ['toolname', 'tooldescription', 'toolparamdescription']) el.removeAttribute(attr);
  }
  place.replaceWith(form);
  return { name, description };
}

/** Fields the page sets itself: the step, the consent version, the spam checks. */
const PAGE_SET = ['action', 'consent_version', 'website', 'form_started_at'];

function inputSchema(request: Schema): Schema {
  const { $schema: _drop, properties = {}, required = [], ...rest } = request;
  const kept = Object.fromEntries(Object.entries(properties).filter(([name]) => !PAGE_SET.includes(name)));
  // `consent` is `const: true` in the contract; the type makes the tool's parameter explicit.
  const consent = kept['consent'];
  if (consent && typeof consent === 'object') kept['consent'] = { type: 'boolean', ...consent };
  return { ...rest, properties: kept, required: required.filter((name) => !PAGE_SET.includes(name)) };
}

const text = (value: unknown) => ({
  content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }],
});

export async function registerTools(api: WorkspaceApi): Promise<void> {
  const context =
    (document as { modelContext?: ModelContext }).modelContext ??
    (navigator as { modelContext?: ModelContext }).modelContext;
  if (!context) return;
  let contract: { actions: Record<Action, { request_schema: Schema }> };
  try {
    const res = await fetch(api.endpoint, { headers: { accept: 'application/json' } });
    contract = (await res.json()) as typeof contract;
  } catch {
    return; // The forms' declarative tools stay as they are.
  }
  for (const action of ['guide', 'summarize', 'submit'] as const) {
    const tool = takeOver(action);
    if (!tool) continue;
    context.registerTool({
      ...tool,
      inputSchema: inputSchema(contract.actions[action].request_schema),
      annotations: { readOnlyHint: action !== 'submit', consequentialHint: action === 'submit' },
      async execute(input) {
        if (action === 'submit' && input['consent'] !== true) {
          return text('Not sent: the person must agree to the consent text first (consent: true).');
        }
        api.fill(input);
        if (action === 'submit') api.consent(true);
        const reply = await api.run(action);
        return text(
          reply
            ? { status: reply.status, body: reply.data }
            : 'No reply from the API: see the message shown on the page (a possible secret, or consent missing).',
        );
      },
    });
  }
}
