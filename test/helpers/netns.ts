import { execFileSync } from 'node:child_process';

/**
 * A network this test makes: a namespace joined to this one by a veth pair, each end with a
 * private, non-loopback address. `hostAddress` is this namespace's end: a server listening
 * there is reached over a real interface, as in a container, and a browser treats it as any
 * non-loopback host (no "potentially trustworthy" exemption). Needs CAP_NET_ADMIN (the tests
 * run as root); fails, never skips, without it. `close()` deletes the namespace and its link.
 */
export interface TestNetwork {
  /** This namespace's end of the link, e.g. 10.77.12.1. */
  hostAddress: string;
  /** The namespace's end, e.g. 10.77.12.2. */
  peerAddress: string;
  /** The namespace's name, for `ip netns exec`. */
  name: string;
  close(): void;
}

/** Makes the namespace and its link; names and addresses are this process's own. */
export function testNetwork(): TestNetwork {
  const id = process.pid % 60_000;
  const name = `repkit-t${id}`;
  const hostEnd = `rkh${id}`;
  const peerEnd = `rkp${id}`;
  const subnet = `10.${77 + ((id >> 14) & 3)}.${(id >> 6) & 255}.${(id & 63) << 2}`;
  const base = subnet.split('.').map(Number);
  const hostAddress = `${base[0]}.${base[1]}.${base[2]}.${base[3]! + 1}`;
  const peerAddress = `${base[0]}.${base[1]}.${base[2]}.${base[3]! + 2}`;
  const ip = (...args: string[]) =>
    execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  // Left behind by a run of this PID that was killed: start clean.
  try {
    ip('netns', 'del', name);
  } catch {
    // none
  }
  ip('netns', 'add', name);
  try {
    ip('link', 'add', hostEnd, 'type', 'veth', 'peer', 'name', peerEnd);
    ip('link', 'set', peerEnd, 'netns', name);
    ip('addr', 'add', `${hostAddress}/30`, 'dev', hostEnd);
    ip('link', 'set', hostEnd, 'up');
    ip('netns', 'exec', name, 'ip', 'addr', 'add', `${peerAddress}/30`, 'dev', peerEnd);
    ip('netns', 'exec', name, 'ip', 'link', 'set', peerEnd, 'up');
    ip('netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up');
  } catch (error) {
    ip('netns', 'del', name);
    throw error;
  }
  return {
    hostAddress,
    peerAddress,
    name,
    close() {
      // Deleting the namespace deletes its end of the pair, and so the pair.
      try {
        ip('netns', 'del', name);
      } catch {
        // already gone
      }
      try {
        ip('link', 'del', hostEnd);
      } catch {
        // gone with the namespace
      }
    },
  };
}
