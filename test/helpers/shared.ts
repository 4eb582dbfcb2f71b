import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * ../shared beside the checkout (CI clones main with shared/ next to it). Tests that read it
 * fail, never skip, when it is missing.
 */
export const SHARED = resolve(ROOT, '../shared');

export interface ConformanceCase {
  name: string;
  file: string;
  robotstxt: string;
  robotstxt_b64: string;
  useragent: string;
  url: string;
  allowed: boolean;
  test_type: 'STANDARD' | 'GOOGLE_SPECIFIC';
  explanation?: string;
}

export function conformanceCases(): ConformanceCase[] {
  const path = resolve(SHARED, 'conformance/google-spec-test.json');
  return JSON.parse(readFileSync(path, 'utf8')) as ConformanceCase[];
}

/** The exact bytes of a conformance case's robots.txt. */
export function caseBytes(c: ConformanceCase): Uint8Array {
  return new Uint8Array(Buffer.from(c.robotstxt_b64, 'base64'));
}
