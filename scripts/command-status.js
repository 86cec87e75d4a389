#!/usr/bin/env node
/**
 * The README's command status table, from the command tables themselves (run after `npm run
 * build`): every Redis command of @ioredis/commands' table (plus the newer ones the library
 * knows), and who answers it —
 *   engine    the engine's own command module (lib/commands, lib/engine/commands): exact, in
 *             every front end;
 *   emulator  ioredis-mock's emulator, behind the engine's checks (lib/engine/emulated): not yet
 *             exact (issues 19/20 move these into the engine);
 *   —         not emulated: answers a StreamsMockError naming the command.
 * `node scripts/command-status.js` prints the table; `--check README.md` exits 1 when the
 * README's copy (between the command-status markers) differs; `--write README.md` replaces it.
 */
const { readFileSync, writeFileSync } = require('fs');
const { join } = require('path');

const dist = join(__dirname, '..', 'dist');
const { COMMANDS } = require(join(dist, 'commands', 'index.js'));
const { CONNECTION_COMMANDS } = require(join(dist, 'engine', 'commands', 'index.js'));
const { defaultEmulators, isCommandEmulator } = require(join(dist, 'engine', 'emulators.js'));
const { COMMAND_SINCE } = require(join(dist, 'version.js'));
const redisCommands = require('@ioredis/commands').list;

const emulators = defaultEmulators();
const names = new Set([...redisCommands, ...Object.keys(COMMAND_SINCE), ...COMMANDS.keys(), ...CONNECTION_COMMANDS.keys()]);
const CLOCK_TTL = new Set(['expire', 'pexpire', 'expireat', 'pexpireat', 'ttl', 'pttl']);
const rows = [...names]
  .filter((n) => n !== 'mockclock')
  .sort()
  .map((name) => {
    const engine = COMMANDS.has(name) || CONNECTION_COMMANDS.has(name) || CLOCK_TTL.has(name);
    const status = engine ? 'engine' : isCommandEmulator(emulators, name) ? 'emulator' : '—';
    return [name.toUpperCase(), status];
  });
const count = (s) => rows.filter(([, st]) => st === s).length;
const lines = [
  `${rows.length} commands: ${count('engine')} answered by the engine, ${count('emulator')} still by ioredis-mock's emulators (not yet exact), ${count('—')} not emulated.`,
  '',
  '| command | status | command | status | command | status |',
  '|---|---|---|---|---|---|',
];
const third = Math.ceil(rows.length / 3);
for (let i = 0; i < third; i++) {
  const cells = [rows[i], rows[i + third], rows[i + 2 * third]].map((r) => (r ? `${r[0]} | ${r[1]}` : ' | '));
  lines.push(`| ${cells.join(' | ')} |`);
}
const table = lines.join('\n');

const BEGIN = '<!-- command-status:begin (scripts/command-status.js) -->';
const END = '<!-- command-status:end -->';
const mode = process.argv[2];
if (mode === '--check' || mode === '--write') {
  const file = process.argv[3] ?? join(__dirname, '..', 'README.md');
  const text = readFileSync(file, 'utf8');
  const a = text.indexOf(BEGIN);
  const b = text.indexOf(END);
  if (a < 0 || b < a) {
    console.error(`command-status: ${file} has no ${BEGIN} … ${END} block`);
    process.exit(1);
  }
  const current = text.slice(a + BEGIN.length, b).trim();
  if (mode === '--check') {
    if (current !== table) {
      console.error(`command-status: the table in ${file} is out of date; run node scripts/command-status.js --write ${file}`);
      process.exit(1);
    }
  } else {
    writeFileSync(file, `${text.slice(0, a + BEGIN.length)}\n${table}\n${text.slice(b)}`);
  }
} else {
  console.log(table);
}
