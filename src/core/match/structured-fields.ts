/**
 * The Dictionary of RFC 9651 (Structured Field Values), as Content-Usage statements are
 * written (`train-ai=n, search=y`): parsed by §4.2.2's algorithm over the ASCII text, every
 * bare item type recognised, parameters read and dropped. The core keeps no dependency, so
 * this small parser lives here; a failure is `undefined`, never a throw.
 */

/** A member's value: a bare item by its type, or an inner list. */
export type SfItem =
  | { type: 'token'; value: string }
  | { type: 'string' | 'display'; value: string }
  | { type: 'integer' | 'decimal' | 'date'; value: number }
  | { type: 'boolean'; value: boolean }
  | { type: 'bytes'; value: string }
  | { type: 'inner-list'; value: SfItem[] };

class Fail extends Error {}

/** A List member (RFC 9651 §3.1): its item and its parameters' keys, in order. */
export interface SfListMember {
  item: SfItem;
  params: string[];
}

/** The members of a List, or undefined if it does not parse. */
export function parseList(input: string): SfListMember[] | undefined {
  return parsed(input, (parser) => parser.list());
}

/** The members in order (a repeated key keeps its last value), or undefined if it fails. */
export function parseDictionary(input: string): Map<string, SfItem> | undefined {
  return parsed(input, (parser) => parser.dictionary());
}

/** Runs one top-level parse; a syntax failure is undefined, anything else a real error. */
function parsed<T>(input: string, read: (parser: Parser) => T): T | undefined {
  try {
    return read(new Parser(input));
  } catch (error) {
    if (error instanceof Fail) return undefined;
    throw error;
  }
}

const isLcAlpha = (c: number) => c >= 0x61 && c <= 0x7a;
const isAlpha = (c: number) => isLcAlpha(c) || (c >= 0x41 && c <= 0x5a);
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
/** RFC 9110 tchar. */
const isTchar = (c: number) =>
  isAlpha(c) || isDigit(c) || "!#$%&'*+-.^_`|~".includes(String.fromCharCode(c));

class Parser {
  private pos = 0;
  constructor(private readonly text: string) {}

  private at(): number {
    return this.text.charCodeAt(this.pos);
  }

  list(): SfListMember[] {
    const members: SfListMember[] = [];
    this.members(() => {
      const item = this.at() === 0x28 ? this.innerList() : this.bareItem();
      members.push({ item, params: this.parameters() });
    });
    return members;
  }

  dictionary(): Map<string, SfItem> {
    const members = new Map<string, SfItem>();
    this.members(() => {
      const key = this.key();
      let item: SfItem;
      if (this.at() === 0x3d) {
        this.pos++;
        item = this.at() === 0x28 ? this.innerList() : this.bareItem();
      } else {
        item = { type: 'boolean', value: true };
      }
      this.parameters();
      members.set(key, item); // a repeated key keeps its last value
    });
    return members;
  }

  /** The whole input as comma-separated members (§4.2.1, §4.2.2), `member` reading each. */
  private members(member: () => void): void {
    this.skip(0x20);
    if (this.pos >= this.text.length) return;
    for (;;) {
      member();
      this.skipOws();
      if (this.pos >= this.text.length) return;
      if (this.at() !== 0x2c) throw new Fail();
      this.pos++;
      this.skipOws();
      if (this.pos >= this.text.length) throw new Fail(); // a trailing comma
    }
  }

  private key(): string {
    const start = this.pos;
    const first = this.at();
    if (!isLcAlpha(first) && first !== 0x2a) throw new Fail();
    this.pos++;
    for (;;) {
      const c = this.at();
      if (!(isLcAlpha(c) || isDigit(c) || c === 0x5f || c === 0x2d || c === 0x2e || c === 0x2a))
        break;
      this.pos++;
    }
    return this.text.slice(start, this.pos);
  }

