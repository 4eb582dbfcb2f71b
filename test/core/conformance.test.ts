/**
 * Google's conformance suite (google/robotstxt-spec-test), one runner per profile: each
 * profile declares which cases it runs and which of them it must fail, with the reason. The
 * list of exceptions is checked both ways, so an exception that starts passing fails too.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse, type ProfileName } from '../../src/core/index.ts';
import { caseBytes, conformanceCases } from '../helpers/shared.ts';

const cases = conformanceCases();

const ROBOTS_TXT_ALLOWED = 'RFC 9309 §2.2.2: the /robots.txt URI is implicitly allowed';

type Run =
  | {
      profile: ProfileName;
      types: readonly ('STANDARD' | 'GOOGLE_SPECIFIC')[];
      /** Cases this profile must fail, and why. */
      exceptions: Record<string, string>;
    }
  /** A profile the suite is not run on, and why (its own cases are elsewhere). */
  | { profile: ProfileName; notRun: string };

export const RUNS: readonly Run[] = [
  { profile: 'google', types: ['STANDARD', 'GOOGLE_SPECIFIC'], exceptions: {} },
  {
    profile: 'rfc9309',
    types: ['STANDARD'],
    exceptions: {
      'correctness/non-ascii-paths#2.2':
        'RFC 9309 §2.2.2: non-ASCII URI octets MUST be %-encoded before comparison, so /foo/bar/ツ matches Allow: /foo/bar/ツ',
      'correctness/non-ascii-paths#3.2':
        'RFC 9309 §2.2.2: non-ASCII URI octets MUST be %-encoded before comparison, so /foo/bar/ツ matches Allow: /foo/bar/%E3%83%84',
      'correctness/non-ascii-paths#4.1':
        'RFC 9309 §2.2.2: %-encoded unreserved octets are decoded before comparison, so Allow: /foo/bar/%62%61%7A matches /foo/bar/baz',
      'stress/327748#1.6': ROBOTS_TXT_ALLOWED,
      'stress/369883#1.6': ROBOTS_TXT_ALLOWED,
      'stress/369883#1.10': ROBOTS_TXT_ALLOWED,
      'stress/860237#1.10': ROBOTS_TXT_ALLOWED,
    },
  },
  {
    profile: 'legacy',
    notRun:
      'the 1996 standard differs from the suite by design (first match, substring names, literal * and $): its own cases are in profiles.test.ts',
  },
];

test('the suite has all 400 cases', () => {
  assert.equal(cases.length, 400);
});

for (const run of RUNS) {
  if ('notRun' in run) continue;
  describe(`profile ${run.profile}`, () => {
    const chosen = cases.filter((c) => run.types.includes(c.test_type));

    test(`${run.types.join(' and ')} cases from the exact bytes, except the listed ones`, () => {
      const failing = chosen
        .filter(
          (c) =>
            parse(caseBytes(c), { profile: run.profile }).isAllowed(c.url, c.useragent) !==
            c.allowed,
        )
        .map((c) => c.name)
        .sort();
      assert.deepEqual(failing, Object.keys(run.exceptions).sort());
    });

    test('the same verdicts from the decoded text, and from explain()', () => {
      for (const c of chosen.filter((c) => !c.robotstxt.includes('\ufffd'))) {
        const expected: boolean = c.name in run.exceptions ? !c.allowed : c.allowed;
        const robots = parse(c.robotstxt, { profile: run.profile });
        assert.equal(robots.isAllowed(c.url, c.useragent), expected, c.name);
        assert.equal(robots.explain(c.url, c.useragent).allowed, expected, c.name);
      }
    });
  });
}
