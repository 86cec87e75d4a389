/**
 * ROLE and LOLWUT (replication.c roleCommand; lolwut.c, lolwut5.c, lolwut6.c), answered by the
 * engine rather than ioredis-mock's emulators (ROLE `['master', 0]`, LOLWUT the 8.x text in
 * every version):
 *
 * ROLE — a master: `['master', <master_repl_offset>, [[ip, port, ack offset], …]]`, one entry
 *   per replica attached with SYNC/PSYNC (MONITOR clients are not replicas here). The fake keeps
 *   no replication offset (INFO `master_repl_offset:0`, FULLRESYNC … 0), so the offset is 0, a
 *   replica's listening port (REPLCONF listening-port) and acknowledged offset "0" as on a
 *   real master whose replica never sent REPLCONF. After REPLICAOF host port (nothing is
 *   fetched): `['slave', host, port, 'connect', -1]`, a real replica's answer while its master
 *   is unreachable (between attempts; right after REPLICAOF it says `connecting`).
 * LOLWUT [VERSION v] [args] — lolwutCommand: VERSION v picks the piece of "v.0.0" (v as a C
 *   unsigned int): 5 → Georg Nees's schotter (lolwut5: [cols [squares-per-row [squares-per-col]]],
 *   66 8 12, braille), 6 → the skyline (lolwut6: [cols [rows]], 80 20, ANSI colours), any
 *   other → the server's own piece. 7.x servers: "Redis ver. <version>\n"; 8.x servers: the
 *   Balestrini poem (lolwut8; the fake answers one fixed stanza). Each piece ends with the
 *   server's version, not v. The drawings are random in Redis (rand()): here Math.random(), with
 *   Redis's canvas sizes, geometry and texts (the rows of schotter above the third are fixed).
 *   A VERSION or a size that is not an integer: "ERR value is not an integer or out of range".
 */
import type { ConnectionCommandSpec } from '../command-types';
import type { Connection } from '../connection';
import { openConnections } from '../connection';
import { VerbatimReply, type Reply } from '../../reply/reply';
import { CommandError, ERR_NOT_INTEGER } from '../../errors';
import { parseInt64 } from '../../commands/args';
import { SERVER_VERSION, versionIndex, type RedisVersion } from '../../version';

function role(conn: Connection): Reply {
  const server = conn.server;
  const master = server.master;
  if (master !== null) return ['slave', master.host, master.port, 'connect', -1];
  const replicas: Reply[] = [];
  for (const c of openConnections()) {
    if (c.server !== server || c.replicaFeed === null || c.monitoring) continue;
    const colon = c.addr.lastIndexOf(':');
    replicas.push([colon < 0 ? c.addr : c.addr.slice(0, colon), '0', '0']);
  }
  return ['master', 0, replicas];
}

/** getLongFromObjectOrReply. */
function long(arg: string): bigint {
  const n = parseInt64(arg);
  if (n === null) throw new CommandError(ERR_NOT_INTEGER);
  return n;
}

function clampArg(argv: readonly string[], i: number, dflt: number, max: number): number {
  if (argv.length <= i) return dflt;
  const n = long(argv[i]);
  return n < 1n ? 1 : n > BigInt(max) ? max : Number(n);
}

/** C rand(): 0 … RAND_MAX (2^31 - 1). */
const RAND_MAX = 2147483647;
function rand(): number {
  return Math.floor(Math.random() * (RAND_MAX + 1));
}

