/**
 * Samples of the core's short-lived objects, kept for the life of the process.
 *
 * V8 keeps an object's hidden class only while some object has it, and when a collection
 * frees the last one it throws away the optimized code built for that class (a "weak
 * objects" deopt, seen with --trace-deopt). Tokenizers and group builders live only while a
 * file is parsed, so a full collection between parses (a one-shot CLI run, a serverless
 * call, a service whose cache churns) freed them all, and the next parses ran at half speed
 * while the engine re-optimized (issue 29). One small sample of each, made at the first parse
 * (see parse.ts), keeps their classes, and the code built for them, alive. So do a few small
 * results, each checked once (`RobotsTxt`, its tables, and a rule index of each class, the
 * index.html aliases' included): a crawler's checks run on the classes of results it may
 * not keep.
 */
const kept: object[] = [];

/** Keeps `sample` (a small instance made for the purpose) alive for good. */
export function keepShapeOf(sample: object): void {
  kept.push(sample);
}
