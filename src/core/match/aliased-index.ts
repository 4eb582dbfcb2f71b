import { considerMatch, type BestMatch, type MatchIndex, type RuleIndex } from './rule-index.ts';

/**
 * A selection's rules and, beside them, their index.html aliases (Google: `Allow:
 * /d/index.html` also allows `/d/`, as `/d/$`). Kept apart so that the rules' index, maybe
 * sorted by now, stays as it is when the first path ending in `/` asks for aliases: remade
 * with them, a 500 KiB file of such rules cost that check 35 to 80 ms. An alias ends in
 * `/$`, so only a path ending in `/` is matched against them. Positions `0..rules.size` are
 * the rules', the aliases' follow.
 */
export class AliasedIndex implements MatchIndex {
  readonly size: number;
  readonly #offset: number;

  constructor(
    private readonly rules: MatchIndex,
    private readonly aliases: RuleIndex,
  ) {
    this.#offset = rules.size;
    this.size = rules.size + aliases.size;
  }

  forEachMatch(path: string, visit: (position: number) => void): void {
    this.rules.forEachMatch(path, visit);
    if (!endsInSlash(path)) return;
    const offset = this.#offset;
    this.aliases.forEachMatch(path, (k) => visit(offset + k));
  }

  best(path: string, out: BestMatch): BestMatch {
    this.rules.best(path, out);
    if (!endsInSlash(path)) return out;
    const offset = this.#offset;
    this.aliases.forEachMatch(path, (k) => this.consider(out, offset + k));
    return out;
  }

  consider(out: BestMatch, k: number): void {
    considerMatch(this, out, k);
  }

  idAt(k: number): number {
    return k < this.#offset ? this.rules.idAt(k) : this.aliases.idAt(k - this.#offset);
  }
  priorityAt(k: number): number {
    if (k < 0) return -1;
    return k < this.#offset ? this.rules.priorityAt(k) : this.aliases.priorityAt(k - this.#offset);
  }
  lineAt(k: number): number {
    if (k < 0) return 0;
    return k < this.#offset ? this.rules.lineAt(k) : this.aliases.lineAt(k - this.#offset);
  }
  isAllowAt(k: number): boolean {
    return k < this.#offset ? this.rules.isAllowAt(k) : this.aliases.isAllowAt(k - this.#offset);
  }
}

function endsInSlash(path: string): boolean {
  return path.charCodeAt(path.length - 1) === 0x2f;
}
