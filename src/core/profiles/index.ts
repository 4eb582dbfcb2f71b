import { google } from './google.ts';
import { legacy } from './legacy.ts';
import type { Profile, ProfileName } from './profile.ts';
import { rfc9309 } from './rfc9309.ts';

export type { Profile, ProfileName } from './profile.ts';
export { GLOBAL_TOKEN, isWildPattern } from './profile.ts';

export const PROFILES: Readonly<Record<ProfileName, Profile>> = { google, rfc9309, legacy };
