-- What FCEUX's sound channels play after every frame of a movie (FCEUX started with --playmov),
-- from its sound.get(): one line a frame in the format of run-rom --sound-trace: the frame number,
-- pulse 1 volume (0-15) and period, pulse 2's, triangle running (0/1) and period, noise volume,
-- period index and mode (0/1), DMC level (0-127). Driven by tests/fceux/fceux_sound_test.sh
-- (NESTRIS_FCEUX_OUT: where to write sound.txt; NESTRIS_FCEUX_FRAMES: how many frames).
local out_dir = os.getenv("NESTRIS_FCEUX_OUT") or "."
local frames = tonumber(os.getenv("NESTRIS_FCEUX_FRAMES") or "600")
pcall(function() emu.speedmode("maximum") end)
local f = io.open(out_dir .. "/sound.txt", "w")
local function level(x, scale) return math.floor(x * scale + 0.5) end
while emu.framecount() < frames do
  emu.frameadvance()
  local s = sound.get().rp2a03
  f:write(string.format("%d %d %d %d %d %d %d %d %d %d %d\n", emu.framecount(),
    level(s.square1.volume, 15), s.square1.regs.frequency,
    level(s.square2.volume, 15), s.square2.regs.frequency,
    level(s.triangle.volume, 1), s.triangle.regs.frequency,
    level(s.noise.volume, 15), s.noise.regs.frequency, s.noise.short and 1 or 0,
    level(s.dpcm.volume, 127)))
end
f:close()
local done = io.open(out_dir .. "/done.txt", "w"); done:write("ok\n"); done:close()
os.exit(0)
