-- The patched game in FCEUX (a real emulator), driven by tools/scripts/fceux_check.sh: power on, watch the
-- AI demo start and end, then start an AI game from the level menu (Select held, A for +10) and
-- let it play. Logs the game's state once a second and takes screenshots; prints a summary.
-- Settings come from the environment (the shell script sets them).
local out_dir = os.getenv("NESTRIS_FCEUX_OUT") or "."
local game_frames = tonumber(os.getenv("NESTRIS_FCEUX_FRAMES") or "3600")
local level = tonumber(os.getenv("NESTRIS_FCEUX_LEVEL") or "19")

-- The game's addresses and values: the shell script passes game/tetris.inc's (NESTRIS_TETRIS_<name>)
-- and this build's ai_mode, so that they are written in one place.
local function given(variable)
  local value = tonumber(os.getenv(variable) or "")
  if not value then error(variable .. " is not set: run this script through tools/scripts/fceux_check.sh") end
  return value
end
local function tetris(name) return given("NESTRIS_TETRIS_" .. name) end
local GAME_MODE, LEVEL, LINES, SCORE = tetris("gameMode"), tetris("player1_levelNumber"), tetris("lines"), tetris("score")
local PLAY_STATE = tetris("player1_playState")
local MODE_TITLE, MODE_DEMO, CURTAIN = tetris("GAME_MODE_TITLE"), tetris("GAME_MODE_DEMO"), tetris("PLAY_STATE_CURTAIN")
local log = io.open(out_dir .. "/fceux_check.log", "w")
pcall(function() emu.speedmode("maximum") end)

-- Movie mode (NESTRIS_FCEUX_MOVIE_FRAMES: FCEUX was started with --playmov): write the frame
-- count and the 2 KiB of RAM after every frame until the movie's last frame.
local movie_frames = tonumber(os.getenv("NESTRIS_FCEUX_MOVIE_FRAMES") or "")
if movie_frames then
  local dump = io.open(out_dir .. "/ram.txt", "w")
  while true do
    emu.frameadvance()
    local bytes = {}
    for a = 0, 0x7FF do bytes[#bytes + 1] = string.format("%02X", memory.readbyte(a)) end
    dump:write(emu.framecount(), " ", table.concat(bytes), "\n")
    if emu.framecount() >= movie_frames then break end
  end
  dump:close()
  log:close()
  local s = io.open(out_dir .. "/fceux_check.txt", "w"); s:write("movie: " .. movie_frames .. " frames\n"); s:close()
  os.exit(0)
end

-- Replay mode (NESTRIS_FCEUX_INPUT: one pad byte per line, FCEUX's bit order A=1 ... right=128):
-- play it from power-on and write the 2 KiB of RAM after every frame, for comparing two ROMs.
local replay = os.getenv("NESTRIS_FCEUX_INPUT")
if replay then
  local names = {"A", "B", "select", "start", "up", "down", "left", "right"}
  local dump = io.open(out_dir .. "/ram.txt", "w")
  local i = 0
  for line in io.lines(replay) do
    local m, pad = tonumber(line), {}
    for bit = 0, 7 do if math.floor(m / (2 ^ bit)) % 2 == 1 then pad[names[bit + 1]] = true end end
    joypad.set(1, pad)
    emu.frameadvance()
    i = i + 1
    local bytes = {}
    for a = 0, 0x7FF do bytes[#bytes + 1] = string.format("%02X", memory.readbyte(a)) end
    dump:write(i, " ", table.concat(bytes), "\n")
  end
  dump:close()
  log:close()
  local s = io.open(out_dir .. "/fceux_check.txt", "w"); s:write("replayed " .. i .. " frames\n"); s:close()
  os.exit(0)
end

local function bcd(a) local b = memory.readbyte(a); return math.floor(b / 16) * 10 + b % 16 end
local function lines() return bcd(LINES) + 100 * bcd(LINES + 1) end
local function score() return bcd(SCORE) + 100 * bcd(SCORE + 1) + 10000 * bcd(SCORE + 2) end
local function lag() local ok, n = pcall(emu.lagcount); return ok and n or -1 end
local function state()
  return string.format("frame %d mode %d ai %d level %d lines %d score %d playState %d lag %d",
    emu.framecount(), memory.readbyte(GAME_MODE), memory.readbyte(given("NESTRIS_AI_MODE")), memory.readbyte(LEVEL),
    lines(), score(), memory.readbyte(PLAY_STATE), lag())
end
local function shot(name)
  local ok = pcall(function() gui.savescreenshotas(out_dir .. "/" .. name) end)
  log:write("screenshot " .. name .. (ok and "" or " (not supported)") .. "\n")
  emu.frameadvance()  -- FCEUX saves it with the next frame
  emu.frameadvance()
end
local function frames(n, pad)
  for _ = 1, n do
    joypad.set(1, pad or {})
    emu.frameadvance()
    if emu.framecount() % 60 == 0 then log:write(state() .. "\n") end
  end
end
local function press(pad, hold) frames(hold or 1, pad); frames(1) end

-- 1. The demo: no input until the title times out, the demo runs, and the title comes back.
local start_frame, demo_start, demo_end, demo_lines, demo_level = emu.framecount(), nil, nil, 0, 0
while emu.framecount() - start_frame < 9000 and not demo_end do
  frames(1)
  local mode = memory.readbyte(GAME_MODE)
  if mode == MODE_DEMO and not demo_start then demo_start = emu.framecount() end
  if demo_start and mode == MODE_DEMO then
    demo_lines = math.max(demo_lines, lines()); demo_level = memory.readbyte(LEVEL)
    if emu.framecount() - demo_start == 1200 then shot("fceux_demo.png") end
  end
  if demo_start and mode == MODE_TITLE then demo_end = emu.framecount() end
end
local summary = string.format("demo: started at frame %s, ended at frame %s, level %d, %d lines\n",
  tostring(demo_start), tostring(demo_end), demo_level, demo_lines)

-- 2. An AI game: title, game type (A), level menu: the cursor to level % 10, Select (+A) held, Start.
frames(30); press({start = true}); frames(40); press({start = true}); frames(40)
shot("fceux_level_menu.png")
local base = level % 10
if base >= 5 then press({down = true}); frames(3) end
for _ = 1, base % 5 do press({right = true}); frames(3) end
local held = {select = true}
if level >= 10 then held.A = true end
frames(3, held)
local with_start = {select = true, start = true, A = held.A}
frames(1, with_start)
frames(1)
local lag_before, game_start = lag(), emu.framecount()
local top_outs, last_state = 0, memory.readbyte(PLAY_STATE)
while emu.framecount() - game_start < game_frames do
  frames(1)
  local s = memory.readbyte(PLAY_STATE)
  if s == CURTAIN and last_state ~= CURTAIN then top_outs = top_outs + 1 end
  last_state = s
end
shot("fceux_ai_game.png")
summary = summary .. string.format(
  "AI game from level %d: %d frames, ai_mode %d, level %d, %d lines, score %d, %d top-outs, %d lag frames\n",
  level, game_frames, memory.readbyte(given("NESTRIS_AI_MODE")), memory.readbyte(LEVEL), lines(), score(), top_outs, lag() - lag_before)
log:write(summary)
log:close()
local s = io.open(out_dir .. "/fceux_check.txt", "w"); s:write(summary); s:close()
os.exit(0)
