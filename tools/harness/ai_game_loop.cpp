// The AI's games on the real game against the cartridge in the loop (ai_game_loop.hpp).
#include "tools/harness/ai_game_loop.hpp"
#include "base/hex.hpp"
#include "tools/harness/crash_rule_rom.hpp"

#include "ai-reference/ai/ai_player.hpp"
#include "ai-reference/model/player.hpp"
#include "ai-reference/model/ram_map.hpp"
#include "ai-reference/model/state_io.hpp"
#include "emu-test/opcodes.hpp"
#include "patcher/patch.hpp"
#include "tools/harness/cart_loop.hpp"

#include <algorithm>
#include <cstdio>
#include <deque>
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

namespace {

// A frame boundary of the real game: the state at ai_idle's entry, then the idle time to the NMI.
struct Boundary {
    GameState state;
    uint8_t late_plans = 0;
    uint32_t idle = 0;
    bool idle_known = false;
    LagNmis lag;  // NMIs in the work that led to it, past the one that began it
    uint64_t work = 0;  // cycles from the interrupt of the NMI that began that work to here
};

// The real game watched instruction by instruction: its frame boundaries, queued until their idle
// time is known, the lag NMIs in each frame's work, and how the game ended (a crash, the curtain,
// a state the model cannot read), into `out`.
class RealGameWatch {
public:
    RealGameWatch(const CartImage& cart, uint16_t nmi_entry, AiGameComparison& out)
        : idle_entry_(cart.require("ai_idle")), late_plans_(cart.require("late_plans")), nmi_entry_(nmi_entry),
          out_(out) {}

    void on_instruction(const emu::Nes& n) {
        if (ended_) return;
        const uint16_t pc = n.cpu().pc();
        dispatch_.on_instruction(n);
        if (in_play_ && dispatch_.astray()) {
            end_with(AiGameComparison::End::Crash, *dispatch_.astray());
        } else if (!is_game_code(pc) && in_play_) {  // the game's code is in ROM, the AI's in PRG-RAM: a jump gone wrong
            end_with(AiGameComparison::End::Crash, "the CPU executes RAM at " + hex(pc, 4));
        } else if (pc == idle_entry_) {
            if (boundary_at_nmi_ || nmi_on_idle_entry_) {  // a boundary already taken
                boundary_at_nmi_ = nmi_on_idle_entry_ = false;
                return;
            }
            reach_boundary(n);
        } else if (pc == tetris::game_checkForResetKeyCombo) {
            reached_state6_ = true;
        } else if (pc == tetris::game_startButtonHandling) {
            reached_state7_ = true;
        } else if (pc == nmi_entry_) {
            on_nmi(n);
        }
    }

    // A frame boundary: the main loop waits for the NMI (ai_idle's entry, or an NMI that came
    // right on the wait's first instruction). Its state, the cycles from there to the NMI later.
    void reach_boundary(const emu::Nes& n) {
        const LagNmis lag = lags_;
        lags_ = {};
        nmis_since_boundary_ = 0;
        const auto ram = n.ram();
        const bool playing = ram[tetris::gameMode] == tetris::GAME_MODE_PLAY;
        if (!playing) {
            // Back in the menus: after the curtain that is the game's end, otherwise the game
            // was thrown out of play (a crash that reset it).
            if (in_play_)
                end_with(curtain_seen_ ? AiGameComparison::End::Curtain : AiGameComparison::End::Crash,
                         curtain_seen_ ? "" : "the game left play without its curtain (game mode " +
                                                  std::to_string(ram[tetris::gameMode]) + ")");
            return;
        }
        try {
            pending_.push_back({from_ram(n.ram()), n.read_ram(late_plans_), 0, false, lag, n.cycles() - frame_nmi_at_});
            idle_from_ = n.cycles();
            in_play_ = true;
            curtain_seen_ = curtain_seen_ || pending_.back().state.playState == tetris::PLAY_STATE_CURTAIN;
        } catch (const std::runtime_error& e) {
            // Mid-game menus and animations (the high-score entry, an ending) are not play
            // states; anything else is a state the model cannot read: say which.
            if (in_play_ && !curtain_seen_) end_with(AiGameComparison::End::Unreadable, e.what());
        }
    }

    void end_with(AiGameComparison::End why, std::string detail) {
        if (ended_) return;
        ended_ = true;
        out_.end = why;
        out_.end_detail = std::move(detail);
    }
    bool ended() const { return ended_; }

