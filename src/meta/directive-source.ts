/** Where a directive was written. */
export interface DirectiveSource {
  /** A `<meta>` tag, or a response header. */
  kind: 'meta' | 'header';
  /** The meta name (`robots`, `googlebot`) or the crawler named in the header; `*` when generic. */
  agent: string;
  /** The directive as written. */
  text: string;
  /** `meta`: the line of the tag; `header`: which value of its field (1-based). */
  line?: number;
  /** `header`: which value of its field (1-based). */
  header?: number;
  /** The header field: `Robots-Tag` (draft-illyes-repext); X-Robots-Tag when absent. */
  field?: 'Robots-Tag';
}
