// The page: load the WebAssembly module (nestris.js, built from ../patcher and ../emu-test),
// the patches served beside the page, then identify, patch and play the ROM the user drops
// (or apply the IPS or BPS patch the user drops to it). Everything stays in the browser. window.nestris is what the page's test drives.
'use strict';

const NES_FRAME_MS = 1000 / 60.0988;  // NTSC: 60.0988 frames a second
// The controller's bit of each button, from the WebAssembly module (emu-test/controller.hpp, the
// one source) once start() has loaded it; until then no button has a bit, and no console runs.
let BUTTON = {};
const BUTTON_ORDER = ['Up', 'Down', 'Left', 'Right', 'A', 'B', 'Select', 'Start'];
// The default keys; the player may remap them (kept in localStorage under KEYMAP_STORE).
const DEFAULT_KEYMAP = { Up: ['ArrowUp'], Down: ['ArrowDown'], Left: ['ArrowLeft'], Right: ['ArrowRight'],
                         A: ['KeyX'], B: ['KeyZ'], Select: ['ShiftLeft', 'ShiftRight'], Start: ['Enter'] };
const KEYMAP_STORE = 'nestris-ai.keys';
const SCALE_STORE = 'nestris-ai.scale';
const TOUCH_STORE = 'nestris-ai.touch';
const MUTE_STORE = 'nestris-ai.mute';
// The chords on touch (and the coach's on a key of its own, CHORD_KEYS), frame by frame while the
// button is held, the last entry from then on: the AI's (Select held, then Start with it), the
// coach's (A and B pressed together, since B alone goes back on the level menu, then B held, then
// Start with it) and hate mode's (Select held, then B with it, then Start with both).
const CHORDS = {
  Chord: [['Select'], ['Select'], ['Select'], ['Select', 'Start']],
  Coach: [['A', 'B'], ['A', 'B'], ['A', 'B'], ['B'], ['B'], ['B'], ['B', 'Start']],
  Hate: [['Select'], ['Select'], ['Select'], ['Select', 'B'], ['Select', 'B'], ['Select', 'B'], ['Select', 'B', 'Start']],
};
const CHORD_KEYS = { KeyC: 'Coach' };
// Gamepad API standard layout: 0 bottom, 1 right, 8 back, 9 start, 12-15 d-pad.
const PAD = [[1, 'A'], [0, 'B'], [8, 'Select'], [9, 'Start'], [12, 'Up'], [13, 'Down'], [14, 'Left'], [15, 'Right']];

// ?step: no real-time loop; frames run only when asked (window.nestris.runFrames), for tests.
const STEP_MODE = new URLSearchParams(location.search).has('step');

const $ = (id) => document.getElementById(id);
// A touch device (a phone, a tablet): the page says "tap", not "drop" or "click", its controls are
// fingertip-sized (style.css, under html.touch-device), and the touch controls show by default.
const TOUCH_DEVICE = window.matchMedia('(pointer: coarse)').matches || navigator.maxTouchPoints > 0;
document.documentElement.classList.toggle('touch-device', TOUCH_DEVICE);
const tapOr = (mouse, touch) => (TOUCH_DEVICE ? touch : mouse);
const state = { module: null, patcher: null, console: null, patched: null, release: null,
                keys: 0, touch: 0, chord: -1, chordName: null, running: false, paused: false, jammed: false, last: 0, debt: 0,
                rom: null, patch: null, playing: null, keymap: null, scale: 'auto',
                audio: null, muted: false, frames: 0, stats: null };

function store(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch (e) { /* no storage (private mode, file://): the choice lasts this visit */ }
}
function stored(key) {
  try { return localStorage.getItem(key); } catch (e) { return null; }
}

