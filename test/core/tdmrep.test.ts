/** W3C TDMRep files: parsing, the first matching location, and the order of precedence. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  MAX_TDMREP_RULES,
  parseTdmrep,
  readTdmReservation,
  resolveTdm,
} from '../../src/core/tdmrep-entry.ts';

const SPEC_EXAMPLE = JSON.stringify([
  { location: '/directory-a/', 'tdm-reservation': 1 },
  {
    location: '/directory-b/html/',
    'tdm-reservation': 1,
    'tdm-policy': 'https://provider.com/policies/policy.json',
  },
  { location: '/directory-b/images/*.jpg', 'tdm-reservation': 0 },
]);

test("the spec's example: each group of files gets its rule; other paths none", () => {
  const file = parseTdmrep(SPEC_EXAMPLE);
  assert.deepEqual(file.problems, []);
  assert.equal(file.match('https://provider.com/directory-a/x.pdf')?.reservation, 'reserved');
  const html = file.match('https://provider.com/directory-b/html/p.html');
  assert.deepEqual(
    [html?.reservation, html?.policy],
    ['reserved', 'https://provider.com/policies/policy.json'],
  );
  assert.equal(
    file.match('https://provider.com/directory-b/images/a/b.jpg')?.reservation,
    'not-reserved',
  );
  assert.equal(file.match('https://provider.com/directory-b/images/a.png'), undefined);
  assert.equal(file.match('https://provider.com/'), undefined);
});

test('the first match in sequence wins, not the longest; matching is case-sensitive', () => {
  const file = parseTdmrep(
    JSON.stringify([
      { location: '/', 'tdm-reservation': 0 },
      { location: '/private/', 'tdm-reservation': 1 },
    ]),
  );
  assert.equal(file.match('https://x.example/private/a')?.index, 0);
  const cased = parseTdmrep(JSON.stringify([{ location: '/Docs/', 'tdm-reservation': 1 }]));
  assert.equal(cased.match('https://x.example/docs/a'), undefined);
  assert.equal(cased.match('https://x.example/Docs/a')?.reservation, 'reserved');
});

test('robots.txt-style * and $, %-encoding as the spec says ($ matched verbatim as %24)', () => {
  const file = parseTdmrep(
    JSON.stringify([
      { location: '/this/path/exactly$', 'tdm-reservation': 1 },
      { location: '/this/*/then', 'tdm-reservation': 1 },
      { location: '/path/foo-%24', 'tdm-reservation': 1 },
      { location: '/caf%C3%A9/', 'tdm-reservation': 1 },
    ]),
  );
  assert.equal(file.match('https://p.example/this/path/exactly')?.index, 0);
  assert.equal(file.match('https://p.example/this/path/exactly/more'), undefined);
  assert.equal(file.match('https://p.example/this/a/b/then/x')?.index, 1);
  assert.equal(file.match('https://p.example/path/foo-$')?.index, 2);
  // An unreserved character written %-encoded is the same character.
  assert.equal(file.match('https://p.example/path/foo-%24x')?.index, 2);
  assert.equal(file.match('https://p.example/caf%c3%a9/menu')?.index, 3);
  assert.equal(
    parseTdmrep(JSON.stringify([{ location: '/%7Euser/', 'tdm-reservation': 1 }])).match(
      'https://p.example/~user/a',
    )?.index,
    0,
  );
});

test('bad input: never thrown, reported, used as far as it goes', () => {
  assert.deepEqual(parseTdmrep('<html>not json</html>').rules, []);
  assert.match(parseTdmrep('<html>').problems[0]!, /not JSON/);
  assert.deepEqual(parseTdmrep('{"location": "/"}').problems, ['not a JSON array of rules']);
  const file = parseTdmrep(
    '\ufeff' +
      JSON.stringify([
        'nope',
        { 'tdm-reservation': 1 },
        { location: '/a/', 'tdm-reservation': 2 },
        { location: '/a/', 'tdm-reservation': '1', 'tdm-policy': 7 },
      ]),
  );
  assert.deepEqual(file.problems, [
    'rule 1: not an object; skipped',
    'rule 2: no "location"; skipped',
    'rule 3: "tdm-reservation" is 2, not 0 or 1: unset for its location',
    'rule 4: "tdm-policy" is not a string; ignored',
  ]);
  // Rule 3 matches first and leaves the reservation unset, as the spec says.
  const hit = file.match('https://x.example/a/b');
  assert.deepEqual([hit?.index, hit?.reservation], [2, undefined]);
  const many = parseTdmrep(
    JSON.stringify(
      Array.from({ length: MAX_TDMREP_RULES + 5 }, (_, i) => ({
        location: `/${i}/`,
        'tdm-reservation': 1,
      })),
    ),
  );
  assert.equal(many.rules.length, MAX_TDMREP_RULES);
  assert.match(many.problems.at(-1)!, /past the first 1000/);
});

