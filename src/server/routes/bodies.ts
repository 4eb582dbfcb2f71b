import { Readable } from 'node:stream';
import type { ProfileName } from '../../core/index.ts';
import * as schema from '../schemas.ts';
import { WorkRefusedError } from '../work/pool.ts';
import type { DiffTask } from '../work/tasks.ts';
import { clientOf, type RouteContext } from './context.ts';

/** The routes on bodies given, nothing fetched, all run on the workers: explain, lint, diff. */
export function registerBodyRoutes(context: RouteContext): void {
  const { app, work, maxBatch, maxVerdicts } = context;

  app.post('/v1/explain', { schema: schema.explain }, async (request) => {
    const { robots, url, agent, profile } = request.body as {
      robots: string;
      url: string;
      agent: string | string[];
      profile?: ProfileName;
    };
    return work.run(
      'explain',
      { robots, url, agent, profile: profile ?? 'google' },
      clientOf(request),
    );
  });

  app.post('/v1/lint', { schema: schema.lint }, async (request) =>
    work.run('lint', { robots: (request.body as { robots: string }).robots }, clientOf(request)),
  );

  app.post('/v1/diff', { schema: schema.diff(maxBatch) }, async (request, reply) => {
    const body = request.body as Omit<DiffTask, 'profile' | 'maxVerdicts'> & {
      profile?: ProfileName;
    };
    const budget = (urls: number, agents: number) =>
      new WorkRefusedError(
        'budget',
        `body: ${urls} URLs × ${agents} agents × 2 files is ${urls * agents * 2} verdicts; one request may ask for ${maxVerdicts}`,
      );
    if (body.urls && body.agents && body.urls.length * body.agents.length * 2 > maxVerdicts) {
      throw budget(body.urls.length, body.agents.length);
    }
    const task: DiffTask = {
      ...body,
      profile: body.profile ?? 'google',
      maxVerdicts,
      maxAnswerBytes: context.maxDiffBytes,
    };
    const answer = await work.run('diff', task, clientOf(request));
    if ('tooMuch' in answer) throw budget(answer.tooMuch.urls, answer.tooMuch.agents);
    // Streamed a few changes at a time: the event loop (health, cached checks) goes on
    // between them, and no whole answer is held as one string.
    // `agent` is a list of names wherever a verdict says whom it is for (as in /v1/check).
    const { changes, truncated, ...rest } = answer;
    const head = truncated
      ? {
          ...rest,
          truncated: {
            ...truncated,
            summary: truncated.summary.map((group) => ({ ...group, agent: [group.agent] })),
          },
        }
      : rest;
    return reply.type('application/json').send(
      Readable.from(
        jsonWithList(head, 'changes', changes, (change) => ({
          ...change,
          agent: [change.agent],
        })),
      ),
    );
  });
}

/** `{...fields, [key]: list}` as JSON, in pieces of 64 items. */
function* jsonWithList<T>(
  fields: Record<string, unknown>,
  key: string,
  list: readonly T[],
  shape: (item: T) => unknown = (item) => item,
): Generator<string> {
  const head = JSON.stringify(fields);
  yield `${head.slice(0, -1)}${head.length > 2 ? ',' : ''}${JSON.stringify(key)}:[`;
  for (let i = 0; i < list.length; i += 64) {
    yield (
      (i > 0 ? ',' : '') +
      list
        .slice(i, i + 64)
        .map((item) => JSON.stringify(shape(item)))
        .join(',')
    );
  }
  yield ']}';
}