    // The next boundary whose idle time is known, if any, taken off the queue.
    std::optional<Boundary> take_boundary() {
        if (pending_.empty() || !pending_.front().idle_known) return std::nullopt;
        Boundary b = pending_.front();
        pending_.pop_front();
        return b;
    }
    bool all_taken() const { return pending_.empty(); }

private:
    void on_nmi(const emu::Nes& n) {
        // An NMI taken on ai_idle's first instruction returns to it: the hook sees that
        // instruction again, at the same boundary.
        nmi_on_idle_entry_ = n.interrupted_pc() == idle_entry_;
        if (in_play_ && n.interrupted_pc() == tetris::game_waitForVblank_loop) {
            // The work ended just as the NMI came, on the wait's first instruction (jsr
            // ai_idle): the boundary is here, before the NMI's handler, with no idle time.
            reach_boundary(n);
            if (!pending_.empty() && !pending_.back().idle_known) {
                pending_.back().idle = 0;
                pending_.back().idle_known = true;
            }
            boundary_at_nmi_ = true;
        }
        if (nmis_since_boundary_ == 0) {  // the frame's NMI: its work begins
            reached_state6_ = reached_state7_ = false;
            frame_nmi_at_ = n.cycles() - emu::Nes::kInterruptCycles;
        } else {
            count_lag_nmi(lags_, n, reached_state6_, reached_state7_);
        }
        if (!pending_.empty() && !pending_.back().idle_known) {
            pending_.back().idle = static_cast<uint32_t>(n.cycles() - emu::Nes::kInterruptCycles - idle_from_);
            pending_.back().idle_known = true;
        }
        if (in_play_ && ++nmis_since_boundary_ > kFreezeFrames)
            end_with(AiGameComparison::End::Crash,
                     "no frame boundary in " + std::to_string(kFreezeFrames) + " frames (the game froze)");
    }

    const uint16_t idle_entry_, late_plans_, nmi_entry_;
    AiGameComparison& out_;
    DispatchWatch dispatch_;
    std::deque<Boundary> pending_;
    uint64_t frame_nmi_at_ = 0;  // the interrupt of the NMI that began the work under way
    uint64_t idle_from_ = 0;
    uint64_t nmis_since_boundary_ = 0;
    LagNmis lags_;               // the NMIs in the work of the frame under way, past its first
    bool reached_state6_ = false, reached_state7_ = false;  // where that work is (step_with_lag)
    bool boundary_at_nmi_ = false;
    bool nmi_on_idle_entry_ = false;  // the last NMI was taken on ai_idle's first instruction
    bool in_play_ = false, ended_ = false, curtain_seen_ = false;
};

// The crash rule's tables as this ROM has them (without_crash_rule empties them), into the loop.
void load_crash_rule_tables(tools::CartridgeInTheLoop& loop, const CartImage& cart,
                            std::span<const uint8_t> patched_rom) {
    for (const CrashRuleTable& t : crash_rule_tables()) {
        const uint16_t table = cart.require(t.symbol);
        for (uint16_t i = 0; i < t.size; ++i)
            loop.machine().write(static_cast<uint16_t>(table + i),
                                 patched_rom[prg_file_offset(static_cast<uint16_t>(table + i))]);
    }
}

// What the comparison carries from one compared boundary to the next.
struct Carried {
    uint8_t late_plans = 0, spawn_count = 0, level = 0;
    double idle_sum = 0;
};

// A compared frame's lag, its idle time, and the pieces and fallbacks it shows, counted.
void count_frame(AiGameComparison& out, const Boundary& b, Carried& carried) {
    const unsigned lag = b.lag.total();
    out.lag_frames += lag;
    out.lagging_frames += lag != 0;
    out.max_lag = std::max(out.max_lag, lag);
    out.idle_min = std::min(out.idle_min, b.idle);
    out.idle_max = std::max(out.idle_max, b.idle);
    carried.idle_sum += b.idle;
    const uint8_t fallbacks = static_cast<uint8_t>(b.late_plans - carried.late_plans);
    const bool spawned = b.state.spawnCount != carried.spawn_count, fast = b.state.levelNumber >= 29;
    out.real_fallbacks += fallbacks;
    out.fallbacks_29 += fast ? fallbacks : 0;
    carried.late_plans = b.late_plans;
    out.pieces += spawned;
    out.pieces_29 += fast && spawned;
    if (fast && spawned) ++out.pieces_29_by_band[fallback_band(b.state)];
    if (fast && fallbacks) out.fallbacks_29_by_band[fallback_band(b.state)] += fallbacks;
    carried.spawn_count = b.state.spawnCount;
    if (carried.level == 255 && b.state.levelNumber == 0 && !out.rebirths++) out.first_rebirth = out.frames;
    carried.level = b.state.levelNumber;
}

// The loop steps the frame that led to the real game's boundary `b` (the idle time it had is the
// loop's idle source's), after its forecast is set against the frame's lag; then the two states
// are compared: the first difference is the mismatch, and the curtain ends the game.
void step_and_compare(AiGameComparison& out, tools::CartridgeInTheLoop& loop, const Boundary& b, Carried& carried,
                      RealGameWatch& watch) {
    const FrameTimeForecast forecast = forecast_ai_frame_time(loop.state());
    if (forecast.scoring && b.lag.total() == 0) out.besides_loop.add(forecast.lines, b.work - forecast.loop_cycles);
    out.forecast.add(forecast, b.lag.total() > 0,
                     "frame " + std::to_string(out.frames + 1) + " (level " + std::to_string(loop.state().levelNumber) + ")");
    loop.frame(b.lag);
    ++out.frames;
    count_frame(out, b, carried);
    if (!(loop.state() == b.state))
        out.mismatch = "frame " + std::to_string(out.frames) + ": " + state_difference(b.state, loop.state());
    else if (b.state.playState == tetris::PLAY_STATE_CURTAIN && !watch.ended())
        watch.end_with(AiGameComparison::End::Curtain, "");
}

// The comparison's figures at its end, from the loop's last state.
void finish(AiGameComparison& out, const tools::CartridgeInTheLoop& loop, const Carried& carried) {
    out.game_over = out.end == AiGameComparison::End::Curtain;
    if (out.end == AiGameComparison::End::Crash)
        out.crash_predicted = forecast_ai_frame_time(loop.state()).crash == Maybe::May;
    out.loop_fallbacks = loop.stats().fallback_plans;
    out.hate_dealt = loop.stats().hate_dealt;
    out.hate_kept = loop.stats().hate_kept;
    out.idle_mean = out.frames ? carried.idle_sum / static_cast<double>(out.frames) : 0;
    out.lines = lines_count(loop.state());
    out.level = loop.state().levelNumber;
}

}  // namespace

