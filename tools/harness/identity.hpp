// The original and the patched game side by side from power-on, the same buttons on both,
// compared after every frame: the proof that the patch changes nothing of the game.
#pragma once

#include "emu-test/nes.hpp"
#include "patcher/cart_image.hpp"
#include "tools/harness/game_driver.hpp"
#include "tools/harness/game_harness.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace nestris::game {

// RAM the comparison leaves out: the bytes the AI owns, and the stack below the original's
// stack pointer (dead bytes; the hooks call one level deeper, so their garbage differs).
struct RamExclusions {
    std::vector<std::pair<uint16_t, uint16_t>> ranges;  // inclusive
};
RamExclusions ai_owned_ram(const CartImage& cart);

// The first difference between the two machines after a frame, if any: RAM outside the
// exclusions and the stack, and the PPU writes of the frame (register, value and VRAM address
// of each, in order; the position in the frame is not compared) once the level-menu hint's
// writes are taken out of the patched machine's log.
// One frame's own leave-outs (a coach run's, run_identity): RAM ranges, and bits of single bytes.
struct FrameMasks {
    std::vector<std::pair<uint16_t, uint16_t>> ranges;  // inclusive
    std::vector<std::pair<uint16_t, uint8_t>> bits;     // (address, the bits left out)
};
// Does the OAM staging page hold a sprite in the coach's ghost slots (from hooks::GHOST_OAM to
// the page's end: a byte there not $FF)?
bool ghost_slots_used(const emu::Nes& nes);
// The coach's sprites (the grade's, hooks::GRADE_OAM to the ones' slot, and the ghost's, GHOST_OAM
// to the page's end) as a leave-out, where the original has no sprite in either: the coach draws
// only where the game draws nothing.
FrameMasks ghost_masks(const emu::Nes& original);
std::optional<std::string> compare_frame(const emu::Nes& original, const emu::Nes& patched,
                                         const RamExclusions& exclusions,
                                         std::span<const emu::PpuWrite> original_writes,
                                         std::vector<emu::PpuWrite> patched_writes,
                                         const CartImage& cart, const FrameMasks& masks = {});

struct IdentityResult {
    uint64_t frames = 0;
    uint64_t compared_frames = 0;  // frames at whose end both games waited for the NMI
    uint64_t ppu_writes = 0;
    std::optional<std::string> mismatch;  // the first one; the run stops there
    GameDriver::Stats stats;
    std::map<uint8_t, uint64_t> frames_per_mode;
    uint64_t coach_frames = 0;     // frames at whose end the patched game was in a coach game
    uint64_t ghost_frames = 0;     // of the compared frames, those with the ghost's sprites staged
    uint64_t coach_plus_10 = 0;    // Starts with A and B held (+10 coach games; the original's without B)
};
// Runs both ROMs from power-on for `frames` frames with the driver's buttons (decided on the
// original) and compares them after every frame.
// buttons_out, if given, receives the pad of every frame (to replay the movie elsewhere).
// With options.coach_in_level_menu the patched game plays coach games (the driver's pads; it
// plays them as it plays on the original, so it places most pieces where the coach's ghost is)
// and the original the same games started without the coach: on a Start with A and B held in
// the level menu (a coach game at +10) the original's pad leaves B out until B is let go (on
// the original A+B+Start is no +10). Then, and in the frame after, the controller's bytes are
// compared without the B bit; and the coach's sprites (the grade's and the ghost's slots) are left
// out where the original has no sprite there (its bytes all $FF).
// original_buttons_out: the original's pads (the same but for a +10 coach game's Start).
IdentityResult run_identity(const GameRoms& roms, const CartImage& cart, const DriverOptions& options,
                            uint64_t frames, std::vector<uint8_t>* buttons_out = nullptr,
                            std::vector<uint8_t>* original_buttons_out = nullptr);

}  // namespace nestris::game
