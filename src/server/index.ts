/** The repkit HTTP service (Node only). */
export {
  startService,
  DEFAULT_SERVICE_USER_AGENT,
  type ServiceOptions,
  type RunningService,
} from './service.ts';
export { createApp, type AppOptions } from './app.ts';
export { type AccessOptions } from './access.ts';
export { ServiceMetrics } from './metrics.ts';
export { isPrivateAddress } from '../fetch/internal.ts';
export { isPublicAddress } from '../fetch/index.ts';
export { WorkRefusedError, isWorkRefusedError, type WorkPoolOptions } from './work/pool.ts';
export { BadRequestError, isBadRequestError, OriginBudgetError } from './errors.ts';
export { budgetedRobotsFor, clientOf, type RouteContext } from './routes/context.ts';
