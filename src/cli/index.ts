#!/usr/bin/env node
/**
 * The `repkit` command line. Each command lives in ./commands; this file wires them to the
 * argument parser and turns failures into one line on stderr and an exit status
 * (0 ok, 1 a URL disallowed or lint errors, 2 usage or input errors).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from './toolkit.ts';
import { RepkitError } from '../core/index.ts';
import { registerAgents } from './commands/agents.ts';
import { registerBatch } from './commands/batch.ts';
import { registerCheck } from './commands/check.ts';
import { registerDiff } from './commands/diff.ts';
import { registerExplain } from './commands/explain.ts';
import { registerFetch } from './commands/fetch.ts';
import { registerLint } from './commands/lint.ts';
import { registerMeta } from './commands/meta.ts';
import { registerServe } from './commands/serve.ts';
import { registerUsage } from './commands/usage.ts';
import { CliError } from './errors.ts';
import { processOutput, type Output } from './output.ts';

/** The package's version, read from its package.json (beside dist/ or src/). */
function packageVersion(): string {
  const path = fileURLToPath(new URL('../../package.json', import.meta.url));
  return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
}

export function buildProgram(output: Output): Command {
  const program = new Command('repkit')
    .description('Robots Exclusion Protocol toolkit: robots.txt checks as Google makes them')
    .version(packageVersion(), '-V, --version', 'print the version')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => process.stdout.write(text),
      writeErr: (text) => process.stderr.write(text),
    });
  for (const register of [
    registerCheck,
    registerExplain,
    registerLint,
    registerFetch,
    registerDiff,
    registerBatch,
    registerAgents,
    registerMeta,
    registerUsage,
    registerServe,
  ]) {
    register(program, output);
  }
  return program;
}

export async function main(argv: string[]): Promise<number> {
  // A reader that stops early (`| head`) closes the pipe: stop quietly, as Unix tools do.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE')
        process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
      throw error;
    });
  }
  const output = processOutput();
  const program = buildProgram(output);
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are "errors" to commander; they succeed.
      return error.exitCode === 0 ? 0 : 2;
    }
    if (error instanceof CliError) {
      output.err(`repkit: ${error.message}`);
      return error.exitCode;
    }
    if (error instanceof RepkitError) {
      output.err(`repkit: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`repkit: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = 70;
  },
);
