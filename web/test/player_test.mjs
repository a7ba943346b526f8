// The web page as a player's console, in headless Chromium (puppeteer-core): the page
// identifies dist's own patches (IPS and BPS) as this build's and applies a dropped patch to a
// dropped ROM; the canvas is on screen without scrolling at 1280x720 and on a phone (390x844),
// at whole device pixels; touch controls play (the synthetic ROM shows the buttons the NES
// reads; with the game, Start touched through the menus starts a game); full screen toggles;
// pause is shown; a refused file after a good one stops nothing and is said beside the drop
// zone, with its own reason (cut short, bytes appended, a zip, PAL, another file and the SHA-1
// wanted); files dropped anywhere on the page are opened; remapped keys are kept over a reload.
// On a phone (390x844, touch) every visible control is at least 44 CSS pixels each way, also in
// full screen, which keeps pause, sound and its way out; the page says "tap", not "drop" or "click".
// Prints "SKIPPED: ..." (ctest: skipped) when the browser, puppeteer-core or (for
// --rom-from-env) the game is missing.
//
//   node player_test.mjs --site DIR --dist DIR (--synthetic-rom FILE | --rom-from-env) [--chromium PATH]
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { args, browserTest, check, finish, serveSite, sha1, useTestCatalogue } from './support.mjs';

const opt = args();
const site = resolve(opt.site);
const dist = resolve(opt.dist);
const { romPath, rom, synthetic, launch } = await browserTest(opt);
const { server, base } = await serveSite(site);
const scratch = mkdtempSync(join(tmpdir(), 'nestris-player-'));
const other = join(scratch, 'other.nes');
writeFileSync(other, Buffer.alloc(4000, 7));
const damaged = join(scratch, 'damaged.bps');
const bpsBytes = readFileSync(join(dist, 'nestris-ai.bps'));
writeFileSync(damaged, bpsBytes.subarray(0, bpsBytes.length - 3));
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

