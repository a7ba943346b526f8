// An AI game of the patched game replayed on the original (ai_game_original.hpp): the proof that the
// AI adds no lag frame and that a crash is the game's own.
#include "tools/harness/ai_game_original.hpp"
#include "ai-reference/ai/ai_crash_rule.hpp"
#include "base/hex.hpp"
#include "tools/harness/identity.hpp"

#include "ai-reference/model/ram_map.hpp"
#include "ai-reference/model/random_movie.hpp"
#include "game/hooks_map.hpp"
#include "patcher/patch.hpp"

#include <cstdio>

namespace nestris::game {

namespace {

// Counts the lag NMIs of one machine: an NMI that comes during play before the main loop has
// reached its wait for the vertical blank since the NMI before (in the patched game the wait's
// first instruction is the jmp to ai_idle, so the AI's thinking there is idle time, not lag).
// An NMI taken right on the wait's first instruction is no lag: the work was done.
struct LagWatch {
    uint16_t nmi_entry = 0;
    bool waited = false;
    unsigned lag_nmis = 0;       // in the emulator frame under way
    uint16_t lag_pc = 0;         // the instruction the last lag NMI interrupted
    uint8_t lag_play_state = 0;
    bool crashed = false;        // the CPU ran RAM during play, or a dispatch went astray
    std::string crash_how;
    DispatchWatch dispatch;