AiGameComparison compare_ai_game_with_loop(std::span<const uint8_t> patched_rom, const CartImage& cart,
                                           const MenuWalk& walk, uint64_t max_frames,
                                           std::optional<ModelStart> start) {
    emu::Nes nes(patched_rom);
    AiRestart restart(cart);
    begin_ai_game(nes, walk, restart, start);
    AiGameComparison out;
    out.start_rng = rng_seed(nes);
    RealGameWatch watch(cart, nes.nmi_vector(), out);
    nes.set_instruction_hook([&](const emu::Nes& n) {
        restart.on_instruction(nes, n);
        watch.on_instruction(n);
    });
    // A model-made state was written into the game in its wait: the game's first boundary, from
    // which the loop starts (the NMI that follows is the first either one's driver sees it in).
    if (start) watch.reach_boundary(nes);

    std::optional<tools::CartridgeInTheLoop> loop;
    uint32_t next_idle = 0;
    tools::CartLoopOptions options;
    options.idle_source = [&next_idle] { return next_idle; };
    options.hate = walk.hate;
    Carried carried;
    for (uint64_t f = 0; f < max_frames + 600 && !out.mismatch && !out.game_over; ++f) {
        nes.run_frame();
        while (!out.mismatch) {
            const std::optional<Boundary> b = watch.take_boundary();
            if (!b) break;
            if (!loop) {  // the first frame of play: the loop starts from it (its task from scratch)
                loop.emplace(b->state, options);
                load_crash_rule_tables(*loop, cart, patched_rom);
                carried.late_plans = b->late_plans;
                carried.spawn_count = b->state.spawnCount;
                carried.level = b->state.levelNumber;
                out.idle_min = out.idle_max = b->idle;
                continue;
            }
            next_idle = b->idle;
            step_and_compare(out, *loop, *b, carried, watch);
            if (out.frames >= max_frames) break;
        }
        if (out.frames >= max_frames || (watch.ended() && watch.all_taken())) break;
    }
    if (!loop) throw std::runtime_error("the AI game did not start (is this the patched Tetris (USA)?)");
    finish(out, *loop, carried);
    return out;
}

}  // namespace nestris::game
