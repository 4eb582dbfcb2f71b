/**
 * Redirects resolved within the records: a crawl records each hop of a robots.txt redirect as
 * a record of its own, usually side by side. A 3xx capture is held until the record of its
 * target is read (or was read just before), then measured as the response it led to, as a
 * crawler reads it: up to five hops, across hosts; more, a loop or a 3xx without `Location`
 * is no robots.txt at all. Memory is bounded: the records looked back on (`WINDOW_RECORDS`,
 * `WINDOW_BYTES`) and a redirect waits at most `WINDOW_RECORDS` records for its target.
 */
import type { Capture } from './analyze.ts';

/** Records a redirect looks back on, and waits for its target. */
export const WINDOW_RECORDS = 1_000;
/** Bytes of bodies kept for looking back: the oldest records are let go first. */
export const WINDOW_BYTES = 32 * 1024 * 1024;
/** Hops a crawler follows (Google: five). */
const MAX_HOPS = 5;

/** A 3xx capture on its way to the response it leads to. */
interface Held {
  capture: Capture;
  /** The URL asked for next. */
  next: string;
  hops: number;
  seen: Set<string>;
  /** The record it was read at, for letting it go after `WINDOW_RECORDS`. */
  at: number;
}

/** `captures` (each with its `url`), each 3xx resolved as far as the records go. */
export async function* resolveRedirects(captures: AsyncIterable<Capture>): AsyncGenerator<Capture> {
  const recent = new Map<string, Capture>();
  let recentBytes = 0;
  const waiting = new Map<string, Held[]>();
  let index = 0;
  const ready: Capture[] = [];

  const follow = (held: Held): void => {
    for (;;) {
      if (held.hops > MAX_HOPS || held.seen.has(held.next)) {
        ready.push(ended(held, 'no-file'));
        return;
      }
      const target = recent.get(held.next);
      if (!target) {
        const list = waiting.get(held.next) ?? [];
        list.push(held);
        waiting.set(held.next, list);
        return;
      }
      held.seen.add(held.next);
      if (!isRedirect(target.status)) {
        ready.push(answered(held, target));
        return;
      }
      const location = locationOf(target);
      if (location === undefined) {
        ready.push(ended(held, 'no-file'));
        return;
      }
      held.hops++;
      held.next = location;
    }
  };

  for await (const capture of captures) {
    index++;
    const url = capture.url;
    if (url !== undefined) {
      remember(url, capture);
      const held = waiting.get(url);
      if (held) {
        waiting.delete(url);
        for (const h of held) follow(h);
      }
    }
    if (isRedirect(capture.status) && url !== undefined) {
      const location = locationOf(capture);
      if (location === undefined)
        ready.push(capture); // measured as it is: no robots.txt
      else follow({ capture, next: location, hops: 1, seen: new Set([url]), at: index });
    } else {
      ready.push(capture);
    }
    // A redirect whose target has not come within the window is measured as unresolved.
    ready.push(...lapsed(waiting, index));
    yield* ready.splice(0);
  }
  for (const held of waiting.values()) for (const h of held) ready.push(ended(h, 'not-recorded'));
  yield* ready.splice(0);

  function remember(url: string, capture: Capture): void {
    const old = recent.get(url);
    if (old) {
      recent.delete(url);
      recentBytes -= old.body.length;
    }
    recent.set(url, capture);
    recentBytes += capture.body.length;
    for (const [key, kept] of recent) {
      if (recent.size <= WINDOW_RECORDS && recentBytes <= WINDOW_BYTES) break;
      recent.delete(key);
      recentBytes -= kept.body.length;
    }
  }
}

/** The redirects waiting `WINDOW_RECORDS` records already, taken out of `waiting`, ended. */
function lapsed(waiting: Map<string, Held[]>, index: number): Capture[] {
  const out: Capture[] = [];
  for (const [next, held] of waiting) {
    const kept = held.filter((h) => index - h.at < WINDOW_RECORDS);
    if (kept.length === held.length) continue;
    for (const h of held) if (!kept.includes(h)) out.push(ended(h, 'not-recorded'));
    if (kept.length > 0) waiting.set(next, kept);
    else waiting.delete(next);
  }
  return out;
}

function isRedirect(status: number): boolean {
  return status >= 300 && status < 400;
}

/** A 3xx's target, absolute, or undefined without a usable `Location`. */
function locationOf(capture: Capture): string | undefined {
  const location = capture.headers['location'];
  if (!location || capture.url === undefined) return undefined;
  try {
    return new URL(location, capture.url).href;
  } catch {
    return undefined;
  }
}

/** The first hop's capture measured as the response the chain reached. */
function answered(held: Held, target: Capture): Capture {
  return {
    ...held.capture,
    status: target.status,
    headers: target.headers,
    body: target.body,
    redirect: { hops: held.hops, url: held.next, end: 'answer' },
  };
}

/** The first hop's capture, its chain ended without an answer: no file, or not in the records. */
function ended(held: Held, end: 'no-file' | 'not-recorded'): Capture {
  return { ...held.capture, redirect: { hops: held.hops, url: held.next, end } };
}
