// The AI's games on the real game against the cartridge in the loop (ai_game_loop.hpp).
#include "tools/harness/ai_game_loop.hpp"
#include "tools/harness/crash_rule_rom.hpp"
#include "base/hex.hpp"

#include "ai-reference/ai/ai_player.hpp"
#include "tools/harness/cart_loop.hpp"
#include "emu-test/opcodes.hpp"
#include "patcher/patch.hpp"
#include "ai-reference/model/player.hpp"
#include "ai-reference/model/ram_map.hpp"
#include "ai-reference/model/state_io.hpp"

#include <algorithm>
#include <deque>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

namespace nestris::game {

namespace {

// The first line where two states' texts differ (the mismatch's description).
std::string state_difference(const GameState& real, const GameState& loop) {
    std::istringstream a(state_to_text(real)), b(state_to_text(loop));
    std::string la, lb;
    while (true) {
        const bool more_a = static_cast<bool>(std::getline(a, la)), more_b = static_cast<bool>(std::getline(b, lb));
        if (!more_a && !more_b) return "the states differ";
        if (la != lb) return "real game: '" + la + "', loop: '" + lb + "'";
    }
}

}  // namespace

std::string describe_end(const AiGameComparison& c) {
    switch (c.end) {
    case AiGameComparison::End::Curtain: return "game over (the curtain)";
    case AiGameComparison::End::FramesRanOut: return "frames ran out";
    case AiGameComparison::End::Crash: return "CRASH: " + c.end_detail;
    case AiGameComparison::End::Unreadable: return "ERROR: cannot read the game's state: " + c.end_detail;
    }
    return "?";
}

unsigned fallback_band(const GameState& spawned) {
    unsigned height = 0;
    for (int row = 0; row < ai::kRows && !height; ++row)
        for (int col = 0; col < ai::kColumns; ++col)
            if (spawned.playfield[static_cast<std::size_t>(row * ai::kColumns + col)] != kTileEmpty) {
                height = static_cast<unsigned>(ai::kRows - row);
                break;
            }
    const unsigned by_height = height <= 5 ? 0 : height <= 8 ? 1 : height <= 11 ? 2 : 3;
    return by_height + (spawned.levelNumber >= 138 ? 4 : 0);
}

std::string fallback_band_name(unsigned band) {
    static const char* const heights[] = {"0-5", "6-8", "9-11", "12+"};
    return std::string(band >= 4 ? "levels 138+" : "levels 29-137") + ", stack " + heights[band % 4];
}

AiGameComparison compare_ai_game_with_loop(std::span<const uint8_t> patched_rom, const CartImage& cart,
                                           const MenuWalk& walk, uint64_t max_frames,
                                           std::optional<ModelStart> start) {
    emu::Nes nes(patched_rom);
    nes.run_input(menu_walk_input(walk));
    nes.set_buttons(0);
    AiRestart restart(cart);
    if (start) {
        start_from_model_state({&nes}, *start);
        restart.arm(nes);
    }
    const uint16_t idle_entry = cart.require("ai_idle"), late_plans = cart.require("late_plans");
    const uint16_t nmi_entry = nes.nmi_vector();

    // Frame boundaries of the real game: the state at ai_idle's entry, then the idle time to the NMI.
    struct Boundary {
        GameState state;
        uint8_t late_plans = 0;
        uint32_t idle = 0;
        bool idle_known = false;
        LagNmis lag;  // NMIs in the work that led to it, past the one that began it
        uint64_t work = 0;  // cycles from the interrupt of the NMI that began that work to here
    };
    uint64_t frame_nmi_at = 0;  // the interrupt of the NMI that began the work under way
    std::deque<Boundary> pending;
    uint64_t idle_from = 0;
    uint64_t nmis_since_boundary = 0;
    LagNmis lags;                // the NMIs in the work of the frame under way, past its first
    bool reached_state6 = false, reached_state7 = false;  // where that work is (step_with_lag)
    bool boundary_at_nmi = false;
    bool nmi_on_idle_entry = false;  // the last NMI was taken on ai_idle's first instruction
    bool in_play = false, ended = false, curtain_seen = false;
    AiGameComparison out;
    auto end_with = [&](AiGameComparison::End why, std::string detail) {
        if (ended) return;
        ended = true;
        out.end = why;
        out.end_detail = std::move(detail);
    };
    // A frame boundary: the main loop waits for the NMI (ai_idle's entry, or an NMI that came
    // right on the wait's first instruction). Its state, the cycles from there to the NMI later.
    auto reach_boundary = [&](const emu::Nes& n) {
        const LagNmis lag = lags;
        lags = {};
        nmis_since_boundary = 0;
        const auto ram = n.ram();
        const bool playing = ram[tetris::gameMode] == tetris::GAME_MODE_PLAY;
        if (!playing) {
            // Back in the menus: after the curtain that is the game's end, otherwise the game
            // was thrown out of play (a crash that reset it).
            if (in_play)
                end_with(curtain_seen ? AiGameComparison::End::Curtain : AiGameComparison::End::Crash,
                         curtain_seen ? "" : "the game left play without its curtain (game mode " +
                                                 std::to_string(ram[tetris::gameMode]) + ")");
            return;
        }
        try {
            pending.push_back({from_ram(n.ram()), n.read_ram(late_plans), 0, false, lag, n.cycles() - frame_nmi_at});
            idle_from = n.cycles();
            in_play = true;
            curtain_seen = curtain_seen || pending.back().state.playState == tetris::PLAY_STATE_CURTAIN;
        } catch (const std::runtime_error& e) {
            // Mid-game menus and animations (the high-score entry, an ending) are not play
            // states; anything else is a state the model cannot read: say which.
            if (in_play && !curtain_seen) end_with(AiGameComparison::End::Unreadable, e.what());
        }
    };
    DispatchWatch dispatch;
    nes.set_instruction_hook([&](const emu::Nes& n) {
        const uint16_t pc = n.cpu().pc();
        restart.on_instruction(nes, n);
        if (ended) return;
        dispatch.on_instruction(n);
        if (in_play && dispatch.astray()) {
            end_with(AiGameComparison::End::Crash, *dispatch.astray());
        } else if (!is_game_code(pc) && in_play) {  // the game's code is in ROM, the AI's in PRG-RAM: a jump gone wrong
            end_with(AiGameComparison::End::Crash, "the CPU executes RAM at " + hex(pc, 4));
        } else if (pc == idle_entry) {
            if (boundary_at_nmi || nmi_on_idle_entry) {  // a boundary already taken
                boundary_at_nmi = nmi_on_idle_entry = false;
                return;
            }
            reach_boundary(n);
        } else if (pc == tetris::game_checkForResetKeyCombo) {
            reached_state6 = true;
        } else if (pc == tetris::game_startButtonHandling) {
            reached_state7 = true;
        } else if (pc == nmi_entry) {
            // An NMI taken on ai_idle's first instruction returns to it: the hook sees that
            // instruction again, at the same boundary.
            nmi_on_idle_entry = n.interrupted_pc() == idle_entry;
            if (in_play && n.interrupted_pc() == tetris::game_waitForVblank_loop) {
                // The work ended just as the NMI came, on the wait's first instruction (jsr
                // ai_idle): the boundary is here, before the NMI's handler, with no idle time.
                reach_boundary(n);
                if (!pending.empty() && !pending.back().idle_known) {
                    pending.back().idle = 0;
                    pending.back().idle_known = true;
                }
                boundary_at_nmi = true;
            }
            if (nmis_since_boundary == 0) {  // the frame's NMI: its work begins
                reached_state6 = reached_state7 = false;
                frame_nmi_at = n.cycles() - emu::Nes::kInterruptCycles;
            }
            else {
                count_lag_nmi(lags, n, reached_state6, reached_state7);
            }
            if (!pending.empty() && !pending.back().idle_known) {
                pending.back().idle = static_cast<uint32_t>(n.cycles() - emu::Nes::kInterruptCycles - idle_from);
                pending.back().idle_known = true;
            }
            if (in_play && ++nmis_since_boundary > kFreezeFrames)
                end_with(AiGameComparison::End::Crash,
                         "no frame boundary in " + std::to_string(kFreezeFrames) + " frames (the game froze)");
        }
    });

    // A model-made state was written into the game in its wait: the game's first boundary, from
    // which the loop starts (the NMI that follows is the first either one's driver sees it in).
    if (start) reach_boundary(nes);

    std::optional<tools::CartridgeInTheLoop> loop;
    uint32_t next_idle = 0;
    tools::CartLoopOptions options;
    options.idle_source = [&next_idle] { return next_idle; };
    uint8_t last_late = 0, last_count = 0;
    double idle_sum = 0;
    for (uint64_t f = 0; f < max_frames + 600 && !out.mismatch && !out.game_over; ++f) {
        nes.run_frame();
        while (!pending.empty() && pending.front().idle_known && !out.mismatch) {
            const Boundary b = pending.front();
            pending.pop_front();
            if (!loop) {  // the first frame of play: the loop starts from it (its task from scratch)
                loop.emplace(b.state, options);
                // The crash rule's tables as this ROM has them (without_crash_rule empties them).
                for (const CrashRuleTable& t : crash_rule_tables()) {
                    const uint16_t table = cart.require(t.symbol);
                    for (uint16_t i = 0; i < t.size; ++i)
                        loop->machine().write(static_cast<uint16_t>(table + i),
                                              patched_rom[prg_file_offset(static_cast<uint16_t>(table + i))]);
                }
                last_late = b.late_plans;
                last_count = b.state.spawnCount;
                out.idle_min = out.idle_max = b.idle;
                continue;
            }
            next_idle = b.idle;
            const FrameTimeForecast forecast = forecast_ai_frame_time(loop->state());
            if (forecast.scoring && b.lag.total() == 0)
                out.besides_loop.add(forecast.lines, b.work - forecast.loop_cycles);
            out.forecast.add(forecast, b.lag.total() > 0,
                             "frame " + std::to_string(out.frames + 1) + " (level " +
                                 std::to_string(loop->state().levelNumber) + ")");
            loop->frame(b.lag);
            ++out.frames;
            const unsigned lag = b.lag.total();
            out.lag_frames += lag;
            out.lagging_frames += lag != 0;
            out.max_lag = std::max(out.max_lag, lag);
            out.idle_min = std::min(out.idle_min, b.idle);
            out.idle_max = std::max(out.idle_max, b.idle);
            idle_sum += b.idle;
            const uint8_t fallbacks = static_cast<uint8_t>(b.late_plans - last_late);
            const bool spawned = b.state.spawnCount != last_count, fast = b.state.levelNumber >= 29;
            out.real_fallbacks += fallbacks;
            out.fallbacks_29 += fast ? fallbacks : 0;
            last_late = b.late_plans;
            out.pieces += spawned;
            out.pieces_29 += fast && spawned;
            if (fast && spawned) ++out.pieces_29_by_band[fallback_band(b.state)];
            if (fast && fallbacks) out.fallbacks_29_by_band[fallback_band(b.state)] += fallbacks;
            last_count = b.state.spawnCount;
            if (!(loop->state() == b.state))
                out.mismatch = "frame " + std::to_string(out.frames) + ": " + state_difference(b.state, loop->state());
            else if (b.state.playState == tetris::PLAY_STATE_CURTAIN && !ended)
                end_with(AiGameComparison::End::Curtain, "");
            if (out.frames >= max_frames) break;
        }
        if (out.frames >= max_frames || (ended && pending.empty())) break;
    }
    out.game_over = out.end == AiGameComparison::End::Curtain;
    if (!loop) throw std::runtime_error("the AI game did not start (is this the patched Tetris (USA)?)");
    if (out.end == AiGameComparison::End::Crash)
        out.crash_predicted = forecast_ai_frame_time(loop->state()).crash == Maybe::May;
    out.loop_fallbacks = loop->stats().fallback_plans;
    out.idle_mean = out.frames ? idle_sum / static_cast<double>(out.frames) : 0;
    out.lines = lines_count(loop->state());
    return out;
}

}  // namespace nestris::game
