// play: the patched game headless in the embedded NES (emu-test), for players and developers.
#pragma once

#include <CLI/CLI.hpp>

namespace nestris {
namespace emu {
class Nes;
struct Image;
}  // namespace emu

void add_play_command(CLI::App& app);

// The picture of the game's state as it is now, between two frames. The game draws a frame's
// state into the PPU in the next frame's vertical blank, so the screen just displayed shows the
// state of the frame before; this runs one more frame on the side (the machine is put back, the
// run goes on as if nothing happened) and returns the picture displayed in it.
emu::Image screen_of_state(emu::Nes& nes);
}