    void on_instruction(const emu::Nes& n) {
        const uint16_t pc = n.cpu().pc();
        const bool playing = n.read_ram(tetris::gameMode) == tetris::GAME_MODE_PLAY;
        dispatch.on_instruction(n);
        if (playing && !crashed && dispatch.astray()) {
            crashed = true;
            crash_how = *dispatch.astray();
        }
        if (pc == tetris::game_waitForVblank_loop || pc == tetris::game_waitForVblank_loop2) {
            waited = true;
        } else if (pc == nmi_entry) {
            const uint16_t at = n.interrupted_pc();
            if (playing && !waited && at != tetris::game_waitForVblank_loop && at != tetris::game_waitForVblank_loop2)
            {
                ++lag_nmis;
                lag_pc = at;
                lag_play_state = n.read_ram(tetris::playState);
            }
            waited = false;
        } else if (!is_game_code(pc) && playing && !crashed) {  // (the original never runs PRG-RAM either way)
            crashed = true;
            crash_how = "runs RAM at " + hex(pc, 4);
        }
    }
};

// Both machines one frame on, the same buttons; the lag NMIs counted, a crash and the comparison
// where both wait. Returns false when the run ends (the result says why).
bool step_both(emu::Nes& x, emu::Nes& y, LagWatch& lx, LagWatch& ly, uint8_t pad_x, uint8_t pad_y, uint64_t f,
               const RamExclusions& exclusions, const CartImage& cart, uint64_t& frames_without_wait,
               AiGameOnOriginal& r, bool coach = false) {
    lx.lag_nmis = ly.lag_nmis = 0;
    y.set_buttons(pad_y);
    y.run_frame();
    x.set_buttons(pad_x == 0xFF ? pad_from_game(y.read_ram(tetris::heldButtons_player1)) : pad_x);
    x.run_frame();
    ++r.frames;
    r.lag_original += lx.lag_nmis;
    r.lag_patched += ly.lag_nmis;
    r.lagging_original += lx.lag_nmis != 0;
    r.lag_patched_only += ly.lag_nmis > lx.lag_nmis;
    r.lag_original_only += lx.lag_nmis > ly.lag_nmis;
    if (ly.lag_nmis != lx.lag_nmis && !r.first_lag_difference)
        r.first_lag_difference = "frame " + std::to_string(f) + " (level " + std::to_string(x.read_ram(tetris::levelNumber)) +
                                 "): lag NMIs original " + std::to_string(lx.lag_nmis) + ", patched " +
                                 std::to_string(ly.lag_nmis) + " (the patched game's last at " + hex(ly.lag_pc, 4) +
                                 ", play state " + std::to_string(ly.lag_play_state) + ")";
    r.level = std::max<unsigned>(r.level, x.read_ram(tetris::levelNumber));
    if (lx.crashed || ly.crashed) {
        r.end = AiGameComparison::End::Crash;
        r.end_detail = std::string("the original ") + (lx.crashed ? lx.crash_how : "goes on") + ", the patched " +
                       (ly.crashed ? ly.crash_how : "goes on");
        if (lx.crashed != ly.crashed || lx.crash_how != ly.crash_how) r.mismatch = "frame " + std::to_string(f) + ": " + r.end_detail;
        return false;
    }
    const uint16_t vbi = tetris::verticalBlankingInterval;
    if (x.read_ram(vbi) != 0 || y.read_ram(vbi) != 0) {  // a frame still at work: compared with the next
        if (++frames_without_wait > kFreezeFrames) {
            r.end = AiGameComparison::End::Crash;
            r.end_detail = "no wait for the vertical blank in " + std::to_string(kFreezeFrames) + " frames (the game froze)";
            return false;
        }
        return true;
    }
    frames_without_wait = 0;
    if (auto m = compare_frame(x, y, exclusions, x.ppu_writes(), y.ppu_writes(), cart, coach ? ghost_masks(x) : FrameMasks{})) {
        char where[120];
        std::snprintf(where, sizeof where, "frame %llu (gameMode %u, playState %u, level %u): ",
                      static_cast<unsigned long long>(f), x.read_ram(tetris::gameMode), x.read_ram(tetris::playState),
                      x.read_ram(tetris::levelNumber));
        r.mismatch = where + *m;
        return false;
    }
    ++r.compared_frames;
    x.clear_ppu_writes();
    y.clear_ppu_writes();
    if (x.read_ram(tetris::gameMode) == tetris::GAME_MODE_PLAY && x.read_ram(tetris::playState) == tetris::PLAY_STATE_CURTAIN) {
        r.end = AiGameComparison::End::Curtain;
        return false;
    }
    if (x.read_ram(tetris::gameMode) != tetris::GAME_MODE_PLAY) {  // a reset: the demo that follows is the AI's
        r.end_detail = "the game left play (a reset)";
        return false;
    }
    return true;
}

unsigned lines_of(const emu::Nes& x) { return lines_made(x.read_ram(tetris::lines), x.read_ram(tetris::lines + 1)); }

}  // namespace

AiGameOnOriginal compare_high_level_play_with_original(const GameRoms& roms, const CartImage& cart, uint8_t level,
                                                       uint64_t seed, uint64_t max_frames, bool coach) {
    RamExclusions exclusions = ai_owned_ram(cart);
    exclusions.ranges.emplace_back(0x0000, 0x0001);  // (as compare_ai_game_with_original)
    emu::Nes x(roms.original), y(roms.patched);
    LagWatch lx{x.nmi_vector()}, ly{y.nmi_vector()};
    x.set_instruction_hook([&lx](const emu::Nes& n) { lx.on_instruction(n); });
    y.set_instruction_hook([&ly](const emu::Nes& n) { ly.on_instruction(n); });
    MenuWalk walk;
    walk.ai = false;
    walk.title_wait = static_cast<int>(seed % 200);
    if (coach) {
        // the coach's chord without A (the model's state sets the level): the original takes
        // the same presses as a plain Start
        walk.coach = true;
        walk.level = 9;
    }
    const std::string input = menu_walk_input(walk);
    x.run_input(input);
    y.run_input(input);
    if (coach && y.read_ram(ai_mode_address()) != hooks::AI_MODE_COACH)
        throw std::runtime_error("the coach game did not start (is this the patched Tetris (USA)?)");
    const GameState s = start_from_model_state({&x, &y}, ModelStart{level, seed, {}});
    x.log_ppu_writes(true);
    y.log_ppu_writes(true);
    const Movie movie = make_random_movie(s, seed, max_frames).movie;
    AiGameOnOriginal r;
    uint64_t frames_without_wait = 0;
    for (uint64_t f = 0; f < movie.frames.size(); ++f) {
        const uint8_t pad = pad_from_game(movie.frames[f]);
        if (!step_both(x, y, lx, ly, pad, pad, f, exclusions, cart, frames_without_wait, r, coach)) break;
    }
    r.lines = lines_of(x);
    return r;
}

AiGameOnOriginal compare_ai_game_with_original(const GameRoms& roms, const CartImage& cart, const MenuWalk& walk,
                                               uint64_t max_frames, std::optional<ModelStart> start) {
    RamExclusions exclusions = ai_owned_ram(cart);
    // tmp1/tmp2: the jump-table dispatch's scratch, written before every read; a lag NMI's own
    // dispatch leaves its address there, so a frame lagging on one game only differs in them.
    exclusions.ranges.emplace_back(0x0000, 0x0001);
    emu::Nes x(roms.original), y(roms.patched);
    LagWatch lx{x.nmi_vector()}, ly{y.nmi_vector()};
    AiRestart restart(cart);
    x.set_instruction_hook([&lx](const emu::Nes& n) { lx.on_instruction(n); });
    y.set_instruction_hook([&](const emu::Nes& n) {
        restart.on_instruction(y, n);
        ly.on_instruction(n);
    });
    // The same walk, frame for frame; the original's without Select at Start (held with A, it
    // would spoil the original's A+Start test for the +10 levels).
    MenuWalk human = walk;
    human.ai = false;
    x.run_input(menu_walk_input(human));
    y.run_input(menu_walk_input(walk));
    if (start) {
        start_from_model_state({&x, &y}, *start);
        restart.arm(y);
    }
    x.log_ppu_writes(true);
    y.log_ppu_writes(true);
    if (y.read_ram(ai_mode_address()) == 0) throw std::runtime_error("the AI game did not start (is this the patched Tetris (USA)?)");
    AiGameOnOriginal r;
    uint64_t frames_without_wait = 0;
    // The original's controller: the buttons the AI held at the patched game's poll (0xFF).
    for (uint64_t f = 0; f < max_frames; ++f)
        if (!step_both(x, y, lx, ly, 0xFF, 0, f, exclusions, cart, frames_without_wait, r)) break;
    r.lines = lines_of(x);
    return r;
}

}  // namespace nestris::game