// Files a player may give instead of the game, each with the reason the page must give (the
// ROM stands in for Tetris (USA): the synthetic one through the test catalogue, or the game).
const crc32 = (bytes) => {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; ++k) c = (c >>> 1) ^ (0xEDB88320 & -(c & 1));
  }
  return ~c >>> 0;
};
// A zip holding one file, stored (PKWARE's APPNOTE: local header, data, central directory, end).
function zipOf(name, data) {
  const n = Buffer.from(name), crc = crc32(data);
  const local = Buffer.alloc(30), central = Buffer.alloc(46), end = Buffer.alloc(22);
  local.writeUInt32LE(0x04034B50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(n.length, 26);
  central.writeUInt32LE(0x02014B50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(n.length, 28);
  end.writeUInt32LE(0x06054B50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + n.length, 12);
  end.writeUInt32LE(local.length + n.length + data.length, 16);
  return Buffer.concat([local, n, data, central, n, end]);
}
const cut = rom.subarray(0, Math.floor(rom.length * 0.6));
const appended = Buffer.concat([rom, randomBytes(100)]);
const pal = Buffer.from(rom);
pal[9] |= 1;  // iNES byte 9, bit 0: PAL
pal[1000] ^= 0xFF;  // and not the game's bytes (its bytes under a PAL header are still the game)
const reasons = [
  ['cut-short.nes', cut, new RegExp(`cut short.* ${rom.length} bytes.* only ${cut.length} \\(${rom.length - cut.length} missing\\)`), 'cut short'],
  ['appended.nes', appended, new RegExp(`with 100 extra bytes appended.*first ${rom.length} bytes are the game \\(SHA-1 ${sha1(rom)}\\)`),
   'bytes appended'],
  ['tetris.zip', zipOf('tetris.nes', rom), /zip archive.*unzip it first/, 'a zip'],
  ['pal.nes', pal, /a PAL game.*patches only the NTSC game/, 'PAL'],
  ['random.bin', randomBytes(4000), new RegExp(`not .*nestris-ai needs .*SHA-1 ${sha1(rom)} with its iNES header`),
   'another file: the SHA-1 wanted'],
];
for (const [name, bytes] of reasons) writeFileSync(join(scratch, name), bytes);

const browser = await launch();

// CI has no game: the synthetic ROM stands in for Tetris (USA) (a call the page never makes).
async function acceptSynthetic(page) {
  if (synthetic) await useTestCatalogue(page, rom);
}

async function open(url, { step = true, setup = null } = {}) {
  const page = await browser.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  if (setup) await setup(page);
  await page.goto(step ? `${url}?step` : url);
  await page.evaluate(() => window.nestris.ready);
  await acceptSynthetic(page);
  return page;
}

async function upload(page, file) {
  await (await page.$('#rom-input')).uploadFile(file);
}
async function uploadRom(page) {
  await upload(page, romPath);
  await page.waitForFunction(() => !document.getElementById('step-play').hidden || !document.getElementById('error').hidden);
}
const text = (page, selector) => page.$eval(selector, (e) => (e.hidden ? '' : e.textContent));
const frame = (page) => page.evaluate(() => window.nestris.state.console.frame());
// The element's box against the window, with the page unscrolled.
const inView = (page, selector) => page.$eval(selector, (e) => {
  const r = e.getBoundingClientRect();
  return { ok: window.scrollY === 0 && r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth
             && r.width > 0, box: `${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)}`,
           pixels: Math.round(r.width * window.devicePixelRatio) };
});

try {
  // 1. dist's own patches are identified as this build's (not "damaged"), on the served page and
  // the one-file page; a dropped patch is applied to the ROM dropped after it.
  for (const [url, label] of [[`${base}/index.html`, 'served page'],
                              [pathToFileURL(join(site, 'nestris-ai.html')).href, 'one-file page']]) {
    const page = await open(url);
    for (const name of ['nestris-ai.ips', 'nestris-ai.bps']) {
      await upload(page, join(dist, name));
      await page.waitForFunction((n) => document.getElementById('notice').textContent.startsWith(n), {}, name);
      const summary = await text(page, '#identity-summary');
      const format = name.slice(-3).toUpperCase();
      check(new RegExp(`'s ${format} patch \\(this build\\)$`).test(summary), `${label}: dist/${name} is identified: ${summary}`);
      const notes = await page.$eval('#identity-notes', (e) => e.textContent);
      check(/this is nestris-ai .*'s patch/.test(notes), `${label}: its facts are listed as identify lists them`);
      check(/Now drop the ROM/.test(await text(page, '#notice')), `${label}: the page asks for the ROM to apply it to`);
    }
    await uploadRom(page);
    check(await text(page, '#error') === '', `${label}: the BPS dropped first is applied to the ROM dropped after it ${await text(page, '#error')}`);
    const viaBps = await text(page, '#patched-sha1');
    check(/nestris-ai\.bps .* applied to/.test(await text(page, '#notice')), `${label}: it says so: ${await text(page, '#notice')}`);
    const direct = await page.evaluate((bytes) => window.nestris.state.patcher.patch(new Uint8Array(bytes)).sha1, Array.from(rom));
    check(viaBps === direct, `${label}: the result is the patched ROM (${viaBps})`);
    if (!synthetic) check(await text(page, '#patched-release') === '(the release\'s patched ROM)', `${label}: the release's patched ROM`);
    // A damaged patch is refused as damaged, and nothing changes.
    await upload(page, damaged);
    await page.waitForFunction(() => /damaged/.test(document.getElementById('error').textContent));
    check(/damaged BPS patch/.test(await text(page, '#error')), `${label}: a damaged BPS is refused: ${await text(page, '#error')}`);
    check(await text(page, '#patched-sha1') === viaBps, `${label}: and the patched ROM shown stays`);
    check(page.errors.length === 0, `${label}: no page errors ${page.errors.join('; ')}`);
    await page.close();
  }

  // 2. The canvas on screen without scrolling, at whole device pixels: desktop and phone.
  const desktop = await open(`${base}/index.html`, { setup: (p) => p.setViewport({ width: 1280, height: 720 }) });
  await uploadRom(desktop);
  let box = await inView(desktop, '#screen');
  check(box.ok, `1280x720: the canvas is in view without scrolling (${box.box})`);
  check(box.pixels % 256 === 0 && box.pixels >= 512, `1280x720: a whole multiple of 256 pixels wide, at least 2x (${box.pixels})`);
  check(await desktop.$eval('#touch', (e) => e.hidden), '1280x720 without touch: no touch controls');
  check(/^Drop .*click/.test(await desktop.$eval('#drop', (e) => e.innerText)), 'with a mouse the ROM\'s place says drop or click');
  check(await desktop.$eval('#screen', (e) => getComputedStyle(e).imageRendering) === 'pixelated', 'crisp pixels (image-rendering: pixelated)');
  await desktop.select('#scale', '1');
  box = await inView(desktop, '#screen');
  check(box.pixels === 256, `the size choice 1x gives 256 pixels (${box.pixels})`);
  await desktop.select('#scale', 'auto');

  // Full screen, toggled by the button and left with F.
  await desktop.click('#fullscreen');
  await desktop.waitForFunction(() => document.fullscreenElement && document.fullscreenElement.id === 'player', { timeout: 5000 })
    .then(() => check(true, 'full screen: the player fills the screen'), () => check(false, 'full screen: the player fills the screen'));
  await desktop.keyboard.press('KeyF');
  await desktop.waitForFunction(() => !document.fullscreenElement, { timeout: 5000 })
    .then(() => check(true, 'full screen: F leaves it'), () => check(false, 'full screen: F leaves it'));

  // Pause is shown.
  await desktop.click('#pause');
  check(!(await desktop.$eval('#paused-banner', (e) => e.hidden)) && await text(desktop, '#status') === 'Paused',
        'pause: the canvas says Paused, and the status too');
  await desktop.click('#pause');
  check(await desktop.$eval('#paused-banner', (e) => e.hidden), 'resume: the banner goes');
  await desktop.close();

  const phone = await open(`${base}/index.html`, {
    setup: (p) => p.emulate({ viewport: { width: 390, height: 844, deviceScaleFactor: 3, isMobile: true, hasTouch: true },
                              userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile' }) });
  await uploadRom(phone);
  box = await inView(phone, '#screen');
  check(box.ok, `390x844 phone: the canvas is in view without scrolling (${box.box})`);
  check(box.pixels % 256 === 0, `390x844 phone: whole device pixels (${box.pixels} wide)`);
  const pad = await inView(phone, '#touch');
  check(pad.ok, `390x844 phone: the touch controls are shown, in view (${pad.box})`);

  // 3. Touch plays.
  const center = (selector) => phone.$eval(selector, (e) => {
    const r = e.getBoundingClientRect();
    return [r.left + r.width / 2, r.top + r.height / 2];
  });
  const hold = async (selector, frames) => {
    const [x, y] = await center(selector);
    await phone.touchscreen.touchStart(x, y);
    await phone.waitForFunction(() => window.nestris.state.touch !== 0, { timeout: 2000 }).catch(() => {});
    await phone.evaluate((n) => window.nestris.runFrames(n), frames);
    const seen = await phone.evaluate(() => window.nestris.state.console.readRam(1));
    await phone.touchscreen.touchEnd();
    return seen;
  };
  if (synthetic) {
    // The synthetic ROM keeps the buttons it read at $01, A in bit 7 ... Right in bit 0.
    await phone.evaluate(() => window.nestris.runFrames(10));  // past the first frames, which read no buttons
    const expectBits = { Start: 0x10, A: 0x80, Left: 0x02, Select: 0x20 };
    for (const [name, bits] of Object.entries(expectBits)) {
      const seen = await hold(`#touch [data-b="${name}"]`, 2);
      check(seen === bits, `touch ${name}: the NES reads it (${seen.toString(16)})`);
    }
    await phone.evaluate(() => window.nestris.runFrames(2));
    check(await phone.evaluate(() => window.nestris.state.console.readRam(1)) === 0, 'touch released: no button');
    // A chord held: the NES's buttons frame by frame (after one frame, after `at` more each).
    const chord = async (name, at) => {
      const [x, y] = await center(`#touch [data-b="${name}"]`);
      await phone.touchscreen.touchStart(x, y);
      await phone.waitForFunction(() => window.nestris.state.chord >= 0, { timeout: 2000 }).catch(() => {});
      const seen = [];
      for (const n of [1, ...at]) {
        await phone.evaluate((k) => window.nestris.runFrames(k), n);
        seen.push(await phone.evaluate(() => window.nestris.state.console.readRam(1)));
      }
      await phone.touchscreen.touchEnd();
      await phone.evaluate(() => window.nestris.runFrames(2));
      return seen;
    };
    const ai = await chord('Chord', [4]);
    check(ai[0] === 0x20 && ai[1] === 0x30, `touch AI game: Select held, then Start with it (${ai.map((b) => b.toString(16))})`);
    // The coach's: A and B together (B alone goes back on the level menu), B held, Start with it.
    const coach = await chord('Coach', [3, 4]);
    check(coach[0] === 0xC0 && coach[1] === 0x40 && coach[2] === 0x50,
          `touch Coach: A and B, then B held, then Start with it (${coach.map((b) => b.toString(16))})`);
    // Hate mode's: Select held, then B with it (B alone goes back on the level menu), Start with both.
    const hate = await chord('Hate', [3, 4]);
    check(hate[0] === 0x20 && hate[1] === 0x60 && hate[2] === 0x70,
          `touch Hate: Select held, then B with it, then Start with both (${hate.map((b) => b.toString(16))})`);
    // The coach's key of its own, C: the same chord while it is held, nothing once let go.
    await phone.keyboard.down('KeyC');
    const byKey = [];
    for (const n of [1, 3, 4]) {
      await phone.evaluate((k) => window.nestris.runFrames(k), n);
      byKey.push(await phone.evaluate(() => window.nestris.state.console.readRam(1)));
    }
    await phone.keyboard.up('KeyC');
    await phone.evaluate(() => window.nestris.runFrames(2));
    const afterKey = await phone.evaluate(() => window.nestris.state.console.readRam(1));
    check(byKey[0] === 0xC0 && byKey[1] === 0x40 && byKey[2] === 0x50 && afterKey === 0,
          `key C: the coach's chord, then nothing once let go (${byKey.map((b) => b.toString(16))}, ${afterKey.toString(16)})`);
    // The chart after a coach game, from the classes the page read lock by lock.
    await phone.evaluate(() => window.nestris.showCoachChart([0, 0, 2, 5, 1]));
    const drawn = await phone.evaluate(() => ({ shown: !document.getElementById('coach-chart').hidden,
                                               marks: [...document.querySelectorAll('#coach-classes .coach-mark')].map((m) => m.getAttribute('class')),
                                               summary: document.getElementById('coach-summary').textContent }));
    check(drawn.shown && drawn.marks.length === 5 && drawn.marks[3] === 'coach-mark coach-class-5' &&
          drawn.summary === '5 locks classed: best 2, excellent 1, good 1, inaccuracy 0, mistake 0, blunder 1; accuracy 72 %',
          `the coach's chart: a mark a lock on its class's row, the counts and the accuracy (${drawn.summary})`);
  } else {
    // Tetris: Start touched through the title, the game type and the level menus starts a game.
    await phone.evaluate(() => window.nestris.runFrames(300));
    let mode = 0;
    for (let i = 0; i < 40 && mode !== 4; ++i) {
      await hold('#touch [data-b="Start"]', 4);
      await phone.evaluate(() => window.nestris.runFrames(40));
      mode = await phone.evaluate(() => window.nestris.state.console.readRam(0xC0));
    }
    check(mode === 4, `touch Start through the menus: the game starts (gameMode ${mode})`);

    // The coach's key C on the level menu starts a coach game at the first try; nobody plays, so
    // the pieces pile up at the spawn column and the game ends; after its Start, the chart of each
    // lock's class.
    await phone.evaluate(() => { window.nestris.state.console.reset(); window.nestris.runFrames(300); });
    for (let i = 0; i < 3; ++i) {
      await hold('#touch [data-b="Start"]', 4);
      await phone.evaluate(() => window.nestris.runFrames(30));
    }
    const menu = await phone.evaluate(() => window.nestris.state.console.readRam(0xC0));
    for (let i = 0; i < 9; ++i) {  // level 9: the pieces fall fast enough to end the game soon
      await hold('#touch [data-b="Right"]', 2);
      await phone.evaluate(() => window.nestris.runFrames(2));
    }
    await phone.keyboard.down('KeyC');
    await phone.evaluate(() => window.nestris.runFrames(12));
    await phone.keyboard.up('KeyC');
    const coaching = await phone.evaluate(() => window.nestris.state.console.readRam(window.NESTRIS_COACH.ai_mode) ===
                                                window.NESTRIS_COACH.coach_mode);
    check(menu === 3 && coaching, `key C on the level menu: a coach game (gameMode ${menu} before, coaching: ${coaching})`);
    // (playState $48 is 10 while the curtain falls: the game is over, Start leaves it)
    for (let i = 0; i < 20 && await phone.evaluate(() => window.nestris.state.console.readRam(0x48)) !== 10; ++i)
      await phone.evaluate(() => window.nestris.runFrames(300));
    await phone.evaluate(() => window.nestris.runFrames(200));
    await hold('#touch [data-b="Start"]', 4);
    await phone.evaluate(() => window.nestris.runFrames(30));
    const chart = await phone.evaluate(() => ({ shown: !document.getElementById('coach-chart').hidden,
                                               marks: document.querySelectorAll('#coach-classes .coach-mark').length,
                                               summary: document.getElementById('coach-summary').textContent }));
    check(chart.shown && chart.marks > 3 && /locks classed: best \d+/.test(chart.summary),
          `after the coach game, the chart of its locks' classes (${chart.marks} marks: ${chart.summary})`);

    // And by touch: the Coach button on the level menu, at the first try.
    await phone.evaluate(() => { window.nestris.state.console.reset(); window.nestris.runFrames(300); });
    for (let i = 0; i < 3; ++i) {
      await hold('#touch [data-b="Start"]', 4);
      await phone.evaluate(() => window.nestris.runFrames(30));
    }
    const [cx, cy] = await center('#touch [data-b="Coach"]');
    await phone.touchscreen.touchStart(cx, cy);
    await phone.waitForFunction(() => window.nestris.state.chord >= 0, { timeout: 2000 }).catch(() => {});
    await phone.evaluate(() => window.nestris.runFrames(12));
    await phone.touchscreen.touchEnd();
    const byTouch = await phone.evaluate(() => window.nestris.state.console.readRam(window.NESTRIS_COACH.ai_mode) ===
                                               window.NESTRIS_COACH.coach_mode);
    check(byTouch, 'touch Coach on the level menu: a coach game at the first try');
  }

  // 3b. Fingertip-sized controls: every visible control on the phone at least 44 CSS pixels each
  // way (a checkbox through its label), the Controls section open, then in full screen, which
  // keeps pause, sound and its way out in view.
  await phone.$eval('#controls', (e) => { e.open = true; });
  const small = (within) => phone.evaluate((selector) => {
    const root = document.querySelector(selector);
    const controls = [...root.querySelectorAll('button, select, summary, a[href], input')].filter((e) => e.checkVisibility());
    return { count: controls.length, small: controls.map((e) => {
      const r = (/^(checkbox|radio)$/.test(e.type) && e.closest('label') || e).getBoundingClientRect();
      return { what: e.id || e.dataset.b || e.textContent.trim().slice(0, 20) || e.tagName, w: r.width, h: r.height };
    }).filter((b) => b.w < 44 || b.h < 44).map((b) => `${b.what} ${b.w.toFixed(1)}x${b.h.toFixed(1)}`) };
  }, within);
  let sizes = await small('body');
  check(sizes.count >= 20 && sizes.small.length === 0,
        `390x844 phone: all ${sizes.count} visible controls at least 44x44 CSS px (smaller: ${sizes.small.join(', ') || 'none'})`);
  await phone.$eval('#controls', (e) => { e.open = false; });
  await phone.tap('#fullscreen');
  const full = await phone.waitForFunction(() => document.fullscreenElement, { timeout: 5000 }).then(() => true, () => false);
  check(full, '390x844 phone: Full screen tapped: the player fills the screen');
  if (full) {
    sizes = await small('#player');
    check(sizes.count >= 14 && sizes.small.length === 0,
          `390x844 phone, full screen: all ${sizes.count} visible controls at least 44x44 CSS px (smaller: ${sizes.small.join(', ') || 'none'})`);
    for (const id of ['pause', 'mute', 'fullscreen']) {
      const reach = await phone.$eval(`#${id}`, (e) => document.fullscreenElement.contains(e));
      const view = await inView(phone, `#${id}`);
      check(reach && view.ok, `390x844 phone, full screen: ${id} is there, in view (${view.box})`);
    }
    await phone.tap('#pause');
    check(await phone.evaluate(() => window.nestris.state.paused), 'full screen: Pause tapped pauses');
    const banner = await phone.$eval('#paused-banner', (e) => e.innerText);
    check(/\btap\b/i.test(banner) && !/\b(press|click)/i.test(banner), `full screen, touch: the pause banner says tap: ${banner}`);
    await phone.tap('#pause');
    const muted = await phone.evaluate(() => window.nestris.state.muted);
    await phone.tap('#mute');
    check(await phone.evaluate(() => window.nestris.state.muted) !== muted, 'full screen: Sound tapped mutes or unmutes');
    await phone.tap('#mute');
    await phone.tap('#fullscreen');
    check(await phone.waitForFunction(() => !document.fullscreenElement, { timeout: 5000 }).then(() => true, () => false),
          'full screen: Leave full screen tapped leaves it');
  }
  // 3c. Touch words: "tap", never "drop" or "click", in all the page shows, on touch only.
  const words = (page) => page.evaluate(() => document.body.innerText);
  const mouseWords = /\b(drop|click)/i;
  let shown = await words(phone);
  check(!mouseWords.test(shown), `touch: no "drop" or "click" on the page (${(shown.match(mouseWords) || ['none'])[0]})`);
  check(/\btap\b/i.test(await phone.$eval('#drop', (e) => e.innerText)), `touch: the ROM's place says tap: ${await phone.$eval('#drop', (e) => e.innerText)}`);
  check(phone.errors.length === 0, `phone: no page errors ${phone.errors.join('; ')}`);
  await phone.close();
  // On a fresh phone page too (the introduction is shown), and with a patch opened first.
  const fresh = await open(`${base}/index.html`, {
    setup: (p) => p.emulate({ viewport: { width: 390, height: 844, deviceScaleFactor: 3, isMobile: true, hasTouch: true },
                              userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile' }) });
  shown = await words(fresh);
  check(!mouseWords.test(shown) && /\btap\b/i.test(shown), `touch, before any file: tap, no drop or click (${(shown.match(mouseWords) || ['none'])[0]})`);
  await upload(fresh, join(site, 'nestris-ai.ips'));
  await fresh.waitForFunction(() => !document.getElementById('notice').hidden);
  shown = await words(fresh);
  check(!mouseWords.test(shown), `touch, a patch opened first: ${await text(fresh, '#notice')}`);
  await fresh.close();

  // 4. A refused file after a good one: the game plays on; the message is beside the drop zone.
  const live = await open(`${base}/index.html`, { step: false, setup: (p) => p.setViewport({ width: 1280, height: 720 }) });
  await uploadRom(live);
  await live.waitForFunction(() => window.nestris.state.console.frame() > 10);
  const summary = await text(live, '#identity-summary');
  const patchedSha1 = await text(live, '#patched-sha1');
  for (const file of [other, damaged, ...reasons.map(([name]) => join(scratch, name))]) {
    const name = file.replace(/.*\//, '');
    await upload(live, file);
    await live.waitForFunction((n) => document.getElementById('error').textContent.startsWith(n), {}, name);
    const reason = reasons.find(([n]) => n === name);
    if (reason) check(reason[2].test(await text(live, '#error')), `${reason[3]}: its own reason: ${await text(live, '#error')}`);
    const f0 = await frame(live);
    await sleep(500);
    check(await frame(live) > f0 + 10, `after ${file.replace(/.*\//, '')} is refused the game runs on (${f0} -> ${await frame(live)})`);
    check(/plays on/.test(await text(live, '#error')), `the refusal says so: ${await text(live, '#error')}`);
    check(await text(live, '#identity-summary') === summary && await text(live, '#patched-sha1') === patchedSha1,
          'the details shown are still the game\'s');
    const gap = await live.evaluate(() => document.getElementById('error').getBoundingClientRect().top
                                          - document.getElementById('drop').getBoundingClientRect().bottom);
    check(gap >= 0 && gap < 40 && (await inView(live, '#error')).ok, `the message is beside the drop zone, in view (${gap}px below it)`);
  }

  // 5. Files dropped anywhere on the page are opened (never left to the browser); an already
  // patched ROM says it plays as it is.
  const dropped = await live.evaluate(async () => {
    const bytes = window.nestris.state.patched.bytes;
    const data = new DataTransfer();
    data.items.add(new File([bytes], 'already-patched.nes'));
    const event = new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true });
    document.querySelector('footer').dispatchEvent(event);
    await new Promise((ok) => setTimeout(ok, 300));
    return { prevented: event.defaultPrevented, note: document.getElementById('play-note').hidden ? '' : document.getElementById('play-note').textContent };
  });
  check(dropped.prevented, 'a drop on the footer is the page\'s (the browser does not open or download it)');
  check(/already-patched\.nes plays as it is/.test(dropped.note), `an already patched ROM: ${dropped.note}`);
  check(live.errors.length === 0, `live: no page errors ${live.errors.join('; ')}`);

  // 6. Keys remapped are kept: Start on S, over a reload.
  await live.click('#controls summary');
  await live.click('#keymap tr[data-button="Start"] button.remap');
  await live.keyboard.press('KeyS');
  const keyShown = () => live.$eval('#keymap tr[data-button="Start"] .key', (e) => e.textContent);
  check(await keyShown() === 'S', `remap: Start is on ${await keyShown()}`);
  await live.reload();
  await live.evaluate(() => window.nestris.ready);
  await acceptSynthetic(live);
  check(await keyShown() === 'S', `remap: kept over a reload (${await keyShown()})`);
  await uploadRom(live);
  await live.keyboard.down('KeyS');
  const withS = await live.evaluate(() => window.nestris.state.keys);
  await live.keyboard.up('KeyS');
  await live.keyboard.down('Enter');
  const withEnter = await live.evaluate(() => window.nestris.state.keys);
  await live.keyboard.up('Enter');
  check(withS === 0x08 && withEnter === 0, `remap: S is Start, Enter is nothing now (${withS}, ${withEnter})`);
  await live.click('#controls summary');
  await live.click('#keys-default');
  check(await keyShown() === 'Enter', 'default keys: Start is back on Enter');
  await live.close();
} finally {
  await browser.close();
  server.close();
  rmSync(scratch, { recursive: true, force: true });
}
finish();
