import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** `pid` and every process below it (children, their children…), from /proc. */
export function processTree(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Field 4, after the name in parentheses (which may hold spaces).
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(parent, [...(parents.get(parent) ?? []), Number(entry)]);
    } catch {
      // The process ended while the list was read.
    }
  }
  const tree = [pid];
  for (let index = 0; index < tree.length; index++) tree.push(...(parents.get(tree[index]!) ?? []));
  return tree;
}

/** The socket inodes the processes hold open (`/proc/<pid>/fd/* → socket:[inode]`). */
function socketInodes(pids: readonly number[]): Set<string> {
  const inodes = new Set<string>();
  for (const pid of pids) {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (match !== null) inodes.add(match[1]!);
      } catch {
        // Closed while the list was read.
      }
    }
  }
  return inodes;
}

/** What the processes listen on: TCP ports (IPv4 and IPv6) and Unix socket paths (or `@` for an unnamed one). */
export function listeningSockets(pids: readonly number[]): { tcpPorts: number[]; unixSockets: string[] } {
  const inodes = socketInodes(pids);
  const tcpPorts: number[] = [];
  for (const table of ['tcp', 'tcp6']) {
    for (const line of readFileSync(`/proc/${pids[0]}/net/${table}`, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is ADDRESS:PORT in hex; state 0A is LISTEN; field 9 is the inode.
      if (fields[3] === '0A' && inodes.has(fields[9]!)) tcpPorts.push(Number.parseInt(fields[1]!.split(':')[1]!, 16));
    }
  }
  const unixSockets: string[] = [];
  for (const line of readFileSync(`/proc/${pids[0]}/net/unix`, 'utf8').split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    // Flags 00010000: accepts connections (a listening socket); field 6 is the inode.
    if (fields[3] === '00010000' && inodes.has(fields[6]!)) unixSockets.push(fields[7] ?? '@');
  }
  return { tcpPorts: [...new Set(tcpPorts)].sort((a, b) => a - b), unixSockets };
}
