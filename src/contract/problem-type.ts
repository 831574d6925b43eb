/** A problem's `type` URI: its row's anchor on the agents page. Free of imports, so the page script can use it. */

export const problemAnchor = (type: string): string => `problem-${type}`;

/** The `type` URI of a problem, e.g. `https://…/agents#problem-invalid-request`. */
export const problemTypeUri = (agentsPageUrl: string, type: string): string =>
  `${agentsPageUrl}#${problemAnchor(type)}`;

/** Whether a problem's `type` URI names this type, wherever the site is served. */
export const isProblemType = (uri: string | undefined, type: string): boolean =>
  uri?.endsWith(`#${problemAnchor(type)}`) === true;
