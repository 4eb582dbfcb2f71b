import { lookup as systemLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { BoundedMap } from '../../core/internal.ts';
import { bareHost, type AddressFilter } from './addresses.ts';
import { RefusedAddressError } from '../errors.ts';
import { Limiter } from './limiter.ts';

export interface ResolverOptions {
  /** Which addresses may be connected to. */
  allowAddress: AddressFilter;
  /** The name lookup underneath, as for `net.connect`. Default: the system's (`dns.lookup`). */
  lookup?: LookupFunction;
  /** Lookups running at once. Default 2 (`dns.lookup` holds one of libuv's 4 threads each). */
  maxConcurrent?: number;
  /** How long a caller waits for an address, queueing included. Default 5 s. */
  timeoutMs?: number;
  /** How long an answer is reused. Default 60 s; failures 5 s. */
  ttlMs?: number;
  /** Host names remembered. Default 10,000. */
  maxEntries?: number;
}

interface Remembered {
  until: number;
  answer: Promise<LookupAddress[]>;
}

const FAILURE_TTL_MS = 5_000;

/**
 * Host names to addresses for the fetch client, refusing what `allowAddress` refuses.
 *
 * `dns.lookup` runs on libuv's small thread pool (shared with zlib and the file system) and
 * cannot be cancelled, so a DNS server that never answers would otherwise hold every thread:
 * at most `maxConcurrent` lookups run at once (a slot is freed only when its lookup really
 * returns), callers give up after `timeoutMs`, concurrent callers for one name share one
 * lookup, and answers are remembered for `ttlMs` (bounded to `maxEntries` names).
 */
export class HostResolver {
  private readonly allowAddress: AddressFilter;
  private readonly underlying: LookupFunction;
  private readonly timeoutMs: number;
  private readonly ttlMs: number;
  private readonly remembered: BoundedMap<string, Remembered>;
  /** Lookups running at once (one key: the limit is on the whole resolver). */
  private readonly lookups: Limiter;

  constructor(options: ResolverOptions) {
    this.allowAddress = options.allowAddress;
    this.underlying = options.lookup ?? (systemLookup as unknown as LookupFunction);
    const maxConcurrent = options.maxConcurrent ?? 2;
    this.lookups = new Limiter(maxConcurrent, maxConcurrent, Infinity);
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.ttlMs = options.ttlMs ?? 60_000;
    this.remembered = new BoundedMap({ maxEntries: options.maxEntries ?? 10_000 });
  }

  /**
   * The addresses of `host` (an IP literal is its own address). Rejects with
   * `RefusedAddressError` when any of them is refused, or with the lookup's error.
   */
  async resolve(host: string): Promise<LookupAddress[]> {
    const bare = bareHost(host);
    const family = isIP(bare);
    const addresses = family ? [{ address: bare, family }] : await this.lookupName(bare);
    const refused = addresses.find((a) => !this.allowAddress(a.address));
    if (refused) throw new RefusedAddressError(host, refused.address);
    return addresses;
  }

  /** A `lookup` for `net.connect` and `tls.connect` that goes through `resolve`. */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    this.resolve(hostname).then(
      (addresses) => {
        const wanted = (options as { family?: number }).family;
        const list = wanted ? addresses.filter((a) => a.family === wanted) : addresses;
        if ((options as { all?: boolean }).all) {
          (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
        } else if (list.length === 0) {
          callback(
            Object.assign(new Error(`${hostname}: no IPv${wanted} address`), { code: 'ENOTFOUND' }),
            '',
            0,
          );
        } else {
          callback(null, list[0]!.address, list[0]!.family);
        }
      },
      (error: Error) => {
        if (error instanceof RefusedAddressError) Object.assign(error, { code: error.errno });
        callback(error as NodeJS.ErrnoException, '', 0);
      },
    );
  };

  private lookupName(host: string): Promise<LookupAddress[]> {
    const now = Date.now();
    const known = this.remembered.get(host);
    if (known && now < known.until) return known.answer;
    const answer = this.withTimeout(host, this.queued(host));
    const entry: Remembered = { until: now + this.ttlMs, answer };
    answer.catch(() => {
      entry.until = Math.min(entry.until, Date.now() + FAILURE_TTL_MS);
    });
    this.remembered.set(host, entry);
    return answer;
  }

  /** Runs the underlying lookup when a slot is free; the slot is held until it returns. */
  private queued(host: string): Promise<LookupAddress[]> {
    const lookup = () =>
      new Promise<LookupAddress[]>((done, fail) =>
        this.underlying(host, { all: true }, (error, addresses) =>
          error ? fail(error) : done(addresses as unknown as LookupAddress[]),
        ),
      );
    // Any number may wait (each caller has its timeout): nothing is refused here.
    return this.lookups.run('', lookup, () => {
      throw new Error(`${host}: lookup refused`);
    });
  }

  private withTimeout(host: string, answer: Promise<LookupAddress[]>): Promise<LookupAddress[]> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, fail) => {
      timer = setTimeout(
        () =>
          fail(
            Object.assign(new Error(`${host}: no DNS answer within ${this.timeoutMs} ms`), {
              code: 'EDNSTIMEOUT',
            }),
          ),
        this.timeoutMs,
      );
      timer.unref?.();
    });
    return Promise.race([answer, timeout]).finally(() => clearTimeout(timer));
  }
}
