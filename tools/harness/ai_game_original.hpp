// The patched game's AI games and a person's high-level games replayed on the original, both
// compared frame by frame, lag NMIs too: the proof that the AI adds no lag frame and that a crash
// is the game's own.
#pragma once

#include "patcher/cart_image.hpp"
#include "tools/harness/ai_game_loop.hpp"
#include "tools/harness/game_harness.hpp"
#include "tools/harness/model_start.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace nestris::game {

// The patched game plays an AI game (menu walk); the original game gets the same walk, then, each
// frame, the buttons the AI held at that frame's poll as its controller. Both run side by side
// and are compared as run_identity compares them (RAM outside the AI's bytes, PPU writes) at every
// frame where both wait for the NMI, and every frame's lag NMIs (NMIs that came in play before the
// main loop reached its wait) are counted on each: a frame that lags on the patched game and not
// on the original would be lag the AI caused. Ends at the curtain, a crash (the CPU running RAM,
// or no wait in kFreezeFrames frames: both must crash alike) or after max_frames.
struct AiGameOnOriginal {
    uint64_t frames = 0, compared_frames = 0;
    std::optional<std::string> mismatch;   // the first difference (the run stops there)
    uint64_t lag_original = 0, lag_patched = 0;  // lag NMIs
    uint64_t lagging_original = 0;               // frames with one or more
    uint64_t lag_patched_only = 0;   // frames where the patched game had more lag NMIs than the original
    uint64_t lag_original_only = 0;  // and fewer
    std::optional<std::string> first_lag_difference;  // where, and where the patched game's NMI landed
    AiGameComparison::End end = AiGameComparison::End::FramesRanOut;
    std::string end_detail;
    unsigned lines = 0, level = 0;   // at the end; level: the highest seen
};
// With `start`, the game goes on from a model-made state written into both at its first frame
// of play (as compare_high_level_play_with_original's).
AiGameOnOriginal compare_ai_game_with_original(const GameRoms& roms, const CartImage& cart, const MenuWalk& walk,
                                               uint64_t max_frames, std::optional<ModelStart> start = std::nullopt);
// Human play at a high level on both games: the same menu walk (no Select), then at the first
// frame of play a model-made state written into both (`level`, score 999 999, a stack 8 rows
// high), then the same random movie (make_random_movie, `seed`) on both, compared as above, their
// lag NMIs too: a frame lagging on the patched game only is lag the patch's hooks caused.
// coach: the patched game's is a coach game (its chord without A in the walk, the same presses as
// a plain Start on the original), the ghost's sprites left out where the original has none.
AiGameOnOriginal compare_high_level_play_with_original(const GameRoms& roms, const CartImage& cart, uint8_t level,
                                                       uint64_t seed, uint64_t max_frames, bool coach = false);

}  // namespace nestris::game
