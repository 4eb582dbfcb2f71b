import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse } from '../../src/core/index.ts';
import { caseBytes, conformanceCases } from '../helpers/shared.ts';

const cases = conformanceCases();

/**
 * STANDARD cases whose expectation RFC 9309 as written contradicts, with the reason. The
 * rfc9309 profile must fail exactly these (the list is checked both ways), and the README
 * lists them.
 */
export const RFC9309_EXCEPTIONS: Record<string, string> = {
  'correctness/non-ascii-paths#2.2':
    'RFC 9309 §2.2.2: non-ASCII URI octets MUST be %-encoded before comparison, so /foo/bar/ツ matches Allow: /foo/bar/ツ',
  'correctness/non-ascii-paths#3.2':
    'RFC 9309 §2.2.2: non-ASCII URI octets MUST be %-encoded before comparison, so /foo/bar/ツ matches Allow: /foo/bar/%E3%83%84',
  'correctness/non-ascii-paths#4.1':
    'RFC 9309 §2.2.2: %-encoded unreserved octets are decoded before comparison, so Allow: /foo/bar/%62%61%7A matches /foo/bar/baz',
  'stress/327748#1.6': 'RFC 9309 §2.2.2: the /robots.txt URI is implicitly allowed',
  'stress/369883#1.6': 'RFC 9309 §2.2.2: the /robots.txt URI is implicitly allowed',
  'stress/369883#1.10': 'RFC 9309 §2.2.2: the /robots.txt URI is implicitly allowed',
  'stress/860237#1.10': 'RFC 9309 §2.2.2: the /robots.txt URI is implicitly allowed',
};

describe("Google's conformance suite (google/robotstxt-spec-test)", () => {
  test('has all 400 cases', () => {
    assert.equal(cases.length, 400);
  });

  test('profile google: every case, from the exact bytes', () => {
    const failures = cases.filter(
      (c) => parse(caseBytes(c)).isAllowed(c.url, c.useragent) !== c.allowed,
    );
    assert.deepEqual(
      failures.map((c) => c.name),
      [],
    );
  });

  test('profile google: the same verdicts from the decoded string and from explain()', () => {
    for (const c of cases.filter((c) => !c.robotstxt.includes('\ufffd'))) {
      const robots = parse(c.robotstxt);
      assert.equal(robots.isAllowed(c.url, c.useragent), c.allowed, c.name);
      assert.equal(robots.explain(c.url, c.useragent).allowed, c.allowed, c.name);
    }
  });

  test('profile rfc9309: every STANDARD case except the listed contradictions', () => {
    const failing = cases
      .filter((c) => c.test_type === 'STANDARD')
      .filter(
        (c) =>
          parse(caseBytes(c), { profile: 'rfc9309' }).isAllowed(c.url, c.useragent) !== c.allowed,
      )
      .map((c) => c.name)
      .sort();
    assert.deepEqual(failing, Object.keys(RFC9309_EXCEPTIONS).sort());
  });
});
