/**
 * The breakers of a RedisStore, one per Redis node: a hung node (stopped, or its host frozen)
 * keeps its connection open, and without a breaker every call to it would wait its own
 * timeout, so a crawler fleet would crawl at one check a second per task in flight. After
 * `breakAfter` calls to a node in a row time out, its breaker opens: calls for its keys are
 * answered by the fallback at once, and one probe at a time, `probeEveryMs` apart, asks the
 * node until it answers. On one server there is one node; on a cluster each master has its
 * own breaker, so a hung master holds up only the keys of its slots.
 */
export interface BreakerEvents {
  /** A node's breaker opened (its calls go to the fallback until a probe is answered). */
  opened(node: string): void;
  /** A probe was answered: the node's calls go to Redis again. */
  closed(node: string): void;
}

interface NodeState {
  timeoutsInARow: number;
  open: boolean;
  probe: NodeJS.Timeout | undefined;
}

export class Breakers {
  private readonly nodes = new Map<string, NodeState>();
  private stopped = false;

  constructor(
    private readonly options: {
      breakAfter: number;
      probeEveryMs: number;
      /** Asks the node again (a PING routed to it); resolves true when it answered in time. */
      probe: (node: string, key: string | undefined) => Promise<boolean>;
      events: BreakerEvents;
    },
  ) {}

  /** Whether calls to `node` go straight to the fallback now. */
  isOpen(node: string): boolean {
    return this.nodes.get(node)?.open ?? false;
  }

  /** Whether any node's breaker is open. */
  get anyOpen(): boolean {
    for (const state of this.nodes.values()) if (state.open) return true;
    return false;
  }

  /**
   * A call to `node` (for `key`) timed out. Returns true when this opened its breaker (the
   * caller says so once), false when it only counted.
   */
  timedOut(node: string, key: string | undefined): boolean {
    const state = this.state(node);
    if (state.open) return false;
    if (++state.timeoutsInARow < this.options.breakAfter) return false;
    state.open = true;
    this.scheduleProbe(node, state, key);
    this.options.events.opened(node);
    return true;
  }

  /** A call to `node` was answered in time. */
  answered(node: string): void {
    const state = this.nodes.get(node);
    if (state && !state.open) state.timeoutsInARow = 0;
  }

  /** Stops probing (the store is closing). */
  stop(): void {
    this.stopped = true;
    for (const state of this.nodes.values()) clearTimeout(state.probe);
  }

  private state(node: string): NodeState {
    let state = this.nodes.get(node);
    if (!state) {
      state = { timeoutsInARow: 0, open: false, probe: undefined };
      this.nodes.set(node, state);
    }
    return state;
  }

  private scheduleProbe(node: string, state: NodeState, key: string | undefined): void {
    if (this.stopped) return;
    state.probe = setTimeout(() => {
      void this.options.probe(node, key).then((answered) => {
        if (this.stopped) return;
        if (!answered) return this.scheduleProbe(node, state, key);
        state.open = false;
        state.timeoutsInARow = 0;
        state.probe = undefined;
        this.options.events.closed(node);
      });
    }, this.options.probeEveryMs);
    state.probe.unref();
  }
}
