#!/usr/bin/env node
/**
 * The `repkit` command line. Each command lives in ./commands; this file wires them to the
 * argument parser and turns failures into one line on stderr and an exit status
 * (0 ok, 1 a URL disallowed or lint errors, 2 usage or input errors).
 */
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
import { registerTest } from './commands/test.ts';
import { registerMcp } from './commands/mcp.ts';
import { registerUsage } from './commands/usage.ts';
import { registerSitemaps } from './commands/sitemaps.ts';
import { registerScan } from './commands/scan.ts';
import { registerKeygen } from './commands/keygen.ts';
import { CliError } from './errors.ts';
import { oneLine, processOutput, type Output } from './output.ts';
import { edgeClientOptions, type EdgeOptions } from './fetching.ts';
import { checkWebBotAuth } from '../fetch/index.ts';
import { packageVersion } from './version.ts';

/**
 * `--json` among the arguments (before a `--`): the output is for a program, and so is an
 * error, which is then one JSON object on stdout (see `main`) rather than a line on stderr.
 */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json');
}

export function buildProgram(output: Output, json = false): Command {
  const program = new Command('repkit')
    .description('Robots Exclusion Protocol toolkit: robots.txt checks as Google makes them')
    .version(packageVersion(), '-V, --version', 'print the version')
    .showHelpAfterError(!json && '(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => process.stdout.write(text),
      writeErr: (text) => process.stderr.write(text),
      // Under --json, usage errors are written by `main`, as JSON.
      outputError: (text, write) => (json ? undefined : write(text)),
    });
  // A signing key is checked before any command fetches: a key that cannot be used is a
  // usage error (exit 2, with its cause), never every robots.txt "unreachable" (exit 3).
  program.hook('preAction', async (_program, command) => {
    const { webBotAuthKey, signatureAgent } = command.opts<EdgeOptions>();
    if (webBotAuthKey === undefined) return;
    await checkWebBotAuth(edgeClientOptions({ webBotAuthKey, signatureAgent }).webBotAuth!);
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
    registerSitemaps,
    registerScan,
    registerKeygen,
    registerServe,
    registerTest,
    registerMcp,
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
  const json = wantsJson(argv);
  const program = buildProgram(output, json);
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    // Help and version are "errors" to commander; they succeed.
    if (error instanceof CommanderError && error.exitCode === 0) return 0;
    const failure = describeFailure(error);
    if (!failure) throw error;
    if (json) {
      // As npm does under --json: the error as an object on stdout, where the answer would be.
      output.out(JSON.stringify({ error: failure }));
    } else if (!(error instanceof CommanderError)) {
      // (commander has written its own line.)
      output.err(`repkit: ${oneLine(failure.message)}`);
    }
    return failure.exitCode;
  }
}

/** What went wrong, for the user: a code, one line, and the exit status; undefined if a bug. */
function describeFailure(
  error: unknown,
): { code: string; message: string; exitCode: number } | undefined {
  if (error instanceof CommanderError) {
    // `commander.unknownOption` → `unknown-option`; its message starts with "error: ".
    const code = error.code
      .replace(/^commander\./, '')
      .replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    return { code, message: error.message.replace(/^error: /, ''), exitCode: 2 };
  }
  if (error instanceof CliError) {
    return { code: error.code, message: error.message, exitCode: error.exitCode };
  }
  if (error instanceof RepkitError)
    return { code: error.code, message: error.message, exitCode: 2 };
  return undefined;
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
