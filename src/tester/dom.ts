/** A new element with a class and text, for the tester's pages. */
export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The page's element with `id`. */
export const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
