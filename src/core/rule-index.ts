import { matchesAfterPrefix, type CompiledPattern } from './pattern.ts';

/** A rule as the matcher sees it. */
export interface IndexedRule {
  readonly kind: 'allow' | 'disallow';
  /** 1-based line of the rule in the robots.txt. */
  readonly line: number;
  /** Match priority: the pattern's length in octets (Google's longest-match). */
  readonly priority: number;
  readonly compiled: CompiledPattern;
}

interface RadixNode<R> {
  /** The edge label leading into this node (empty for the root). */
  label: string;
  children: Map<number, RadixNode<R>> | undefined;
  /** Rules whose literal prefix ends exactly at this node. */
  rules: R[];
}

/**
 * Rules indexed by literal prefix in a radix tree. A lookup walks the path once and only
 * tests the rules whose prefix the path starts with, so a file with thousands of rules does
 * not cost thousands of comparisons per URL. Nodes are created only where prefixes branch
 * (at most two per rule), which keeps memory proportional to the number of rules.
 */
export class RuleIndex<R extends IndexedRule> {
  private readonly root: RadixNode<R> = { label: '', children: undefined, rules: [] };
  readonly size: number;

  constructor(rules: readonly R[]) {
    for (const rule of rules) this.insert(rule.compiled.prefix, rule);
    this.size = rules.length;
  }

  private insert(key: string, rule: R): void {
    let node = this.root;
    let i = 0;
    for (;;) {
      if (i === key.length) {
        node.rules.push(rule);
        return;
      }
      const first = key.charCodeAt(i);
      node.children ??= new Map();
      const child = node.children.get(first);
      if (!child) {
        node.children.set(first, { label: key.slice(i), children: undefined, rules: [rule] });
        return;
      }
      const label = child.label;
      const max = Math.min(label.length, key.length - i);
      let common = 1;
      while (common < max && label.charCodeAt(common) === key.charCodeAt(i + common)) common++;
      if (common < label.length) {
        // Split the edge where the new key leaves it.
        const middle: RadixNode<R> = {
          label: label.slice(0, common),
          children: new Map([[label.charCodeAt(common), child]]),
          rules: [],
        };
        child.label = label.slice(common);
        node.children.set(first, middle);
        node = middle;
      } else {
        node = child;
      }
      i += common;
    }
  }

  /**
   * Calls `visit` for every rule that matches `path`, in index order (not file order).
   * Returning `true` from `visit` stops the walk.
   */
  forEachMatch(path: string, visit: (rule: R) => boolean | void): void {
    let node: RadixNode<R> | undefined = this.root;
    let depth = 0;
    while (node) {
      const rules = node.rules;
      for (let i = 0; i < rules.length; i++) {
        const rule = rules[i]!;
        if (matchesAfterPrefix(rule.compiled, path) && visit(rule) === true) return;
      }
      if (depth >= path.length || !node.children) return;
      const child: RadixNode<R> | undefined = node.children.get(path.charCodeAt(depth));
      if (!child || !path.startsWith(child.label, depth)) return;
      depth += child.label.length;
      node = child;
    }
  }

  /**
   * The longest-matching allow and disallow rules for `path` (ties: the earlier line), as
   * Google's matcher keeps them. Written without callbacks: this is the hot path of
   * `isAllowed`.
   */
  best(path: string, out: BestMatch<R>): BestMatch<R> {
    let allow: R | undefined;
    let disallow: R | undefined;
    let node: RadixNode<R> | undefined = this.root;
    let depth = 0;
    while (node) {
      const rules = node.rules;
      for (let i = 0; i < rules.length; i++) {
        const rule = rules[i]!;
        if (!matchesAfterPrefix(rule.compiled, path)) continue;
        if (rule.kind === 'allow') {
          if (!allow || isBetter(rule, allow)) allow = rule;
        } else if (!disallow || isBetter(rule, disallow)) {
          disallow = rule;
        }
      }
      if (depth >= path.length || !node.children) break;
      const child: RadixNode<R> | undefined = node.children.get(path.charCodeAt(depth));
      if (!child || !path.startsWith(child.label, depth)) break;
      depth += child.label.length;
      node = child;
    }
    out.allow = allow;
    out.disallow = disallow;
    return out;
  }
}

export interface BestMatch<R> {
  allow: R | undefined;
  disallow: R | undefined;
}

/** Longer pattern wins; among equals, the one on the earlier line (Google keeps the first). */
export function isBetter(a: IndexedRule, b: IndexedRule): boolean {
  return a.priority > b.priority || (a.priority === b.priority && a.line < b.line);
}
