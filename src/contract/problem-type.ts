/**
 * The `type` URI of an RFC 9457 problem, built one way: the problem's anchor in the problem-type
 * table of the agents page. Small and free of imports, so the page script can use it too.
 */

/** The anchor of a problem type's row on the agents page, e.g. `problem-invalid-request`. */
export const problemAnchor = (type: string): string => `problem-${type}`;

/** The `type` URI of a problem, e.g. `https://…/agents#problem-invalid-request`. */
export const problemTypeUri = (agentsPageUrl: string, type: string): string =>
  `${agentsPageUrl}#${problemAnchor(type)}`;

/** Whether a problem's `type` URI names this type, wherever the site is served. */
export const isProblemType = (uri: string | undefined, type: string): boolean =>
  uri?.endsWith(`#${problemAnchor(type)}`) === true;
