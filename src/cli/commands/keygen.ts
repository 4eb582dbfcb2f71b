import { createHash, generateKeyPairSync } from 'node:crypto';
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { CliError } from '../errors.ts';
import type { Output } from '../output.ts';

/** The path of the key directory a site's verifiers read (Web Bot Auth). */
export const KEY_DIRECTORY_PATH = '/.well-known/http-message-signatures-directory';
/** Its media type. */
export const KEY_DIRECTORY_TYPE = 'application/http-message-signatures-directory+json';

/** A new signing key, and what to publish for it. */
export interface GeneratedKey {
  /** The private key as a JWK (`kty`, `crv`, `x`, `d`, `kid`): what `--web-bot-auth-key` reads. */
  privateJwk: { kty: 'OKP'; crv: 'Ed25519'; x: string; d: string; kid: string };
  /** The key directory to serve at KEY_DIRECTORY_PATH: `{ keys: [public JWK] }`. */
  directory: { keys: { kty: 'OKP'; crv: 'Ed25519'; x: string; kid: string }[] };
}

/**
 * A new Ed25519 key for Web Bot Auth; its `kid` is its JWK thumbprint (RFC 7638, SHA-256),
 * the key id repkit signs with.
 */
export function generateKey(): GeneratedKey {
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' }) as { x: string; d: string };
  // RFC 7638: the required members, in lexical order, no spaces.
  const canonical = JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x: jwk.x });
  const kid = createHash('sha256').update(canonical).digest('base64url');
  return {
    privateJwk: { kty: 'OKP', crv: 'Ed25519', x: jwk.x, d: jwk.d, kid },
    directory: { keys: [{ kty: 'OKP', crv: 'Ed25519', x: jwk.x, kid }] },
  };
}

interface KeygenOptions {
  out: string;
  directory?: string;
  force?: boolean;
}

/** `repkit keygen`: writes the private key (owner-only) and prints or writes the directory. */
export function runKeygen(options: KeygenOptions, output: Output): void {
  const key = generateKey();
  const write = (path: string, text: string, mode: number) => {
    try {
      writeFileSync(path, text, { mode, flag: options.force ? 'w' : 'wx' });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') {
        throw new CliError(`${path} exists: not overwritten (give --force to replace it)`);
      }
      throw new CliError(`cannot write ${path}: ${(error as Error).message}`);
    }
  };
  const directory = `${JSON.stringify(key.directory, null, 2)}\n`;
  // Both places are looked at before either is written: a mistyped --directory left a key
  // behind whose directory was never written (and which a second run would not replace).
  for (const path of [options.out, ...(options.directory ? [options.directory] : [])]) {
    refuseUnwritable(path, options.force === true);
  }
  write(options.out, `${JSON.stringify(key.privateJwk, null, 2)}\n`, 0o600);
  if (options.directory) {
    try {
      write(options.directory, directory, 0o644);
    } catch (error) {
      // A key this run made, without its directory, is not kept.
      if (!options.force) rmSync(options.out, { force: true });
      throw error;
    }
  } else output.out(directory.trimEnd());
  output.err(
    [
      `repkit: private key written to ${options.out} (readable by you alone; key id ${key.privateJwk.kid})`,
      `  sign with: repkit check <url> --web-bot-auth-key ${options.out} --signature-agent https://<your host>`,
      `  publish the key directory${options.directory ? ` (${options.directory})` : ' (above)'} at https://<your host>${KEY_DIRECTORY_PATH}`,
      `  as ${KEY_DIRECTORY_TYPE}`,
    ].join('\n'),
  );
}

/** A place `keygen` cannot write to, said before anything is written. @throws CliError */
function refuseUnwritable(path: string, force: boolean): void {
  const folder = dirname(resolve(path));
  if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory()) {
    throw new CliError(`cannot write ${path}: no folder ${folder}`);
  }
  const there = statSync(path, { throwIfNoEntry: false });
  if (there?.isDirectory()) throw new CliError(`cannot write ${path}: is a directory`);
  if (there && !force) {
    throw new CliError(`${path} exists: not overwritten (give --force to replace it)`);
  }
}

export function registerKeygen(program: Command, output: Output): void {
  program
    .command('keygen')
    .description('make an Ed25519 key for signing requests (Web Bot Auth), and its key directory')
    .option('--out <file>', 'where the private key (a JWK) is written', 'repkit-bot-key.jwk')
    .option('--directory <file>', 'write the key directory there instead of to stdout')
    .option('--force', 'replace files that exist')
    .addHelpText(
      'after',
      `
The private key is written with mode 0600 and never printed. The key directory (a JWK set of
the public key) is what sites read to verify your signatures: serve it at
https://<your host>${KEY_DIRECTORY_PATH}
with Content-Type ${KEY_DIRECTORY_TYPE},
and send that host as --signature-agent.
Exit status: 0 written, 2 a file exists (without --force) or cannot be written (then neither is).

Example:
  $ repkit keygen --out bot-key.jwk --directory directory.json`,
    )
    .action((options: KeygenOptions) => runKeygen(options, output));
}
