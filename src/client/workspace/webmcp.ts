/**
 * The workspace's steps as WebMCP tools, where the browser offers a model context, defined in the
 * page (`#webmcp-tools`, from the contract) so they exist without a request. Each tool fills the
 * visible form and runs the step a person would, so the person sees what the agent did.
 */
import type { WebmcpTool } from '../../contract/tools.ts';

type Action = WebmcpTool['action'];

export interface WorkspaceApi {
  fill(values: Record<string, unknown>): void;
  consent(agreed: boolean): void;
  run(action: Action): Promise<{ status: number; data: unknown } | undefined>;
}

interface ModelContext {
  registerTool(
    tool: Omit<WebmcpTool, 'action'> & { execute: (input: Record<string, unknown>) => Promise<unknown> },
    options: { signal: AbortSignal },
  ): Promise<undefined> | undefined;
}

const DECLARATIVE = ['toolname', 'tooldescription', 'toolparamdescription'];

/**
 * Takes over a form's declarative tool (the browser allows one tool per name, and removing the
 * attributes unregisters the form's); returns how to give it back should registering fail.
 */
function takeOver(action: Action): () => void {
  const form = document.querySelector<HTMLFormElement>(`form[data-step="${action}"]`)!;
  const saved = [form, ...form.querySelectorAll('[toolparamdescription]')].flatMap((el) =>
    DECLARATIVE.flatMap((attr) => {
      const value = el.getAttribute(attr);
      return value === null ? [] : [{ el, attr, value }];
    }),
  );
  // The form leaves the document meanwhile, so the browser never sees it half annotated.
  const swap = (apply: () => void) => {
    const place = document.createComment('');
    form.replaceWith(place);
    apply();
    place.replaceWith(form);
  };
  swap(() => saved.forEach(({ el, attr }) => el.removeAttribute(attr)));
  return () => swap(() => saved.forEach(({ el, attr, value }) => el.setAttribute(attr, value)));
}

const text = (value: unknown) => ({
  content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }],
});

export async function registerTools(api: WorkspaceApi): Promise<void> {
  const context =
    (document as { modelContext?: ModelContext }).modelContext ??
    (navigator as { modelContext?: ModelContext }).modelContext;
  if (!context) return;
  // The tools leave with the page; a page restored from the back/forward cache registers them again.
  const controller = new AbortController();
  addEventListener('pagehide', () => controller.abort(), { once: true });
  addEventListener('pageshow', (e) => e.persisted && void registerTools(api), { once: true });
  // The tool definitions the build wrote into the page, from the contract.
  const tools = JSON.parse(document.getElementById('webmcp-tools')?.textContent ?? '[]') as WebmcpTool[];
  for (const { action, ...tool } of tools) {
    const giveBack = takeOver(action);
    try {
      await context.registerTool(
        {
          ...tool,
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
        },
        { signal: controller.signal },
      );
    } catch {
      // Refused (or aborted as the page left): the form's declarative tool stays in its place.
      giveBack();
    }
  }
}
