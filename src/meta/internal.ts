/**
 * What repkit's other areas use of meta and users do not: not a package entry, and not part
 * of the public surface.
 */
export type { AppliedDirective } from './policy.ts';
export type { PolicyField } from './directives.ts';
