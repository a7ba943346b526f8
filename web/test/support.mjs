// What the web tests (page_test, player_test, audio_test, bps_tool_test) share: their options,
// "SKIPPED: ..." (ctest's SKIP_REGULAR_EXPRESSION) and exit 0 when something they need is
// missing, the checks and their failures counted (exit 1 when any failed), the ROM given by
// --synthetic-rom FILE or --rom-from-env (TETRIS_ROM), Chromium and puppeteer-core, and the
// built site served on 127.0.0.1.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { serve } from '../serve.mjs';

// --key VALUE as { key: 'VALUE' }, a --flag without a value as { flag: true }.
export function args() {
  const out = {};
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; ++i) {
    const key = argv[i].replace(/^--/, '');
    out[key] = argv[i + 1] && !argv[i + 1].startsWith('--') ? argv[++i] : true;
  }
  return out;
}

export const skip = (why) => { console.log(`SKIPPED: ${why}`); process.exit(0); };

let failures = 0;
export function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures += 1;
}
// The verdict, and the exit code: 1 when a check failed.
export function finish() {
  console.log(failures ? `${failures} check(s) failed` : 'all checks passed');
  process.exit(failures ? 1 : 0);
}

export const sha1 = (bytes) => createHash('sha1').update(bytes).digest('hex').toUpperCase();

// The game from TETRIS_ROM (its path), or a skip.
export function tetrisRomFromEnv() {
  const path = process.env.TETRIS_ROM;
  if (!path) skip('set TETRIS_ROM=/path/to/tetris.nes (Tetris (USA)) to run this test');
  if (!existsSync(path)) skip(`TETRIS_ROM=${path} cannot be read`);
  return path;
}

// A test in headless Chromium: the ROM (--synthetic-rom FILE, or --rom-from-env: the game),
// Chromium (--chromium PATH, or the Debian package's) and puppeteer-core, or a skip. Returns
// the ROM's path and bytes, whether it is the synthetic one, and launch() for the browser.
export async function browserTest(opt) {
  let romPath = opt['synthetic-rom'];
  const synthetic = Boolean(romPath);
  if (opt['rom-from-env']) romPath = tetrisRomFromEnv();
  const chromium = opt.chromium || ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync);
  if (!chromium) skip('no Chromium (Debian package chromium; tools/scripts/install-deps.sh installs it)');
  let puppeteer;
  try {
    puppeteer = (await import('puppeteer-core')).default;
  } catch (e) {
    skip('puppeteer-core is not installed (npm ci --prefix web/test; tools/scripts/install-deps.sh does it)');
  }
  const rom = readFileSync(romPath);
  const launch = () => puppeteer.launch({ executablePath: chromium, headless: true,
                                          args: ['--no-sandbox', '--disable-gpu'] });
  return { romPath, rom, synthetic, launch };
}

// The built site served on 127.0.0.1: the server (close() it) and its base URL.
export async function serveSite(site) {
  const server = await serve(site);
  return { server, base: `http://127.0.0.1:${server.address().port}` };
}

// CI has no game: the synthetic ROM stands in for Tetris (USA) in the page's module's catalogue
// (a call the page itself never makes).
export async function useTestCatalogue(page, rom) {
  await page.evaluate((bytes) => {
    const p = window.nestris.state.patcher;
    const id = JSON.parse(p.identify(new Uint8Array(bytes)));
    p.useTestCatalogue(id.sha1, id.payload_sha1, parseInt(id.crc32, 16), parseInt(id.payload_crc32, 16));
  }, Array.from(rom));
}
