import { readFile } from 'node:fs/promises';
import { parse, type ProfileName, type RobotsTxt } from '../core/index.ts';
import { CliError } from './errors.ts';

export const PROFILE_NAMES: readonly ProfileName[] = ['google', 'rfc9309', 'legacy'];

/** Reads a robots.txt file as bytes (not all are valid UTF-8) and names it in errors. */
export async function readRobotsFile(path: string): Promise<Uint8Array> {
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a directory'
          : code === 'EACCES'
            ? 'permission denied'
            : (error as Error).message;
    throw new CliError(`cannot read ${path}: ${why}`);
  }
}

export async function loadRobotsFile(path: string, profile: ProfileName): Promise<RobotsTxt> {
  return parse(await readRobotsFile(path), { profile });
}

export function parseProfile(value: string): ProfileName {
  if (!(PROFILE_NAMES as readonly string[]).includes(value)) {
    throw new CliError(`--profile must be one of ${PROFILE_NAMES.join(', ')}, got "${value}"`);
  }
  return value as ProfileName;
}

/** `--agent a --agent b,c` → ['a', 'b', 'c']: several names acting as one crawler. */
export function collectAgents(value: string, previous: string[] | undefined): string[] {
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name.length > 0);
  if (names.length === 0) throw new CliError('--agent needs a crawler name');
  return [...(previous ?? []), ...names];
}
