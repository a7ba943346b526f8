// The patched game's AI games against the cartridge AI in the loop (cart_loop.hpp): the proof
// that the model, run on the shipped AI's bytes, is the real game frame by frame.
#pragma once

#include "ai-reference/model/frame_time.hpp"
#include "patcher/cart_image.hpp"
#include "tools/harness/game_harness.hpp"
#include "tools/harness/model_start.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace nestris::game {

// The patched game plays an AI game (menu walk); from its first frame of play the game model
// runs beside it with the shipped AI bytes in the loop (tools/harness/cart_loop.hpp), each frame given
// the idle time the real game left the AI that frame (from the main loop's entry to ai_idle to
// the NMI) and the lag frames it had (NMIs in the frame's work). Compared at every frame
// boundary (ai_idle's entry): the whole model state read from the real RAM (from_ram) against
// the loop's.
struct AiGameComparison {
    uint64_t frames = 0;               // frames compared
    std::optional<std::string> mismatch;  // the first difference (the run stops there)
    uint32_t pieces = 0, lines = 0;
    uint8_t level = 0;                 // the level at the end
    uint16_t start_rng = 0;            // the RNG's seed once the walk (or the model-made start) is done
    // The rebirths (level 255 to 0) and the compared frame of the first (0: none).
    uint32_t rebirths = 0;
    uint64_t first_rebirth = 0;
    uint32_t real_fallbacks = 0;       // pieces the real game gave the best of an unfinished search
    uint32_t loop_fallbacks = 0;       // the same in the loop
    uint32_t pieces_29 = 0, fallbacks_29 = 0;  // of those, at level 29 and above (a row a frame)
    // Hate mode (MenuWalk::hate): spawns whose preview the adversary dealt, and spawns whose
    // choice was not ready (the game's draw stayed), in the loop (the real game equals it).
    uint32_t hate_dealt = 0, hate_kept = 0;
    // The level-29+ pieces and their fallbacks by the stack they spawn on (FallbackBand: its
    // height band, and whether the level lags: 138 and above).
    std::array<uint32_t, 8> pieces_29_by_band{}, fallbacks_29_by_band{};
    bool game_over = false;            // the game reached its curtain (else see `end`)
    // How the comparison ended. Only the curtain is a game over: the game leaving play any other
    // way (the CPU running outside the game's code, a reset to the menus, no frame boundary for
    // kFreezeFrames frames) is a crash, and a frame boundary whose RAM is not a model state is an error
    // that names the variable (it is never taken as an end of the game).
    enum class End { FramesRanOut, Curtain, Crash, Unreadable } end = End::FramesRanOut;
    std::string end_detail;            // what the crash or the unreadable state was
    uint32_t idle_min = 0, idle_max = 0;
    double idle_mean = 0;
    // Lag: frames whose work outlasted the NMI (lagging_frames), the NMIs that came in their
    // work (lag_frames, each a lag frame the loop steps too: step_with_lag), the most in one.
    uint64_t lag_frames = 0, lagging_frames = 0;
    unsigned max_lag = 0;
    LagForecastTally forecast;   // the model's lag forecast (ai_game_work) against the real frames
    FrameWorkSeen besides_loop;  // scoring frames without lag: their work's cycles but the loop's
    // A crash: whether the model's forecast for the frame that crashed (stepped from the last
    // state compared) said it may crash (frame_time.hpp).
    bool crash_predicted = false;
};
// The band of a level-29+ piece for the fallback breakdown: stack height 0-5, 6-8, 9-11, 12+
// (0-3), plus 4 from level 138 on, where frames lag; and its name.
unsigned fallback_band(const GameState& spawned);
std::string fallback_band_name(unsigned band);
// "game over (the curtain)", "frames ran out", "CRASH: ..." or "cannot read the state: ...".
std::string describe_end(const AiGameComparison& c);
// With `start`, the game goes on from a model-made state, and the loop starts from it.
AiGameComparison compare_ai_game_with_loop(std::span<const uint8_t> patched_rom, const CartImage& cart,
                                           const MenuWalk& walk, uint64_t max_frames,
                                           std::optional<ModelStart> start = std::nullopt);

}  // namespace nestris::game
