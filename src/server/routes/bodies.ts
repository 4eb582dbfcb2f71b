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

  app.post('/v1/diff', { schema: schema.diff(maxBatch) }, async (request) => {
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
    const task: DiffTask = { ...body, profile: body.profile ?? 'google', maxVerdicts };
    const answer = await work.run('diff', task, clientOf(request));
    if ('tooMuch' in answer) throw budget(answer.tooMuch.urls, answer.tooMuch.agents);
    return answer;
  });
}