test('values: 1 and 0 as numbers or text; anything else unset', () => {
  assert.deepEqual([1, 0, '1', ' 0 ', 'yes', 2, true, null].map(readTdmReservation), [
    'reserved',
    'not-reserved',
    'reserved',
    'not-reserved',
    undefined,
    undefined,
    undefined,
    undefined,
  ]);
});

test('precedence: file, then header, then meta; silence resets nothing; policy only while reserved', () => {
  const file = {
    kind: 'tdmrep',
    url: 'https://x/.well-known/tdmrep.json',
    rule: 0,
    location: '/',
  } as const;
  const header = { kind: 'header', field: 'tdm-reservation', text: '0' } as const;
  const meta = { kind: 'meta', name: 'tdm-policy', line: 3, text: 'https://x/p2.json' } as const;
  assert.deepEqual(resolveTdm([]), { reservation: 'unset', statements: [] });
  const a = resolveTdm([
    { source: file, reservation: 'reserved', policy: 'https://x/p1.json' },
    { source: meta, policy: 'https://x/p2.json' },
  ]);
  assert.deepEqual([a.reservation, a.policy, a.decidedBy], ['reserved', 'https://x/p2.json', file]);
  const b = resolveTdm([
    { source: file, reservation: 'reserved', policy: 'https://x/p1.json' },
    { source: header, reservation: 'not-reserved' },
  ]);
  assert.deepEqual([b.reservation, b.policy, b.decidedBy], ['not-reserved', undefined, header]);
});

test('a value nested thousands deep is described, not walked: no stack overflow', () => {
  const deep = '['.repeat(5_000) + ']'.repeat(5_000);
  for (const body of [
    `[{"location": "/", "tdm-reservation": ${deep}}]`,
    `[{"location": "/", "tdm-reservation": {"a": ${deep}}}]`,
    deep,
  ]) {
    const file = parseTdmrep(body);
    assert.equal(file.rules.length, body === deep ? 0 : 1);
    assert.ok(file.problems.length > 0);
    for (const problem of file.problems) assert.ok(problem.length < 200, problem);
  }
  assert.match(
    parseTdmrep(`[{"location": "/", "tdm-reservation": ${deep}}]`).problems[0]!,
    /"tdm-reservation" is an array, not 0 or 1/,
  );
  assert.match(
    parseTdmrep(`[{"location": "/", "tdm-reservation": "${'y'.repeat(500)}"}]`).problems[0]!,
    /is "y{39}…, not 0 or 1/,
  );
});

test('long paths and repeated locations: the first match in sequence, as a plain scan finds it', () => {
  // The character-set test and the memo of failed locations only skip work: over long and
  // short paths, and locations repeated, the answer is the first location a plain scan matches.
  const locations = ['/*a0', '/*a0', '/*b*c$', '/x/*', '/*a*a*9', '/*a0', '/*', '/*é'];
  const file = parseTdmrep(
    JSON.stringify(locations.map((location) => ({ location, 'tdm-reservation': 1 }))),
  );
  const paths = [
    `/${'a'.repeat(300)}`,
    `/${'a'.repeat(300)}0`,
    `/${'b'.repeat(300)}c`,
    `/x/${'a'.repeat(300)}9`,
    `/${'a'.repeat(300)}9`,
    `/${'a'.repeat(300)}é`,
    '/a0',
    '/bc',
  ];
  for (const path of paths) {
    const url = `https://example.com${path}`;
    const alone = (location: string) =>
      parseTdmrep(JSON.stringify([{ location, 'tdm-reservation': 1 }])).match(url);
    const plain = file.rules.find((rule) => alone(rule.location));
    assert.equal(file.match(url)?.index, plain?.index, path);
  }
  assert.equal(file.match(`https://example.com/${'a'.repeat(300)}`)?.index, 6);
  assert.equal(file.match(`https://example.com/${'a'.repeat(300)}0`)?.index, 0);
});
