// The page: load the WebAssembly module (nestris.js, built from ../patcher and ../emu-test),
// the patch served beside the page, then identify, patch and play the ROM the user drops.
// Everything stays in the browser. window.nestris is what the page's test drives.
'use strict';

const NES_FRAME_MS = 1000 / 60.0988;  // NTSC: 60.0988 frames a second
const BUTTON = { A: 0x01, B: 0x02, Select: 0x04, Start: 0x08, Up: 0x10, Down: 0x20, Left: 0x40, Right: 0x80 };
const KEYS = {
  ArrowUp: BUTTON.Up, ArrowDown: BUTTON.Down, ArrowLeft: BUTTON.Left, ArrowRight: BUTTON.Right,
  KeyX: BUTTON.A, KeyZ: BUTTON.B, Enter: BUTTON.Start, ShiftLeft: BUTTON.Select, ShiftRight: BUTTON.Select,
};
// Gamepad API standard layout: 0 bottom, 1 right, 8 back, 9 start, 12-15 d-pad.
const PAD = [[1, BUTTON.A], [0, BUTTON.B], [8, BUTTON.Select], [9, BUTTON.Start],
             [12, BUTTON.Up], [13, BUTTON.Down], [14, BUTTON.Left], [15, BUTTON.Right]];

// ?step: no real-time loop; frames run only when asked (window.nestris.runFrames), for tests.
const STEP_MODE = new URLSearchParams(location.search).has('step');

const $ = (id) => document.getElementById(id);
const state = { module: null, patcher: null, console: null, patched: null, release: null,
                keys: 0, running: false, paused: false, jammed: false, last: 0, debt: 0 };

function showError(text) {
  $('error').textContent = text;
  $('error').hidden = !text;
}