/** C round() (halves away from zero). */
function cround(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

class Canvas {
  readonly pixels: Uint8Array;
  constructor(
    readonly width: number,
    readonly height: number,
    bg: number,
  ) {
    this.pixels = new Uint8Array(width * height).fill(bg);
  }
  draw(x: number, y: number, color: number): void {
    if (x < 0 || x >= this.width || y < 0 || y >= this.height) return;
    this.pixels[x + y * this.width] = color;
  }
  get(x: number, y: number): number {
    if (x < 0 || x >= this.width || y < 0 || y >= this.height) return 0;
    return this.pixels[x + y * this.width];
  }
  /** lwDrawLine (Bresenham). */
  line(x1: number, y1: number, x2: number, y2: number, color: number): void {
    const dx = Math.abs(x2 - x1);
    const dy = Math.abs(y2 - y1);
    const sx = x1 < x2 ? 1 : -1;
    const sy = y1 < y2 ? 1 : -1;
    let err = dx - dy;
    for (;;) {
      this.draw(x1, y1, color);
      if (x1 === x2 && y1 === y2) break;
      const e2 = err * 2;
      if (e2 > -dy) {
        err -= dy;
        x1 += sx;
      }
      if (e2 < dx) {
        err += dx;
        y1 += sy;
      }
    }
  }
  /** lwDrawSquare: `size` and `angle` are C floats. */
  square(x: number, y: number, size: number, angle: number, color: number): void {
    const f = Math.fround;
    size = f(cround(f(size / 1.4142135623)));
    let k = f(Math.PI / 4 + angle);
    const px: number[] = [];
    const py: number[] = [];
    for (let j = 0; j < 4; j++) {
      px.push(cround(Math.sin(k) * size + x));
      py.push(cround(Math.cos(k) * size + y));
      k = f(k + Math.PI / 2);
    }
    for (let j = 0; j < 4; j++) this.line(px[j], py[j], px[(j + 1) % 4], py[(j + 1) % 4], color);
  }
}

/** A piece's text as bytes (UTF-8), one char per byte. */
function bytes(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

/** lolwut5.c: lwDrawSchotter + renderCanvas (braille, 2x4 pixels a character). */
function schotter(argv: readonly string[], version: string): string {
  const f = Math.fround;
  const cols = clampArg(argv, 1, 66, 1000);
  const perRow = clampArg(argv, 2, 8, 200);
  const perCol = clampArg(argv, 3, 12, 200);
  const width = cols * 2;
  const padding = width > 4 ? 2 : 0;
  const side = f((width - padding * 2) / perRow);
  const height = Math.trunc(f(f(side * perCol) + padding * 2));
  const canvas = new Canvas(width, height, 0);
  for (let y = 0; y < perCol; y++) {
    for (let x = 0; x < perRow; x++) {
      let sx = Math.trunc(f(f(f(x * side) + f(side / 2)) + padding));
      let sy = Math.trunc(f(f(f(y * side) + f(side / 2)) + padding));
      let angle = 0;
      if (y > 1) {
        let r1 = f(f(f(f(rand()) / f(RAND_MAX)) / perCol) * y);
        let r2 = f(f(f(f(rand()) / f(RAND_MAX)) / perCol) * y);
        let r3 = f(f(f(f(rand()) / f(RAND_MAX)) / perCol) * y);
        if (rand() % 2) r1 = -r1;
        if (rand() % 2) r2 = -r2;
        if (rand() % 2) r3 = -r3;
        angle = r1;
        sx = Math.trunc(f(sx + f(f(r2 * side) / 3)));
        sy = Math.trunc(f(sy + f(f(r3 * side) / 3)));
      }
      canvas.square(sx, sy, side, angle, 1);
    }
  }
  let text = '';
  for (let y = 0; y < canvas.height; y += 4) {
    for (let x = 0; x < canvas.width; x += 2) {
      let byte = 0;
      if (canvas.get(x, y)) byte |= 1 << 0;
      if (canvas.get(x, y + 1)) byte |= 1 << 1;
      if (canvas.get(x, y + 2)) byte |= 1 << 2;
      if (canvas.get(x + 1, y)) byte |= 1 << 3;
      if (canvas.get(x + 1, y + 1)) byte |= 1 << 4;
      if (canvas.get(x + 1, y + 2)) byte |= 1 << 5;
      if (canvas.get(x, y + 3)) byte |= 1 << 6;
      if (canvas.get(x + 1, y + 3)) byte |= 1 << 7;
      text += String.fromCharCode(0x2800 + byte);
    }
    if (y !== canvas.height - 1) text += '\n';
  }
  return bytes(`${text}\nGeorg Nees - schotter, plotter on paper, 1968. Redis ver. ${version}\n`);
}

/** lolwut6.c generateSkyscraper. */
function skyscraper(canvas: Canvas, xoff: number, width: number, height: number, windows: boolean, color: number): void {
  const starty = canvas.height - 1;
  const endy = starty - height + 1;
  for (let y = starty; y >= endy; y--) {
    for (let x = xoff; x < xoff + width; x++) {
      if (y === endy && (x <= xoff + 1 || x >= xoff + width - 2)) continue;
      let c = color;
      if (windows && x > xoff + 1 && x < xoff + width - 2 && y > endy + 1 && y < starty - 1) {
        const relx = x - (xoff + 1);
        const rely = y - (endy + 1);
        if (Math.trunc(relx / 2) % 2 && rely % 2) {
          do c = 1 + (rand() % 2);
          while (c === color);
          if (relx % 2) c = canvas.get(x - 1, y);
        }
      }
      canvas.draw(x, y, c);
    }
  }
}

const SKY_COLOURS = ['0;30;40m', '0;90;100m', '0;37;47m', '0;97;107m'];

/** lolwut6.c: generateSkyline + renderCanvas (a space a pixel, coloured). */
function skyline(argv: readonly string[], version: string): string {
  const cols = clampArg(argv, 1, 80, 1000);
  const rows = clampArg(argv, 2, 20, 1000);
  const canvas = new Canvas(cols, rows, 3);
  const h = canvas.height;
  for (let color = 2; color >= 1; color--) {
    for (let offset = -10; offset < canvas.width; ) {
      offset += rand() % 8;
      const width = 10 + (rand() % 9);
      const height = color === 2 ? Math.trunc(h / 2) + Math.trunc((rand() % h) / 2) : Math.trunc(h / 2) + Math.trunc((rand() % h) / 3);
      skyscraper(canvas, offset, width, height, false, color);
      offset += color === 2 ? Math.trunc(width / 2) : width + 1;
    }
  }
  for (let offset = -10; offset < canvas.width; ) {
    offset += rand() % 8;
    let width = 5 + (rand() % 14);
    if (width % 4) width += width % 3;
    const height = Math.trunc(h / 3) + Math.trunc((rand() % h) / 2);
    skyscraper(canvas, offset, width, height, true, 0);
    offset += width + 5;
  }
  let text = '';
  for (let y = 0; y < canvas.height; y++) {
    for (let x = 0; x < canvas.width; x++) text += `\x1b[${SKY_COLOURS[canvas.get(x, y)] ?? SKY_COLOURS[0]} \x1b[0m`;
    if (y !== canvas.height - 1) text += '\n';
  }
  return `${text}\nDedicated to the 8 bit game developers of past and present.\nOriginal 8 bit image from Plaguemon by hikikomori. Redis ver. ${version}\n`;
}

/**
 * The 8.x piece (lolwut8.c, Nanni Balestrini's TAPE MARK I). Redis shuffles 15 verses with
 * rand() and chains compatible ones into a stanza; the fake answers one stanza that algorithm
 * can produce, always the same (a test can compare it), in English, or with `LOLWUT IT` in the
 * original Italian: each verse as `[english, italian]`, printed upper case with its `/` as spaces.
 */
const STANZA: readonly (readonly [string, string])[] = [
  [' Trying / to grasp ', ' cercando / di afferrare  '],
  [' The blinding / globe / of fire ', ' l accecante   /  globo  /  di fuoco  '],
  [' They all return / to / their roots ', ' esse tornano  / tutte    / alla loro radice   '],
  [' When it reaches / the stratosphere ', ' quando  raggiunge / la stratosfera  '],
  [' The hair / between the lips ', ' i  capelli   /  tra le labbra '],
  [' It expands / rapidly ', ' si espande   /  rapidamente  '],
  [' They lay / motionless / without speaking ', ' giacquero  /   immobili / senza parlare '],
  [' Assumes / the well-known shape / of a mushroom ', ' assume   / la ben nota forma  / di fungo '],
  [' Till he moved / his fingers / slowly ', ' finche non mosse  /  le dita  / lentamente    '],
  [' The summit / of the cloud ', ' la  sommita  /  della nuvola '],
];

const BALESTRINI_NOTE =
  "\nIn 1961, Nanni Balestrini created one of the first computer-generated poems, TAPE MARK I, using an IBM 7090 mainframe. Each execution combined verses from three literary sources following algorithmic rules based on metrical compatibility and group constraints. This LOLWUT command reproduces Balestrini's original algorithm, generating new stanzas through the same computational poetry process described in Almanacco Letterario Bompiani, 1962.\n\n" +
  'https://en.wikipedia.org/wiki/Digital_poetry\n' +
  'https://www.youtube.com/watch?v=8i7uFCK7G0o (English subs)\n\n' +
  'Use: LOLWUT IT for the original Italian output.';

/**
 * lolwut8Command: the stanza (`IT`, any casing, as its first argument: Italian), the note, and
 * from 8.2 the server version after it (redis#14195; 8.0's piece ends with the note).
 */
function balestrini(args: readonly string[], redisVersion: RedisVersion, server: string): string {
  const italian = args.length > 1 && args[1].toLowerCase() === 'it';
  let out = '';
  for (const [en, it] of STANZA) out += `${(italian ? it : en).toUpperCase().replaceAll('/', ' ')}\n`;
  out += BALESTRINI_NOTE;
  out += versionIndex(redisVersion) >= versionIndex('8.2') ? ` Redis ver. ${server}\n\n` : '\n\n';
  return bytes(out);
}

/**
 * LOLWUT [VERSION v] [args] (lolwut.c lolwutCommand): the piece of version `v` (default: the
 * server's): 5 (also 4.9) schotter, 6 (also 5.9) skyline, 8 (also 7.9) the poem on servers
 * that have it (8.0 and later), anything else `Redis ver. <server>\n`.
 * @throws CommandError ERR_NOT_INTEGER for a VERSION that is not an integer
 */
function lolwut(conn: Connection, argv: string[]): Reply {
  const redisVersion = conn.keyspace.redisVersion;
  const server = SERVER_VERSION[redisVersion];
  let v = server;
  let args: readonly string[] = argv;
  if (argv.length >= 3 && argv[1].toLowerCase() === 'version') {
    v = `${BigInt.asUintN(32, long(argv[2]))}.0.0`;
    args = argv.slice(2);
  }
  let text: string;
  if ((v[0] === '5' && v[1] === '.' && v[2] !== '9') || (v[0] === '4' && v[1] === '.' && v[2] === '9')) text = schotter(args, server);
  else if ((v[0] === '6' && v[1] === '.' && v[2] !== '9') || (v[0] === '5' && v[1] === '.' && v[2] === '9')) text = skyline(args, server);
  else if (versionIndex(redisVersion) >= versionIndex('8.0') && ((v[0] === '8' && v[1] === '.' && v[2] !== '9') || (v[0] === '7' && v[1] === '.' && v[2] === '9'))) {
    text = balestrini(args, redisVersion, server);
  } else text = `Redis ver. ${server}\n`;
  return new VerbatimReply(text);
}

export const specs: readonly ConnectionCommandSpec[] = [
  { name: 'role', arity: 1, noScript: true, run: role },
  { name: 'lolwut', arity: -1, run: lolwut },
];
