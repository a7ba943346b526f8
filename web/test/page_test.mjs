// The web page's test: serves the built page (build/web) on 127.0.0.1, opens it in headless
// Chromium through puppeteer-core, gives it a ROM through its file input, and checks what a
// player gets: the identification, the patched bytes and their SHA-1 (against the native
// build's), the download, and the picture after N frames of the embedded NES (the canvas's
// pixels against the native emulator's). Prints "SKIPPED: ..." (ctest: skipped) when the
// browser, puppeteer-core or (for --rom-from-env) the game is missing.
//
//   node page_test.mjs --site DIR --expect-tool WEB_EXPECT --frames N
//                      (--synthetic-rom FILE | --rom-from-env) [--chromium PATH]
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { args, browserTest, check, finish, serveSite, sha1, useTestCatalogue } from './support.mjs';

const opt = args();
const site = resolve(opt.site);
const frames = Number(opt.frames || 120);
const { romPath, rom, synthetic, launch } = await browserTest(opt);
// Enter is Start on the page's keyboard: held for 12 frames after the first N.
const START = 0x08, HELD = 12;
const expected = JSON.parse(execFileSync(opt['expect-tool'],
  [romPath, join(site, 'nestris-ai.ips'), String(frames), String(START), String(HELD)]));

const { server, base } = await serveSite(site);