function parseRelease(text) {
  const record = {};
  for (const line of text.split('\n')) {
    const m = line.replace(/#.*/, '').match(/^\s*(\w+)\s*=\s*(\S+)\s*$/);
    if (m) record[m[1]] = m[2];
  }
  return record;
}

// The one-file page (nestris-ai.html) carries its patches inline (hex); the served page fetches them.
const EMBEDDED = window.NESTRIS_EMBEDDED || null;
const fromHex = (hex) => Uint8Array.from(hex.match(/../g) || [], (byte) => parseInt(byte, 16));

async function fetchBytes(url) {
  if (EMBEDDED) {
    const hex = EMBEDDED[url.replace(/^nestris-ai\./, '')];
    if (!hex) throw new Error(`${url} is not in this page`);
    return fromHex(hex);
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function start() {
  state.module = await NestrisModule();
  state.patcher = new state.module.Patcher();
  const loaded = JSON.parse(state.patcher.loadPatch(await fetchBytes('nestris-ai.ips')));
  if (loaded.error) throw new Error(`nestris-ai.ips: ${loaded.error}`);
  $('version').textContent = `${loaded.version}, build ${loaded.build}`;
  if (EMBEDDED) {
    // The patch links point into the page itself.
    for (const link of document.querySelectorAll('a[href="nestris-ai.ips"], a[href="nestris-ai.bps"]')) {
      const bytes = await fetchBytes(link.getAttribute('href')).catch(() => null);
      if (bytes) link.href = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
      else link.removeAttribute('href');
    }
  }
  try {
    state.release = parseRelease(EMBEDDED ? EMBEDDED.release : await (await fetch('release.txt')).text());
  } catch (e) {
    state.release = null;  // the page works without it; it only says whether the result is the release's
  }
  state.console = new state.module.Console();
}

function showIdentity(id) {
  $('identity').hidden = false;
  $('identity-summary').textContent = id.summary;
  $('identity-summary').className = id.patchable ? 'ok' : 'warn';
  $('identity-size').textContent = `${id.size} bytes`;
  $('identity-sha1').textContent = id.sha1;
  $('identity-crc32').textContent = id.crc32;
  const notes = $('identity-notes');
  notes.textContent = '';
  for (const note of id.notes) {
    const li = document.createElement('li');
    li.textContent = note;
    notes.appendChild(li);
  }
}

function showPatched(result, name) {
  $('step-patch').hidden = false;
  $('patch-summary').textContent = `Patched ${result.summary}; every patched byte checked, every other byte unchanged.`;
  $('patched-sha1').textContent = result.sha1;
  $('patched-crc32').textContent = result.crc32;
  const release = state.release && state.release.patched_sha1;
  $('patched-release').textContent = !release ? '' : release === result.sha1
    ? '(the release\'s patched ROM)' : '(differs from the release\'s patched ROM)';
  const link = $('download');
  if (link.href) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(new Blob([result.bytes], { type: 'application/octet-stream' }));
  link.download = name.replace(/\.[^.]*$/, '') + '-nestris-ai.nes';
}

// Identifies the file, patches it if it is the supported original, and plays the result (or
// plays it as it is when it is already this build's patched ROM).
function openRom(bytes, name) {
  showError('');
  $('step-patch').hidden = true;
  const id = JSON.parse(state.patcher.identify(bytes));
  showIdentity(id);
  let playable = null;
  if (id.patchable) {
    const result = state.patcher.patch(bytes);
    if (!result.ok) return showError(result.error);
    state.patched = result;
    showPatched(result, name);
    playable = result.bytes;
  } else if (id.kind === 'patched' && /\(this build\)$/.test(id.summary)) {
    playable = bytes;
  } else {
    return showError('This file cannot be patched: ' + id.summary);
  }
  const problem = state.console.load(playable);
  if (problem) return showError(problem);
  $('step-play').hidden = false;
  state.jammed = false;
  draw();
  if (!state.running && !STEP_MODE) {
    state.running = true;
    state.last = performance.now();
    requestAnimationFrame(tick);
  }
}

function padButtons() {
  let buttons = 0;
  for (const pad of (navigator.getGamepads ? navigator.getGamepads() : [])) {
    if (!pad) continue;
    for (const [index, bit] of PAD) if (pad.buttons[index] && pad.buttons[index].pressed) buttons |= bit;
    const [x = 0, y = 0] = pad.axes;
    if (x < -0.5) buttons |= BUTTON.Left;
    if (x > 0.5) buttons |= BUTTON.Right;
    if (y < -0.5) buttons |= BUTTON.Up;
    if (y > 0.5) buttons |= BUTTON.Down;
  }
  return buttons;
}

function runFrames(n) {
  for (let i = 0; i < n && !state.jammed; ++i) {
    state.console.setButtons(state.keys | padButtons());
    if (!state.console.runFrame()) {
      state.jammed = true;
      $('status').textContent = 'The CPU stopped (jammed).';
    }
  }
  draw();
}

function draw() {
  const picture = state.console.picture();
  const context = $('screen').getContext('2d');
  context.putImageData(new ImageData(new Uint8ClampedArray(picture), 256, 240), 0, 0);
}

// Real time: as many NES frames as the clock says are due (at most 4 at once after a stall).
function tick(now) {
  if (!state.paused) {
    state.debt = Math.min(state.debt + (now - state.last), 4 * NES_FRAME_MS);
    let frames = 0;
    while (state.debt >= NES_FRAME_MS) {
      state.debt -= NES_FRAME_MS;
      ++frames;
    }
    if (frames) runFrames(frames);
  }
  state.last = now;
  requestAnimationFrame(tick);
}

async function pictureSha1() {
  const rgba = $('screen').getContext('2d').getImageData(0, 0, 256, 240).data;
  const rgb = new Uint8Array(256 * 240 * 3);
  for (let i = 0, j = 0; i < rgba.length; i += 4) {
    rgb[j++] = rgba[i];
    rgb[j++] = rgba[i + 1];
    rgb[j++] = rgba[i + 2];
  }
  return state.patcher.sha1(rgb);
}

function readFile(file) {
  file.arrayBuffer().then((buffer) => openRom(new Uint8Array(buffer), file.name),
                          (e) => showError(`${file.name}: ${e.message}`));
}

$('rom-input').addEventListener('change', (e) => { if (e.target.files[0]) readFile(e.target.files[0]); });
const drop = $('drop');
drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', (e) => {
  e.preventDefault();
  drop.classList.remove('over');
  if (e.dataTransfer.files[0]) readFile(e.dataTransfer.files[0]);
});
window.addEventListener('keydown', (e) => {
  if (!(e.code in KEYS) || $('step-play').hidden) return;
  state.keys |= KEYS[e.code];
  e.preventDefault();
});
window.addEventListener('keyup', (e) => { if (e.code in KEYS) state.keys &= ~KEYS[e.code]; });
$('pause').addEventListener('click', () => {
  state.paused = !state.paused;
  $('pause').textContent = state.paused ? 'Resume' : 'Pause';
});
$('reset').addEventListener('click', () => { state.console.reset(); state.jammed = false; });

// What the page's test uses: the module, the state, frames on demand, the canvas's checksum.
window.nestris = {
  ready: start().catch((e) => { showError('The page could not start: ' + e.message); throw e; }),
  state,
  runFrames,
  pictureSha1,
  pause() { state.paused = true; },
};
