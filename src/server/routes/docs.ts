/**
 * `/docs`: the API described for people, made from the service's own OpenAPI document (so it
 * never disagrees with it): each operation with its id, summary, parameters or body fields,
 * and every status it may answer. Plain HTML with no script, under the tester scope's
 * security headers.
 */

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: {
    name: string;
    in: string;
    required?: boolean;
    schema?: { description?: string };
  }[];
  requestBody?: {
    content?: Record<
      string,
      { schema?: { properties?: Record<string, { description?: string }>; required?: string[] } }
    >;
  };
  responses?: Record<string, { description?: string }>;
}

const escape = (text: string): string =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** The HTML page for an OpenAPI document. */
export function docsPage(openapi: {
  info?: { title?: string; description?: string };
  paths?: Record<string, Record<string, Operation>>;
}): string {
  const sections: string[] = [];
  for (const [path, methods] of Object.entries(openapi.paths ?? {})) {
    for (const [method, op] of Object.entries(methods)) {
      const fields = [
        ...(op.parameters ?? []).map(
          (p) =>
            `<li><code>${escape(p.name)}</code> (${escape(p.in)}${p.required ? ', required' : ''})${p.schema?.description ? `: ${escape(p.schema.description)}` : ''}</li>`,
        ),
        ...Object.entries(
          op.requestBody?.content?.['application/json']?.schema?.properties ?? {},
        ).map(
          ([name, field]) =>
            `<li><code>${escape(name)}</code> (body${op.requestBody?.content?.['application/json']?.schema?.required?.includes(name) ? ', required' : ''})${field.description ? `: ${escape(field.description)}` : ''}</li>`,
        ),
      ];
      const statuses = Object.entries(op.responses ?? {}).map(
        ([status, response]) =>
          `<li><code>${escape(status)}</code> ${escape(response.description ?? '')}</li>`,
      );
      sections.push(
        `<section id="${escape(op.operationId ?? `${method}-${path}`)}"><h2><code>${method.toUpperCase()} ${escape(path)}</code> <small>${escape(op.operationId ?? '')}${op.tags?.length ? ` · ${escape(op.tags.join(', '))}` : ''}</small></h2>` +
          `<p>${escape(op.summary ?? '')}</p>${op.description ? `<p>${escape(op.description)}</p>` : ''}` +
          (fields.length ? `<h3>Parameters</h3><ul>${fields.join('')}</ul>` : '') +
          `<h3>Answers</h3><ul>${statuses.join('')}</ul></section>`,
      );
    }
  }
  const title = escape(openapi.info?.title ?? 'API');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} API</title><style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}h2{font-size:1.1rem;margin-top:2rem}small{color:#666;font-weight:normal}code{font-size:.95em}</style></head><body><h1>${title} API</h1><p>${escape(openapi.info?.description ?? '')} Machine-readable: <a href="/openapi.json">/openapi.json</a>. Every error is <code>{ error, message, field? }</code>.</p>${sections.join('')}</body></html>`;
}
