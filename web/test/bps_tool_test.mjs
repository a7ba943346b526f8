// dist/nestris-ai.bps through an independent BPS implementation (the npm package bps, not ours).
// Without the game: it reads the patch, its header names Tetris (USA) and the release record's
// patched ROM, and the bytes its actions write are exactly those of dist/nestris-ai.ips (read
// here by a reader written from the IPS format, not ours). With the game (--rom-from-env and
// TETRIS_ROM): it turns the game into the release's patched ROM, and refuses a headerless dump.
// Prints "SKIPPED: ..." when the package or (for the game) TETRIS_ROM is missing.
//   node bps_tool_test.mjs --dist DIR [--rom-from-env]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { args, check, finish, sha1, skip, tetrisRomFromEnv } from './support.mjs';

const opt = args();
const dist = opt.dist;
const withRom = Boolean(opt['rom-from-env']);
let bps;
try {
  bps = await import('bps');
} catch (e) {
  skip('the npm package bps is not installed (npm ci --prefix web/test; tools/scripts/install-deps.sh does it)');
}
const record = Object.fromEntries(readFileSync(join(dist, 'release.txt'), 'utf8').split('\n')
  .map((l) => l.replace(/#.*/, '').match(/^\s*(\w+)\s*=\s*(\S+)\s*$/)).filter(Boolean).map((m) => [m[1], m[2]]));
const patch = readFileSync(join(dist, 'nestris-ai.bps'));
const { instructions } = bps.parse(patch);
const TETRIS_USA = { size: 49168, crc32: 0x6D72C53A };

if (!withRom) {
  check(instructions.sourceSize === TETRIS_USA.size && instructions.sourceChecksum === TETRIS_USA.crc32,
        'the BPS is for Tetris (USA) with its header (size and CRC32)');
  check(instructions.targetSize === TETRIS_USA.size && instructions.targetChecksum === parseInt(record.patched_crc32, 16),
        `its target is the release record's patched ROM (CRC32 ${record.patched_crc32})`);
  // What the BPS writes, from its actions.
  const fromBps = new Map();
  let out = 0;
  const kinds = new Set();
  for (const a of instructions.actions) {
    kinds.add(a.type);
    if (a.type === bps.ActionType.TargetRead) a.bytes.forEach((b, i) => fromBps.set(out + i, b));
    out += a.length;
  }
  check([...kinds].every((k) => k === bps.ActionType.SourceRead || k === bps.ActionType.TargetRead),
        'only SourceRead and TargetRead actions (the game\'s bytes kept, ours written)');
  check(out === TETRIS_USA.size, 'its actions cover the whole file');
  // What the IPS writes (records: 3-byte offset, 2-byte size, bytes; size 0: RLE).
  const ips = readFileSync(join(dist, 'nestris-ai.ips'));
  const fromIps = new Map();
  let p = 5;
  for (;;) {
    const offset = (ips[p] << 16) | (ips[p + 1] << 8) | ips[p + 2];
    p += 3;
    if (offset === 0x454F46) break;
    let size = (ips[p] << 8) | ips[p + 1];
    p += 2;
    if (size === 0) {
      size = (ips[p] << 8) | ips[p + 1];
      for (let i = 0; i < size; ++i) fromIps.set(offset + i, ips[p + 2]);
      p += 3;
    } else {
      for (let i = 0; i < size; ++i) fromIps.set(offset + i, ips[p + i]);
      p += size;
    }
  }
  const same = fromIps.size === fromBps.size && [...fromIps].every(([k, v]) => fromBps.get(k) === v);
  check(same, `the BPS writes exactly the IPS's ${fromIps.size} bytes`);
} else {
  const rom = readFileSync(tetrisRomFromEnv());
  const patched = bps.apply(instructions, rom);
  check(sha1(patched) === record.patched_sha1, `the game becomes the release's patched ROM (SHA-1 ${sha1(patched)})`);
  let refused = false;
  try {
    bps.apply(instructions, rom.subarray(16));
  } catch (e) {
    refused = true;
  }
  check(refused, 'a headerless dump is refused');
}
finish();
