/**
 * One CLIENT LIST / CLIENT INFO line as Redis writes it (networking.c `catClientInfoString`),
 * with the fields of the emulated version: `watch=` (7.4+), `lib-name=`/`lib-ver=` (7.2+).
 * Buffer and memory fields are plausible constants (a fake has no query/output buffers).
 */
import { type RedisVersion, versionIndex } from '../../version';

export interface ClientListEntry {
  id: number;
  /** `ip:port` of the peer and of the local end. */
  addr: string;
  laddr: string;
  fd: number;
  name: string;
  /** Seconds since the connection opened / since its last command. */
  age: number;
  idle: number;
  /** Redis flag letters (`N` none, `b` blocked, `x` in MULTI, `P` pub/sub). */
  flags: string;
  db: number;
  sub: number;
  psub: number;
  /** Commands queued in MULTI, or -1 outside MULTI. */
  multi: number;
  watch: number;
  /** Last command (full name, e.g. `client|list`). */
  cmd: string;
  resp: 2 | 3;
  libName: string;
  libVer: string;
}

export function clientInfoLine(c: ClientListEntry, version: RedisVersion): string {
  const v = versionIndex(version);
  const parts = [
    `id=${c.id}`,
    `addr=${c.addr}`,
    `laddr=${c.laddr}`,
    `fd=${c.fd}`,
    `name=${c.name}`,
    `age=${c.age}`,
    `idle=${c.idle}`,
    `flags=${c.flags}`,
    `db=${c.db}`,
    `sub=${c.sub}`,
    `psub=${c.psub}`,
    'ssub=0',
    `multi=${c.multi}`,
  ];
  if (v >= versionIndex('7.4')) parts.push(`watch=${c.watch}`);
  parts.push(
    'qbuf=0',
    'qbuf-free=0',
    'argv-mem=0',
    'multi-mem=0',
    'rbs=16384',
    'rbp=0',
    'obl=0',
    'oll=0',
    'omem=0',
    'tot-mem=20000',
    'events=r',
    `cmd=${c.cmd}`,
    'user=default',
    'redir=-1',
    `resp=${c.resp}`,
  );
  if (v >= versionIndex('7.2')) parts.push(`lib-name=${c.libName}`, `lib-ver=${c.libVer}`);
  return parts.join(' ');
}
