import { crawlerName, isValidProductToken } from '../agents/names.ts';
import type { AgentNote, UserAgent } from '../match/verdicts.ts';

/** Notes on the names of `userAgent` that are not product tokens (see `Explanation.agentNotes`). */
export function agentNotes(userAgent: UserAgent): AgentNote[] {
  const names =
    typeof userAgent === 'string' ? [userAgent] : Array.isArray(userAgent) ? userAgent : [];
  const notes: AgentNote[] = [];
  for (const name of names) {
    if (typeof name !== 'string' || isValidProductToken(name)) continue;
    const { token } = crawlerName(name);
    notes.push({
      agent: name,
      meant: token,
      message:
        token !== name && isValidProductToken(token)
          ? `"${name}" is not a product token: it was compared as given and may match no group; robots.txt names this crawler "${token}"`
          : `"${name}" is not a product token ([A-Za-z_-]): it can match no group`,
    });
  }
  return notes;
}