  /** Parameters, read; their keys returned (values are not needed here). */
  private parameters(): string[] {
    const keys: string[] = [];
    while (this.at() === 0x3b) {
      this.pos++;
      this.skip(0x20);
      keys.push(this.key());
      if (this.at() === 0x3d) {
        this.pos++;
        this.bareItem();
      }
    }
    return keys;
  }

  private innerList(): SfItem {
    this.pos++; // (
    const items: SfItem[] = [];
    for (;;) {
      this.skip(0x20);
      if (this.at() === 0x29) {
        this.pos++;
        this.parameters();
        return { type: 'inner-list', value: items };
      }
      items.push(this.bareItem());
      this.parameters();
      const c = this.at();
      if (c !== 0x20 && c !== 0x29) throw new Fail();
    }
  }

  private bareItem(): SfItem {
    const c = this.at();
    if (c === 0x2d || isDigit(c)) return this.number('integer');
    if (c === 0x22) return { type: 'string', value: this.string() };
    if (isAlpha(c) || c === 0x2a) return { type: 'token', value: this.token() };
    if (c === 0x3a) return { type: 'bytes', value: this.bytes() };
    if (c === 0x3f) return { type: 'boolean', value: this.boolean() };
    if (c === 0x40) {
      this.pos++;
      const date = this.number('date');
      if (date.type !== 'date') throw new Fail();
      return date;
    }
    if (c === 0x25 && this.text.charCodeAt(this.pos + 1) === 0x22) {
      this.pos++;
      return { type: 'display', value: this.string() };
    }
    throw new Fail();
  }

  private number(as: 'integer' | 'date'): SfItem {
    const start = this.pos;
    if (this.at() === 0x2d) this.pos++;
    if (!isDigit(this.at())) throw new Fail();
    let dot = -1;
    while (isDigit(this.at()) || (this.at() === 0x2e && dot < 0 && as === 'integer')) {
      if (this.at() === 0x2e) dot = this.pos;
      this.pos++;
    }
    const text = this.text.slice(start, this.pos);
    const digits = text.replace('-', '').replace('.', '');
    if (
      dot < 0
        ? digits.length > 15
        : digits.length > 15 || this.pos - dot - 1 > 3 || this.pos - dot - 1 < 1
    ) {
      throw new Fail();
    }
    return dot < 0 ? { type: as, value: Number(text) } : { type: 'decimal', value: Number(text) };
  }

  private string(): string {
    this.pos++; // "
    let out = '';
    for (;;) {
      const c = this.at();
      if (Number.isNaN(c)) throw new Fail();
      this.pos++;
      if (c === 0x22) return out;
      if (c === 0x5c) {
        const next = this.at();
        if (next !== 0x22 && next !== 0x5c) throw new Fail();
        out += String.fromCharCode(next);
        this.pos++;
      } else if (c < 0x20 || c > 0x7e) {
        throw new Fail();
      } else {
        out += String.fromCharCode(c);
      }
    }
  }

  private token(): string {
    const start = this.pos;
    this.pos++;
    while (isTchar(this.at()) || this.at() === 0x3a || this.at() === 0x2f) this.pos++;
    return this.text.slice(start, this.pos);
  }

  private bytes(): string {
    const start = ++this.pos;
    while (this.pos < this.text.length && this.at() !== 0x3a) {
      const c = this.at();
      if (!(isAlpha(c) || isDigit(c) || c === 0x2b || c === 0x2f || c === 0x3d)) throw new Fail();
      this.pos++;
    }
    if (this.at() !== 0x3a) throw new Fail();
    return this.text.slice(start, this.pos++);
  }

  private boolean(): boolean {
    this.pos++;
    const c = this.at();
    if (c !== 0x30 && c !== 0x31) throw new Fail();
    this.pos++;
    return c === 0x31;
  }

  private skip(code: number): void {
    while (this.at() === code) this.pos++;
  }

  private skipOws(): void {
    while (this.at() === 0x20 || this.at() === 0x09) this.pos++;
  }
}
