/**
 * The command line's two small libraries (argument parsing, colour). At build time this
 * module is bundled with them into dist/cli/toolkit.js (scripts/postbuild.mjs), so they are
 * development dependencies: installing repkit as a library does not install them.
 */
export { Command, CommanderError, Option } from 'commander';
export { default as pc } from 'picocolors';