const scratch = mkdtempSync(join(tmpdir(), 'nestris-web-'));
const browser = await launch();
// Every check, on the page at `url` (served, or the one-file page from disk).
async function checkPage(url, label) {
  const see = (ok, what) => check(ok, `${label}: ${what}`);
  const page = await browser.newPage();
  const consoleErrors = [];
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  await page.goto(`${url}?step`);
  await page.evaluate(() => window.nestris.ready);
  see(consoleErrors.length === 0, `the page starts without errors ${consoleErrors.join('; ')}`);

  // A file that is not Tetris is refused with a reason, and nothing is offered.
  writeFileSync(join(scratch, 'other.nes'), Buffer.alloc(4000, 7));
  await (await page.$('#rom-input')).uploadFile(join(scratch, 'other.nes'));
  await page.waitForFunction(() => !document.getElementById('error').hidden);
  see(/cannot be patched/.test(await page.$eval('#error', (e) => e.textContent)), 'an unknown file is refused');
  see(await page.$eval('#step-patch', (e) => e.hidden), 'no patched ROM is offered for it');

  if (synthetic) await useTestCatalogue(page, rom);
  await (await page.$('#rom-input')).uploadFile(romPath);
  await page.waitForFunction(() => !document.getElementById('step-play').hidden || !document.getElementById('error').hidden);
  see(await page.$eval('#error', (e) => e.hidden), `no error (${await page.$eval('#error', (e) => e.textContent)})`);
  const summary = await page.$eval('#identity-summary', (e) => e.textContent);
  see(synthetic ? /Test ROM/.test(summary) : summary === 'Tetris (USA), the original (supported)',
        `identified: ${summary}`);
  see(await page.$eval('#identity-sha1', (e) => e.textContent) === sha1(rom), 'the ROM\'s SHA-1 as shown');

  const shown = await page.$eval('#patched-sha1', (e) => e.textContent);
  see(shown === expected.patched_sha1, `the patched ROM's SHA-1 as shown: ${shown}`);
  const patched = Buffer.from(await page.evaluate(() => Array.from(window.nestris.state.patched.bytes)));
  see(sha1(patched) === expected.patched_sha1, 'the patched bytes are the native build\'s');
  const downloaded = Buffer.from(await page.evaluate(async () => {
    const link = document.getElementById('download');
    return Array.from(new Uint8Array(await (await fetch(link.href)).arrayBuffer()));
  }));
  see(sha1(downloaded) === expected.patched_sha1, 'the download holds the patched ROM');
  see(/-nestris-ai\.nes$/.test(await page.$eval('#download', (e) => e.download)), 'the download is named *-nestris-ai.nes');
  for (const name of ['nestris-ai.ips', 'nestris-ai.bps']) {
    const offered = Buffer.from(await page.evaluate(async (n) => {
      const link = [...document.querySelectorAll('a[download]')].find((a) => a.textContent === n);
      return Array.from(new Uint8Array(await (await fetch(link.href)).arrayBuffer()));
    }, name));
    see(sha1(offered) === sha1(readFileSync(join(site, name))), `its link offers ${name} as built`);
  }
  if (!synthetic) {
    // Every form of the dump gives the same patched ROM: headerless, and under a NES 2.0 header.
    const headerless = rom.subarray(16);
    const nes2 = Buffer.concat([Buffer.from([0x4E, 0x45, 0x53, 0x1A, 2, 2, 0x10, 0x08, 0, 0, 0, 0, 0, 0, 0, 0]), headerless]);
    for (const [name, bytes, said] of [['headerless.nes', headerless, /headerless dump/], ['nes2.nes', nes2, /non-standard iNES header/]]) {
      writeFileSync(join(scratch, name), bytes);
      await (await page.$('#rom-input')).uploadFile(join(scratch, name));
      await page.waitForFunction((n) => document.getElementById('download').download === n, {}, name.replace('.nes', '-nestris-ai.nes'));
      see(said.test(await page.$eval('#identity-summary', (e) => e.textContent)), `${name} is identified as such`);
      see(await page.$eval('#patched-sha1', (e) => e.textContent) === expected.patched_sha1, `${name} gives the same patched ROM`);
    }
    const release = await page.$eval('#patched-release', (e) => e.textContent);
    see(release === '(the release\'s patched ROM)', `the page compares it with the release: ${release}`);
  }

  await page.evaluate((n) => window.nestris.runFrames(n), frames);
  see(await page.evaluate(() => window.nestris.state.console.frame()) === expected.frames,
        `${expected.frames} frames ran`);
  const picture = await page.evaluate(() => window.nestris.pictureSha1());
  see(picture === expected.picture_sha1, `the canvas shows the native emulator's frame ${frames} (${picture})`);
  const colours = await page.evaluate(() => {
    const data = document.getElementById('screen').getContext('2d').getImageData(0, 0, 256, 240).data;
    const seen = new Set();
    for (let i = 0; i < data.length; i += 4) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    return seen.size;
  });
  see(colours >= 3, `the picture is not blank (${colours} colours)`);

  // The keyboard reaches the game: Enter held (Start) for 12 frames, as the native run holds it.
  await page.keyboard.down('Enter');
  await page.evaluate((n) => window.nestris.runFrames(n), HELD);
  await page.keyboard.up('Enter');
  see(await page.evaluate(() => window.nestris.state.console.frame()) === expected.held_frames,
        `${expected.held_frames} frames ran`);
  const held = await page.evaluate(() => window.nestris.pictureSha1());
  see(held === expected.held_picture_sha1, `with Enter held the canvas shows the native frame with Start held (${held})`);
  see(held !== picture, 'and that frame differs from the one before');

  // Real time: the page's own loop runs the NES at its 60.1 frames a second.
  const live = await browser.newPage();
  await live.goto(url);
  await live.evaluate(() => window.nestris.ready);
  if (synthetic) await useTestCatalogue(live, rom);
  await (await live.$('#rom-input')).uploadFile(romPath);
  await live.waitForFunction(() => window.nestris.state.console.frame() > 10);
  const rate = await live.evaluate(async () => {
    const c = window.nestris.state.console, f0 = c.frame(), t0 = performance.now();
    await new Promise((ok) => setTimeout(ok, 3000));
    return (c.frame() - f0) / ((performance.now() - t0) / 1000);
  });
  see(rate > 50 && rate < 70, `the page plays in real time: ${rate.toFixed(1)} frames a second`);
  see(consoleErrors.length === 0, `no page errors ${consoleErrors.join('; ')}`);
  await page.close();
  await live.close();
}

try {
  await checkPage(`${base}/index.html`, 'served page');
  await checkPage(pathToFileURL(join(site, 'nestris-ai.html')).href, 'one-file page');
} finally {
  await browser.close();
  server.close();
  rmSync(scratch, { recursive: true, force: true });
}
finish();
