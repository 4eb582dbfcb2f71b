/**
 * Samples of the core's short-lived objects, kept for the life of the process.
 *
 * V8 keeps an object's hidden class only while some object has it, and when a collection
 * frees the last one it throws away the optimized code built for that class (a "weak
 * objects" deopt, seen with --trace-deopt). Tokenizers and group builders live only while a
 * file is parsed, so a full collection between parses (a one-shot CLI run, a serverless
 * call, a service whose cache churns) freed them all, and the next parses ran at half speed
 * while the engine re-optimized (issue 29). One small sample of each, made at the first parse
 * (see parse.ts), keeps their classes, and the code built for them, alive. Results (`RobotsTxt`, its tables and
 * indexes) are kept alive by their users, or their code is not hot until they are.
 */
const kept: object[] = [];

/** Keeps `sample` (a small instance made for the purpose) alive for good. */
export function keepShapeOf(sample: object): void {
  kept.push(sample);
}
