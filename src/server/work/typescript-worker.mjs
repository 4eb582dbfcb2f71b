// Worker entry when the service runs from its TypeScript sources (see workerModule in pool.ts).
import { tsImport } from 'tsx/esm/api';

const tasks = await tsImport('./tasks.ts', import.meta.url);
export const { explain, lint, diff, checks } = tasks;