// A refused file: its message beside the drop zone; nothing that was shown or playing changes.
function showError(text) {
  $('error').textContent = text;
  $('error').hidden = !text;
  if (text) $('notice').hidden = true;
}
function showNotice(text) {
  $('notice').textContent = text;
  $('notice').hidden = !text;
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
  BUTTON = state.module.buttons();
  state.patcher = new state.module.Patcher();
  const loaded = JSON.parse(state.patcher.loadPatch(await fetchBytes('nestris-ai.ips')));
  if (loaded.error) throw new Error(`nestris-ai.ips: ${loaded.error}`);
  $('version').textContent = `${loaded.version}, build ${loaded.build}`;
  // This build's BPS, so that a dropped nestris-ai.bps is named as this build's.
  const bps = await fetchBytes('nestris-ai.bps').catch(() => null);
  if (bps) state.patcher.loadBps(bps);
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
  const thisBuild = (id.kind === 'patched' && /\(this build\)$/.test(id.summary)) || (id.kind === 'patch' && id.this_build);
  $('identity-summary').className = id.patchable || thisBuild ? 'ok' : 'warn';
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
  $('patch-summary').textContent = result.summary;
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

const describe = (name, id) => `${name} (${id.size} bytes, SHA-1 ${id.sha1})`;

// A file the page will not take: said beside the drop zone; the game playing (if any), its
// details and its patched ROM all stay as they were.
function refuse(text) {
  showError(text + (state.playing ? ` Nothing changed: ${state.playing} plays on.` : ''));
}

// Starts a ROM on a fresh console; the one playing is replaced only when the new one runs.
// Returns "" or why it cannot run.
function play(bytes, name, note) {
  const next = new state.module.Console();
  const problem = next.load(bytes);
  if (problem) {
    next.delete();
    return problem;
  }
  if (state.audio && state.audio.node) next.enableSound(state.audio.context.sampleRate);
  if (state.console) state.console.delete();
  state.console = next;
  state.playing = name;
  state.jammed = false;
  $('status').textContent = '';
  $('play-note').textContent = note || '';
  $('play-note').hidden = !note;
  $('step-play').hidden = false;
  document.body.classList.add('playing');
  layoutScreen();
  setPaused(false);
  draw();
  if (!state.running && !STEP_MODE) {
    state.running = true;
    state.clockSource = null;
    requestAnimationFrame(tick);
  }
  return '';
}

// Identifies a ROM, patches it if it is the supported original, and plays the result (or
// plays it as it is when it is already this build's patched ROM). With a patch dropped before
// (and not yet applied), that patch is applied to it instead.
function openRom(bytes, name, id) {
  if (state.patch && !state.patch.applied) return applyPatch({ bytes, name, id });
  let result = null, note = '', playable = null;
  if (id.patchable) {
    result = state.patcher.patch(bytes);
    if (!result.ok) return refuse(`${name}: ${result.error}.`);
    result.summary = `Patched ${result.summary}; every patched byte checked, every other byte unchanged.`;
    playable = result.bytes;
  } else if (id.kind === 'patched' && /\(this build\)$/.test(id.summary)) {
    playable = bytes;
    note = `${name} plays as it is: it is already patched by this build of nestris-ai, so there is nothing to patch.`;
  } else {
    // Why, as a player can act on it (nestris_web.cpp: an archive, a dump cut short or with bytes
    // appended, the PAL game, or the checksum wanted).
    return refuse(`${describe(name, id)} cannot be patched: ${id.refusal}.`);
  }
  const problem = play(playable, name, note);
  if (problem) return refuse(`${name}: ${problem}`);
  showError('');
  showNotice('');
  state.rom = { bytes, name, id };
  showIdentity(id);
  if (result) {
    state.patched = result;
    showPatched(result, name);
  } else {
    $('step-patch').hidden = true;
  }
}

// A dropped patch file (IPS or BPS): identified as `nestris-ai identify` does; applied to the
// ROM dropped before it, or kept until a ROM is dropped.
function openPatch(bytes, name, id) {
  if (!id.readable) return refuse(`${describe(name, id)} is refused: ${id.summary}: ${id.damage}.`);
  state.patch = { bytes, name, id, applied: false };
  if (state.rom) return applyPatch(state.rom);
  showError('');
  showIdentity(id);
  showNotice(`${name}: ${id.summary}. Now ${tapOr('drop', 'open')} the ROM to apply it to.`);
}

function applyPatch(rom) {
  const patch = state.patch;
  const result = state.patcher.apply(rom.bytes, patch.bytes);
  if (!result.ok) return refuse(`${patch.name} cannot be applied to ${rom.name}: ${result.error}.`);
  const patchedId = JSON.parse(state.patcher.identify(result.bytes));
  const name = rom.name;
  const problem = play(result.bytes, `${name} with ${patch.name}`,
                       patch.id.this_build ? '' : `${name} with ${patch.name} applied: ${patchedId.summary}.`);
  showError('');
  patch.applied = true;
  state.rom = rom;
  showIdentity(rom.id);
  state.patched = result;
  result.summary += ` The result: ${patchedId.summary}.`;
  showPatched(result, name);
  showNotice(`${patch.name} (${patch.id.summary}) applied to ${name}.` +
             (problem ? ` The result cannot play here (${problem}); download it instead.` : ''));
}

function openFile(bytes, name) {
  const id = JSON.parse(state.patcher.identify(bytes));
  if (id.kind === 'patch') openPatch(bytes, name, id);
  else openRom(bytes, name, id);
}

function padButtons() {
  let buttons = 0;
  for (const pad of (navigator.getGamepads ? navigator.getGamepads() : [])) {
    if (!pad) continue;
    for (const [index, name] of PAD) if (pad.buttons[index] && pad.buttons[index].pressed) buttons |= BUTTON[name];
    const [x = 0, y = 0] = pad.axes;
    if (x < -0.5) buttons |= BUTTON.Left;
    if (x > 0.5) buttons |= BUTTON.Right;
    if (y < -0.5) buttons |= BUTTON.Up;
    if (y > 0.5) buttons |= BUTTON.Down;
  }
  return buttons;
}

function buttonsNow() {
  let buttons = state.keys | state.touch | padButtons();
  if (state.chord >= 0) {
    const frames = CHORDS[state.chordName];
    for (const name of frames[Math.min(state.chord, frames.length - 1)]) buttons |= BUTTON[name];
    state.chord += 1;
  }
  return buttons;
}

function runFrames(n) {
  for (let i = 0; i < n && !state.jammed; ++i) {
    ++state.frames;
    state.console.setButtons(buttonsNow());
    if (!state.console.runFrame()) {
      state.jammed = true;
      $('status').textContent = `The CPU stopped: ${state.console.stopMessage() || 'nothing is loaded'}.`;
      soundPlaying(false);
    }
  }
  pushSound();
  draw();
  watchCoach();
}

// ---- The coach's classes (coach_map.js: the cartridge's RAM addresses and the reference's
// classes, made at build time). While a coach game runs, each frame's class counts say which class
// each lock got; when the game ends (the cartridge leaves the coach), the chart shows them in order.

const coach = { active: false, counts: null, classes: [] };
function coachCounts(map) {
  const counts = [];
  for (let c = 0; c < map.classes.names.length; ++c)
    counts.push(state.console.readRam(map.class_lo + c) | state.console.readRam(map.class_hi + c) << 8);
  return counts;
}
function watchCoach() {
  const map = window.NESTRIS_COACH;
  if (!map || !state.console) return;
  const coaching = state.console.readRam(map.ai_mode) === map.coach_mode;
  if (!coaching) {
    if (coach.active && coach.classes.length) showCoachChart(coach.classes);
    coach.active = false;
    return;
  }
  const counts = coachCounts(map);
  if (!coach.active) {
    Object.assign(coach, { active: true, counts, classes: [] });
    $('coach-chart').hidden = true;
  }
  counts.forEach((n, c) => {
    for (let k = coach.counts[c]; k < n; ++k) coach.classes.push(c);
  });
  coach.counts = counts;
}

// The chart: one mark a lock, left to right, on the row of its class (best at the top), and the
// counts and the accuracy (the classes' points, in tenths, over the locks) above it.
function showCoachChart(classes) {
  const { names, points } = window.NESTRIS_COACH.classes;
  const svg = $('coach-classes');
  const rowHeight = 14, labelWidth = 80, step = 6;
  const width = labelWidth + Math.max(classes.length, 1) * step + step;
  svg.setAttribute('viewBox', `0 0 ${width} ${names.length * rowHeight}`);
  svg.textContent = '';
  const ns = 'http://www.w3.org/2000/svg';
  names.forEach((name, c) => {
    const label = document.createElementNS(ns, 'text');
    label.setAttribute('x', 2);
    label.setAttribute('y', c * rowHeight + rowHeight - 4);
    label.setAttribute('class', 'coach-row');
    label.textContent = name;
    svg.appendChild(label);
  });
  classes.forEach((c, i) => {
    const mark = document.createElementNS(ns, 'rect');
    mark.setAttribute('x', labelWidth + i * step);
    mark.setAttribute('y', c * rowHeight + 3);
    mark.setAttribute('width', step - 1);
    mark.setAttribute('height', rowHeight - 6);
    mark.setAttribute('class', `coach-mark coach-class-${c}`);
    svg.appendChild(mark);
  });
  const counts = names.map((_, c) => classes.filter((k) => k === c).length);
  const tenths = classes.reduce((sum, c) => sum + points[c], 0);
  const accuracy = classes.length ? Math.floor((100 * tenths) / (10 * classes.length)) : 0;
  $('coach-summary').textContent = `${classes.length} ${classes.length === 1 ? 'lock' : 'locks'} classed: ` +
    names.map((name, c) => `${name} ${counts[c]}`).join(', ') + `; accuracy ${accuracy} %`;
  $('coach-chart').hidden = false;
}

function draw() {
  const picture = state.console.picture();
  const context = $('screen').getContext('2d');
  context.putImageData(new ImageData(new Uint8ClampedArray(picture), 256, 240), 0, 0);
}

// The game's clock: the sound's once it plays, the display's before. The samples are made at the
// sound's rate, so on its clock the worklet's queue neither fills nor runs dry, however far the
// sound card's clock is from the display's (a few per cent on a loaded machine's virtual device).
function gameClock(now) {
  const audio = state.audio;
  if (audio && audio.node && audio.context.state === 'running') return { source: 'sound', ms: audio.context.currentTime * 1000 };
  return { source: 'display', ms: now };
}

// Real time: as many NES frames as the clock says are due (at most 4 at once after a stall).
function tick(displayNow) {
  const clock = gameClock(displayNow);
  if (clock.source !== state.clockSource) {  // a new clock: its time starts now
    state.clockSource = clock.source;
    state.last = clock.ms;
  }
  const now = clock.ms;
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

function setPaused(paused) {
  state.paused = paused;
  soundPlaying(!paused && !state.jammed);
  $('pause').textContent = paused ? 'Resume' : 'Pause';
  $('paused-banner').hidden = !paused;
  if (!state.jammed) $('status').textContent = paused ? 'Paused' : '';
  $('status').className = paused ? 'paused' : '';
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

// ---- The picture's size: whole device pixels per NES pixel, as large as the window allows.

function touchShown() {
  const choice = stored(TOUCH_STORE);
  if (choice !== null) return choice === '1';
  return TOUCH_DEVICE;
}

function layoutScreen() {
  $('touch').hidden = !touchShown();
  $('touch-toggle').checked = touchShown();
  if ($('step-play').hidden) return;
  const canvas = $('screen');
  const dpr = window.devicePixelRatio || 1;
  const full = document.fullscreenElement === $('player');
  const touchHeight = $('touch').hidden ? 0 : $('touch').getBoundingClientRect().height + 12;
  const barHeight = $('bar').getBoundingClientRect().height + 16;  // the bar stays in full screen
  let width, height;
  if (full) {
    width = window.innerWidth;
    height = window.innerHeight - touchHeight - barHeight;
  } else {
    width = $('player').clientWidth;
    const top = canvas.getBoundingClientRect().top + window.scrollY;
    height = window.innerHeight - top - touchHeight - barHeight;
  }
  let cssWidth, cssHeight;
  if (state.scale === 'fit') {
    const s = Math.max(0.5, Math.min(width / 256, height / 240));
    cssWidth = 256 * s;
    cssHeight = 240 * s;
  } else {
    const fits = Math.max(1, Math.floor(Math.min(width * dpr / 256, height * dpr / 240)));
    const k = state.scale === 'auto' || full ? fits : Number(state.scale);
    cssWidth = 256 * k / dpr;
    cssHeight = 240 * k / dpr;
  }
  canvas.style.width = `${cssWidth}px`;
  canvas.style.height = `${cssHeight}px`;
}

function setScale(value) {
  state.scale = ['auto', 'fit', '1', '2', '3', '4'].includes(value) ? value : 'auto';
  $('scale').value = state.scale;
  store(SCALE_STORE, state.scale === 'auto' ? null : state.scale);
  layoutScreen();
}

async function toggleFullscreen() {
  try {
    if (document.fullscreenElement) await document.exitFullscreen();
    else await $('player').requestFullscreen();
  } catch (e) {
    $('status').textContent = `Full screen is not available here (${e.message})`;
  }
}

// ---- Sound: the wasm NES makes samples at the AudioContext's rate; each batch of frames posts
// them to an AudioWorklet, which plays them from a queue. It starts at the first click or key
// (browsers allow sound only after a gesture) and is muted by a gain of 0 (kept in localStorage).
// The worklet counts the samples it receives and plays (and their energy, before the gain), and
// an underrun when a 128-sample block finds the queue short while the game is
// running (after a pause or an underrun it waits for 4 frames of samples before it plays again),
// and drops the oldest samples beyond 200 ms queued, so the delay stays small.
const SOUND_WORKLET = `
class NestrisSound extends AudioWorkletProcessor {
  constructor() {
    super();
    this.queue = []; this.head = 0; this.queued = 0;
    this.playing = false; this.primed = false;
    this.received = 0; this.played = 0; this.underruns = 0; this.dropped = 0; this.blocks = 0; this.energy = 0;
    this.prime = Math.round(sampleRate * 4 / 60.0988);
    this.limit = Math.round(sampleRate * 0.2);
    this.port.onmessage = (e) => {
      const d = e.data;
      if (d.samples) {
        this.queue.push(d.samples);
        this.queued += d.samples.length;
        this.received += d.samples.length;
        while (this.queued > this.limit) {
          const first = this.queue[0], n = Math.min(first.length - this.head, this.queued - this.limit);
          this.head += n; this.queued -= n; this.dropped += n;
          if (this.head === first.length) { this.queue.shift(); this.head = 0; }
        }
      } else if ('playing' in d) {
        this.playing = d.playing;
        if (!d.playing) this.primed = false;
      } else if (d.stats) {
        this.port.postMessage({ stats: { received: this.received, played: this.played, underruns: this.underruns,
                                          dropped: this.dropped, queued: this.queued, blocks: this.blocks,
                                          energy: this.energy,
                                          rate: sampleRate, time: currentTime } });
      }
    };
  }
  process(inputs, outputs) {
    const out = outputs[0][0];
    ++this.blocks;
    if (!this.primed && this.queued >= this.prime) this.primed = true;
    let i = 0;
    if (this.primed) {
      while (i < out.length && this.queue.length) {
        const first = this.queue[0], n = Math.min(out.length - i, first.length - this.head);
        out.set(first.subarray(this.head, this.head + n), i);
        i += n; this.head += n; this.queued -= n;
        if (this.head === first.length) { this.queue.shift(); this.head = 0; }
      }
      if (i < out.length) {
        if (this.playing) ++this.underruns;
        this.primed = false;
      }
    }
    out.fill(0, i);
    for (let k = 0; k < i; ++k) this.energy += out[k] * out[k];
    this.played += i;
    for (let c = 1; c < outputs[0].length; ++c) outputs[0][c].set(out);
    return true;
  }
}
registerProcessor('nestris-sound', NestrisSound);
`;

async function startSound() {
  if (state.audio) return;
  const AudioContextClass = window.AudioContext || window.webkitAudioContext;
  if (!AudioContextClass || !window.AudioWorkletNode) {
    state.audio = { error: 'this browser has no AudioWorklet' };
    showMute();
    return;
  }
  state.audio = { context: new AudioContextClass({ latencyHint: 'interactive' }), node: null, waiting: [] };
  state.audio.context.onstatechange = showMute;  // (the browser may suspend it, and resume it)
  try {
    // A data: URL: the one-file page opened from disk has an opaque origin, from which a Blob
    // URL's module does not load; a data: URL's does (and does on a served page too).
    await state.audio.context.audioWorklet.addModule(`data:text/javascript;charset=utf-8,${encodeURIComponent(SOUND_WORKLET)}`);
    const node = new AudioWorkletNode(state.audio.context, 'nestris-sound', { numberOfInputs: 0, outputChannelCount: [1] });
    const gain = state.audio.context.createGain();
    gain.gain.value = state.muted ? 0 : 1;
    node.connect(gain).connect(state.audio.context.destination);
    state.audio.node = node;
    state.audio.gain = gain;
    // Every caller waiting for the counts gets them (the page's test and the Stats line may ask at once).
    node.port.onmessage = (e) => {
      if (!e.data.stats) return;
      const waiting = state.audio.waiting;
      state.audio.waiting = [];
      for (const answer of waiting) answer(e.data.stats);
    };
    if (state.console) {
      const problem = state.console.enableSound(state.audio.context.sampleRate);
      if (problem) throw new Error(problem);
    }
    soundPlaying(!state.paused && !state.jammed && Boolean(state.console));
    await state.audio.context.resume();
  } catch (e) {
    state.audio.error = e.message;
  }
  showMute();
}

// The samples of the frames just run, to the worklet (copied out of wasm memory).
function pushSound() {
  if (!state.audio || !state.audio.node) return;
  const samples = state.console.samples();
  if (samples.length) state.audio.node.port.postMessage({ samples: new Float32Array(samples) });
}

function soundPlaying(playing) {
  if (state.audio && state.audio.node) state.audio.node.port.postMessage({ playing });
}

function setMuted(muted) {
  state.muted = muted;
  store(MUTE_STORE, muted ? '1' : null);
  if (state.audio && state.audio.gain) state.audio.gain.gain.value = muted ? 0 : 1;
  showMute();
}

function showMute() {
  const button = $('mute');
  button.setAttribute('aria-pressed', String(state.muted));
  // "on" only once the sound plays: before the first gesture the browser allows none
  const playing = Boolean(state.audio && state.audio.node && state.audio.context.state === 'running');
  if (state.audio && state.audio.error) button.textContent = 'Sound: none';
  else if (state.muted) button.textContent = 'Sound: off';
  else button.textContent = playing ? 'Sound: on' : `Sound: at a ${tapOr('click', 'tap')}`;
  button.title = state.audio && state.audio.error ? `No sound: ${state.audio.error}`
    : state.audio ? 'Sound on or off (M); kept in this browser'
    : `Sound starts at your first ${tapOr('click or key', 'tap')}; on or off (M), kept in this browser`;
}

// Frames a second and sound dropouts, on demand (I, or Stats on the bar): measured over each
// second of the display's clock, the dropouts being the worklet's underruns (its queue found
// short while the game ran) since the sound started. For a player who hears a crackle or sees a
// stutter: is it the machine or the page?
function showStats(on) {
  if (state.stats) clearInterval(state.stats.timer);
  state.stats = null;
  $('stats').hidden = !on;
  $('stats-toggle').setAttribute('aria-pressed', String(on));
  if (!on) return;
  const stats = { frames: state.frames, at: performance.now(), timer: 0 };
  stats.timer = setInterval(async () => {
    const now = performance.now();
    const fps = (state.frames - stats.frames) * 1000 / (now - stats.at);
    stats.frames = state.frames;
    stats.at = now;
    const sound = await soundStats();
    const dropouts = sound ? `${sound.underruns} sound dropout${sound.underruns === 1 ? '' : 's'}` : 'no sound yet';
    if (state.stats === stats) $('stats').textContent = `${fps.toFixed(1)} fps, ${dropouts}`;
  }, 1000);
  state.stats = stats;
  $('stats').textContent = 'measuring...';
}

// The worklet's counts (samples received and played, underruns, ...), for the page's test.
function soundStats() {
  if (!state.audio || !state.audio.node) return Promise.resolve(null);
  return new Promise((ok) => {
    state.audio.waiting.push((stats) => ok({ ...stats, contextState: state.audio.context.state, muted: state.muted,
                                             gain: state.audio.gain.gain.value }));
    state.audio.node.port.postMessage({ stats: true });
  });
}

for (const type of ['pointerdown', 'pointerup', 'keydown', 'touchend', 'click']) {
  window.addEventListener(type, () => { startSound(); }, { capture: true });
}

// ---- Keys: remappable, kept in localStorage.

function loadKeymap() {
  let map = null;
  try { map = JSON.parse(stored(KEYMAP_STORE)); } catch (e) { map = null; }
  state.keymap = {};
  for (const name of BUTTON_ORDER) {
    const codes = map && Array.isArray(map[name]) ? map[name].filter((c) => typeof c === 'string') : null;
    state.keymap[name] = codes || DEFAULT_KEYMAP[name].slice();
  }
}

function keyBits(code) {
  let bits = 0;
  for (const name of BUTTON_ORDER) if (state.keymap[name].includes(code)) bits |= BUTTON[name];
  return bits;
}

function keyName(code) {
  const arrows = { ArrowUp: '\u2191', ArrowDown: '\u2193', ArrowLeft: '\u2190', ArrowRight: '\u2192' };
  if (arrows[code]) return arrows[code];
  if (/^Key.$/.test(code)) return code.slice(3);
  if (/^Digit.$/.test(code)) return code.slice(5);
  return code.replace(/^(Shift|Control|Alt|Meta)(Left|Right)$/, '$2 $1').replace(/^Numpad/, 'Keypad ');
}

let remapping = null;  // the NES button waiting for its new key

function showKeymap() {
  const keys = (name) => state.keymap[name].map(keyName).join('/') || 'no key';
  $('keys-summary').textContent = `${['Up', 'Down', 'Left', 'Right'].map(keys).join(' ')} = D-pad, ` +
    ['A', 'B', 'Start', 'Select'].map((name) => `${keys(name)} = ${name}`).join(', ');
  const body = $('keymap').querySelector('tbody');
  body.textContent = '';
  for (const name of BUTTON_ORDER) {
    const row = document.createElement('tr');
    row.dataset.button = name;
    if (remapping === name) row.className = 'waiting';
    const nes = document.createElement('td');
    nes.textContent = name;
    const key = document.createElement('td');
    key.className = 'key';
    key.textContent = remapping === name ? 'press a key (Esc: keep)' : state.keymap[name].map(keyName).join(', ');
    const change = document.createElement('td');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'remap';
    button.textContent = 'Change';
    button.addEventListener('click', () => { remapping = name; showKeymap(); });
    change.appendChild(button);
    row.append(nes, key, change);
    body.appendChild(row);
  }
}

function remap(name, code) {
  for (const other of BUTTON_ORDER) state.keymap[other] = state.keymap[other].filter((c) => c !== code);
  state.keymap[name] = [code];
  store(KEYMAP_STORE, JSON.stringify(state.keymap));
}

// ---- Touch controls: each finger presses the button under it (sliding across the D-pad works).

// The chord held now (a touch button's or a key's; null: none), from its first frame when it changes.
function holdChord(chord) {
  if (chord !== state.chordName) state.chord = -1;
  state.chordName = chord;
  if (chord && state.chord < 0) state.chord = 0;
}

const touchPointers = new Map();
function touchUpdate() {
  let bits = 0, chord = null;
  for (const name of touchPointers.values()) {
    if (name in CHORDS) chord = chord || name;
    else if (name) bits |= BUTTON[name];
  }
  state.touch = bits;
  holdChord(chord);
  for (const button of $('touch').querySelectorAll('[data-b]')) {
    button.classList.toggle('down-now', [...touchPointers.values()].includes(button.dataset.b));
  }
}
function touchTarget(e) {
  const under = document.elementFromPoint(e.clientX, e.clientY);
  const button = under && under.closest('#touch [data-b]');
  return button ? button.dataset.b : null;
}

// ---- Events.

function readFiles(files) {
  // Patches first: a ROM dropped with its patch gets it.
  const list = [...files];
  Promise.all(list.map((file) => file.arrayBuffer().then((buffer) => ({ name: file.name, bytes: new Uint8Array(buffer) }))))
    .then((read) => {
      const isPatch = (f) => /^(PATCH|BPS1)/.test(String.fromCharCode(...f.bytes.subarray(0, 5)));
      read.sort((a, b) => isPatch(b) - isPatch(a));
      for (const f of read) openFile(f.bytes, f.name);
    }, (e) => refuse(`${list.map((f) => f.name).join(', ')}: ${e.message}.`));
}

$('rom-input').addEventListener('change', (e) => {
  if (e.target.files.length) readFiles(e.target.files);
  e.target.value = '';
});
// Files may be dropped anywhere on the page (never opened or downloaded by the browser).
let dragDepth = 0;
const dragging = (on) => {
  document.body.classList.toggle('dragging', on);
  $('drop-overlay').hidden = !on;
};
const hasFiles = (e) => e.dataTransfer && [...e.dataTransfer.types].includes('Files');
window.addEventListener('dragenter', (e) => {
  if (!hasFiles(e)) return;
  e.preventDefault();
  dragDepth += 1;
  dragging(true);
});
window.addEventListener('dragover', (e) => {
  if (!hasFiles(e)) return;
  e.preventDefault();
  e.dataTransfer.dropEffect = 'copy';
});
window.addEventListener('dragleave', () => {
  dragDepth = Math.max(0, dragDepth - 1);
  if (!dragDepth) dragging(false);
});
window.addEventListener('drop', (e) => {
  e.preventDefault();
  dragDepth = 0;
  dragging(false);
  if (e.dataTransfer && e.dataTransfer.files.length) readFiles(e.dataTransfer.files);
});

window.addEventListener('keydown', (e) => {
  if (remapping) {
    e.preventDefault();
    if (e.code !== 'Escape') remap(remapping, e.code);
    remapping = null;
    showKeymap();
    return;
  }
  if ($('step-play').hidden) return;
  const bits = keyBits(e.code);
  if (bits) {
    state.keys |= bits;
    e.preventDefault();
    return;
  }
  if (e.target.closest && e.target.closest('input, select, textarea')) return;
  if (CHORD_KEYS[e.code] && !e.repeat) {
    holdChord(CHORD_KEYS[e.code]);
    e.preventDefault();
  }
  if (e.code === 'KeyP' && !e.repeat) setPaused(!state.paused);
  if (e.code === 'KeyF' && !e.repeat) toggleFullscreen();
  if (e.code === 'KeyM' && !e.repeat) setMuted(!state.muted);
  if (e.code === 'KeyI' && !e.repeat) showStats(!state.stats);
});
window.addEventListener('keyup', (e) => {
  state.keys &= ~keyBits(e.code);
  if (CHORD_KEYS[e.code] === state.chordName && !keyBits(e.code)) holdChord(null);
});
window.addEventListener('blur', () => { state.keys = 0; holdChord(null); });
$('pause').addEventListener('click', () => setPaused(!state.paused));
$('reset').addEventListener('click', () => { state.console.reset(); state.jammed = false; setPaused(state.paused); });
$('fullscreen').addEventListener('click', toggleFullscreen);
$('mute').addEventListener('click', () => setMuted(!state.muted));
$('stats-toggle').addEventListener('click', () => showStats(!state.stats));
$('screen').addEventListener('dblclick', toggleFullscreen);
document.addEventListener('fullscreenchange', () => {
  $('fullscreen').textContent = document.fullscreenElement ? 'Leave full screen' : 'Full screen';
  layoutScreen();
});
$('scale').addEventListener('change', (e) => setScale(e.target.value));
window.addEventListener('resize', layoutScreen);
$('keys-default').addEventListener('click', () => {
  store(KEYMAP_STORE, null);
  loadKeymap();
  showKeymap();
});
$('touch-toggle').addEventListener('change', (e) => {
  store(TOUCH_STORE, e.target.checked ? '1' : '0');
  layoutScreen();
});

const touch = $('touch');
touch.addEventListener('pointerdown', (e) => {
  e.preventDefault();
  touchPointers.set(e.pointerId, touchTarget(e));
  touchUpdate();
});
touch.addEventListener('pointermove', (e) => {
  if (!touchPointers.has(e.pointerId)) return;
  touchPointers.set(e.pointerId, touchTarget(e));
  touchUpdate();
});
for (const type of ['pointerup', 'pointercancel']) {
  window.addEventListener(type, (e) => {
    if (touchPointers.delete(e.pointerId)) touchUpdate();
  });
}
// No scrolling, zooming, long-press menu or synthetic clicks from the controls.
for (const type of ['touchstart', 'touchmove', 'touchend', 'contextmenu']) {
  touch.addEventListener(type, (e) => e.preventDefault(), { passive: false });
}

loadKeymap();
showKeymap();
state.muted = stored(MUTE_STORE) === '1';
showMute();
setScale(stored(SCALE_STORE) || 'auto');

// What the page's test uses: the module, the state, frames on demand, the canvas's checksum.
window.nestris = {
  ready: start().catch((e) => { showError('The page could not start: ' + e.message); throw e; }),
  state,
  runFrames,
  pictureSha1,
  soundStats,
  pause() { setPaused(true); },
  showCoachChart,
};
