/**
 * The command line's small libraries (argument parsing, colour, YAML for test specs and
 * lint configuration, file globs). At build time this
 * module is bundled with them into dist/cli/toolkit.js (scripts/postbuild.mjs), so they are
 * development dependencies: installing repkit as a library does not install them.
 */
export { Command, CommanderError, Option } from 'commander';
export { default as pc } from 'picocolors';
export { parseDocument, LineCounter, isMap, isSeq, isScalar, stringify } from 'yaml';
export type { Node as YamlNode, Pair as YamlPair } from 'yaml';
export { glob, isDynamicPattern } from 'tinyglobby';
