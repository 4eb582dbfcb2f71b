/**
 * WARC files for the scan's tests and bench, written by warcio as Common Crawl lays out its
 * robots.txt subset: one gzip'd member a record, a `response` record per robots.txt fetch.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WARCRecord, WARCSerializer } from 'warcio';
import { SHARED } from './shared.ts';

/** One gzip'd WARC response record for `host`'s robots.txt (or a URL given whole). */
export async function warcRecord(
  host: string,
  status: string,
  body: Uint8Array | string,
  headers: Record<string, string> = {},
): Promise<Uint8Array> {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const made = await WARCRecord.create(
    {
      url: host.includes('://') ? host : `https://${host}/robots.txt`,
      date: '2026-10-05T12:00:00Z',
      type: 'response',
      warcVersion: 'WARC/1.1',
      statusline: `HTTP/1.1 ${status}`,
      httpHeaders: { 'Content-Type': 'text/plain', ...headers },
    },
    (async function* () {
      yield bytes;
    })(),
  );
  return WARCSerializer.serialize(made, { gzip: true });
}

/**
 * `count` records of corpus files served 200 (from file `from` on, round the corpus again
 * when it runs out), each under a host of its own (`<file's host>.x<n>`): one gzip'd WARC's
 * records, each a member.
 */
export async function corpusRecords(count: number, from = 0): Promise<Buffer[]> {
  const corpus = join(SHARED, 'corpus/robots');
  const names = (await readdir(corpus)).sort();
  const records: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const name = names[(from + i) % names.length]!;
    const host = `${name.replace(/\.txt$/, '')}.x${from + i}`;
    records.push(Buffer.from(await warcRecord(host, '200 OK', await readFile(join(corpus, name)))));
  }
  return records;
}
