#include "tools/harness/fidelity.hpp"
#include "tools/harness/game_harness.hpp"

#include "ai-reference/model/frame_time.hpp"
#include "ai-reference/model/ram_map.hpp"
#include "ai-reference/model/random_movie.hpp"
#include "ai-reference/model/state_io.hpp"
#include "base/hex.hpp"
#include "base/worker_pool.hpp"
#include "emu-test/nes.hpp"
#include "patcher/cart_image.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace nestris {
namespace {

// The game polls the pad into a byte with A in bit 7 ... Right in bit 0; the emulator's
// controller holds them the other way round (A in bit 0).
uint8_t to_pad(uint8_t game_buttons) {
    uint8_t pad = 0;
    for (int i = 0; i < 8; ++i)
        if (game_buttons & (1u << i)) pad = static_cast<uint8_t>(pad | (0x80u >> i));
    return pad;
}

// Generous: one frame is 29 781 cycles; menus with the PPU off take a few frames per NMI.
constexpr uint64_t kCyclesPerNmi = 10 * 29781;

// The frame ran a lock's score loop (play state 5 moved on to 6).
bool scored(const GameState& before, const GameState& after) {
    return before.playState != tetris::PLAY_STATE_B_TYPE_GOAL_CHECK && after.playState == tetris::PLAY_STATE_B_TYPE_GOAL_CHECK;
}

// The main loop's two waits for the NMI (the frame's end; the pause's first frame).
bool is_vblank_wait(uint16_t pc) {
    return (pc >= tetris::game_waitForVblank_loop && pc <= tetris::game_waitForVblank_loop + 3) ||
           (pc >= tetris::game_waitForVblank_loop2 && pc <= tetris::game_waitForVblank_loop2 + 3);
}

struct Harness {
    emu::Nes nes;
    uint16_t nmi_address;
    uint64_t nmis = 0;

    bool lag = false;  // the NMI we stand at landed in the frame's work
    uint64_t nmi_at = 0;   // the cycle its interrupt began
    uint64_t wait_at = 0;  // the cycle the main loop's wait last began
    bool reached_state6 = false, reached_state7 = false;  // where that work was
    game::DispatchWatch dispatch;

    Harness(std::span<const uint8_t> rom, std::function<void(const emu::Nes&)> observe)
        : nes(rom), nmi_address(tetris::game_nmi) {
        nes.power_on();
        nes.set_instruction_hook([this, observe = std::move(observe)](const emu::Nes& n) {
            if (observe) observe(n);
            dispatch.on_instruction(n);
            const uint16_t pc = n.cpu().pc();
            if (pc == tetris::game_waitForVblank_loop || pc == tetris::game_waitForVblank_loop2) wait_at = n.cycles();
            reached_state6 |= pc == tetris::game_checkForResetKeyCombo;
            reached_state7 |= pc == tetris::game_startButtonHandling;
        });
    }
    // Runs to the next NMI entry, where the handler has not yet polled the pad, and tells
    // whether it found the main loop in its wait for it (a frame boundary) or in its work.
    void next_nmi() {
        if (auto why = try_next_nmi()) throw std::runtime_error(*why);
    }
    // The same; a game that went astray (a dispatch that jumped elsewhere, the CPU jammed, no
    // NMI, or an NMI that interrupted code in RAM) is said, not thrown.
    std::optional<std::string> try_next_nmi() {
        if (nes.cpu().pc() == nmi_address) nes.step();
        if (!lag) reached_state6 = reached_state7 = false;  // a frame's work begins
        const emu::RunStatus status = nes.run_until_pc(nmi_address, kCyclesPerNmi);
        if (dispatch.astray()) return dispatch.astray();
        if (status != emu::RunStatus::Reached)
            return std::string("the game did not reach its NMI: ") + emu::to_string(status);
        ++nmis;
        nmi_at = nes.cycles() - emu::Nes::kInterruptCycles;
        const uint16_t pc = nes.interrupted_pc();
        if (pc == tetris::game_waitForVblank_loop || pc == tetris::game_waitForVblank_loop2)
            wait_at = nmi_at;  // the work ended as the NMI came
        lag = !is_vblank_wait(pc);
        if (pc < 0x8000) return "the NMI interrupted code in RAM at " + hex(pc, 4);
        return std::nullopt;
    }
    GameState state() const { return from_ram(nes.ram()); }
};

void count_events(const GameState& before, const GameState& after, FidelityResult& r) {
    if (before.playState == tetris::PLAY_STATE_CHECK_ROWS && after.playState == tetris::PLAY_STATE_LINE_CLEAR) {
        ++r.line_clears;
        r.tetrises += after.completedLines == 4;
    }
    if (before.playState == tetris::PLAY_STATE_SPAWN && after.playState == tetris::PLAY_STATE_ACTIVE) ++r.pieces;
    if (!is_paused(before) && is_paused(after)) ++r.pauses;
    if (after.levelNumber != before.levelNumber) ++r.level_ups;
    if (before.playState == tetris::PLAY_STATE_LOCK && after.playState != tetris::PLAY_STATE_LOCK) {
        for (std::size_t i = 236; i < kPlayfieldPageSize; ++i)
            if (after.playfield[i] != before.playfield[i]) {
                ++r.hidden_row_locks;
                break;
            }
    }
}

// A random stack from row `top` down: blocks with one gap per row, tiles as the pieces leave
// them. The rows above stay empty, so the piece at the spawn point stays clear of it (top >= 2).
void build_stack(GameState& s, uint8_t top, uint64_t seed) {
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
    auto next = [&x] {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        return x;
    };
    constexpr std::array<uint8_t, 3> tiles{kTileBlockA, kTileBlockB, kTileBlockC};
    for (int r = top; r < kPlayfieldHeight; ++r) {
        const int gap = static_cast<int>(next() % 10);
        for (int c = 0; c < kPlayfieldWidth; ++c) {
            const bool filled = c != gap && next() % 8 != 0;
            s.playfield[static_cast<std::size_t>(r * 10 + c)] = filled ? tiles[next() % 3] : kTileEmpty;
        }
    }
}

void write_lines(emu::Nes& nes, uint16_t bcd) {
    for (uint16_t address : {tetris::lines, static_cast<uint16_t>(tetris::lines + kPlayer1Offset)}) {
        nes.write_ram(address, static_cast<uint8_t>(bcd & 0xFF));
        nes.write_ram(static_cast<uint16_t>(address + 1), static_cast<uint8_t>(bcd >> 8));
    }
}

// Takes the menus by the path `p` (Start at the earliest frame of each screen plus its extra
// frames, Right in the type menu for B-Type, the start level and height written in the level
// menu) to the game's first frame boundary, where the buttons are let go.
void walk_the_menus(Harness& h, const PowerOnSequence& p) {
    // NMI numbers of the presses (see power_on.hpp for where they come from).
    const uint64_t legal = kNmisToLegalStartCheck + p.legal_frames;
    const uint64_t title = kNmisToTitleFrameCounterReset + 1 + p.legal_frames + p.title_frames;
    const uint64_t type_first = title + 4;
    const uint64_t type_start = type_first + p.game_type_frames;
    const uint64_t level_first = kNmisToLevelMenuFirstCheck + p.legal_frames + p.title_frames + p.game_type_frames;
    const uint64_t level_start = level_first + p.level_menu_frames;
    const uint64_t give_up = level_start + 40;
    for (;;) {
        h.next_nmi();
        const uint64_t n = h.nmis;
        uint8_t b = 0;
        if ((p.legal_frames < 255 && n == legal) || n == title || n == type_start || n == level_start)
            b = tetris::BUTTON_START;
        if (p.game_type == 1 && n == type_first) b = tetris::BUTTON_RIGHT;
        if (n == level_first + 1) {
            // Inside the level menu, after it has brought player1_startLevel into 0-9.
            h.nes.write_ram(static_cast<uint16_t>(tetris::startLevel + kPlayer1Offset), p.start_level);
            h.nes.write_ram(static_cast<uint16_t>(tetris::startHeight + kPlayer1Offset), p.start_height);
        }
        h.nes.set_buttons(to_pad(b));
        const auto ram = h.nes.ram();
        if (n > level_start && ram[tetris::gameMode] == tetris::GAME_MODE_PLAY && ram[tetris::gameModeState] == 2 &&
            ram[tetris::renderMode] == 3)
            break;
        if (n > give_up) throw std::runtime_error("the game did not start (menu path lost)");
    }
    h.nes.set_buttons(0);
}

// The game's first frame against power_on_game's for the same path, then what the game asks for
// written into its RAM (the lines counter, a random stack, the score at 999 999): the state the
// game and the model go on from.
GameState starting_state(Harness& h, const FidelityGame& game, const GameState& expected_start, FidelityResult& r) {
    GameState s = h.state();
    r.start_matches_power_on = s == expected_start;
    if (!r.start_matches_power_on) r.start_difference = state_difference(expected_start, s);
    if (game.lines) {
        write_lines(h.nes, *game.lines);
        s = h.state();
    }
    if (game.stack_top || game.max_score) {
        if (game.stack_top) build_stack(s, *game.stack_top, game.movie_seed);
        if (game.max_score) s.score = {0x99, 0x99, 0x99};
        to_ram(s, h.nes.ram());
        if (!(h.state() == s)) throw std::runtime_error("to_ram/from_ram do not round-trip");
    }
    return s;
}

// A frame of the movie in the game: its NMI polls the pad at `i`; each NMI that then lands in
// the frame's work (a lag frame) polls the movie's next pad (`i` ends at the last one polled),
// which the model steps all at once.
struct GameFrame {
    uint64_t nmi_at = 0;                // the interrupt of the frame's NMI
    std::optional<std::string> astray;  // the game went astray in the frame or its lag NMIs
    LagNmis lag;
};
GameFrame run_game_frame(Harness& h, const Movie& movie, std::size_t& i) {
    GameFrame f;
    h.nes.set_buttons(to_pad(movie.frames[i]));
    f.nmi_at = h.nmi_at;
    f.astray = h.try_next_nmi();
    while (!f.astray && h.lag && i + 1 < movie.frames.size()) {
        game::count_lag_nmi(f.lag, h.nes, h.reached_state6, h.reached_state7);
        h.nes.set_buttons(to_pad(movie.frames[++i]));
        f.astray = h.try_next_nmi();
    }
    return f;
}

// The model's state after frame `frame` against the game's: false, with the divergence said in
// `r`, when they differ (or the game's RAM is no state).
bool same_as_game(const Harness& h, const GameState& before, const GameState& model, std::size_t frame, uint8_t buttons,
                  FidelityResult& r) {
    std::optional<GameState> rom_state;
    try {
        rom_state = h.state();
        if (*rom_state == model) return true;
    } catch (const std::exception& e) {
        r.rom_error = e.what();
    }
    r.diverged = true;
    r.divergence_frame = frame;
    r.divergence_buttons = buttons;
    r.before = before;
    r.model = model;
    r.rom = rom_state;
    return false;
}

// The game and the model run the same random movie from `s`, compared after every frame, until
// they part, the game goes astray (a crash: did the model forecast it?) or leaves play.
void follow_movie(Harness& h, const FidelityGame& game, GameState& s, FidelityResult& r) {
    // The last lock's score loop (the frame that moved play state 5 on), for a crash's account.
    struct {
        std::size_t frame = 0;
        uint8_t level = 0, lines = 0;
    } last_score;
    const Movie movie = make_random_movie(s, game.movie_seed, game.frames).movie;
    for (std::size_t i = 0; i < movie.frames.size(); ++i) {
        const std::size_t first = i;
        const uint8_t b = movie.frames[i];
        const GameFrame f = run_game_frame(h, movie, i);
        const GameState before = s;
        const FrameTimeForecast forecast = forecast_frame_time(before, kOriginalWork);
        const bool lagged = f.lag.total() > 0 || h.lag;
        if (!f.astray && forecast.scoring && !lagged)
            r.besides_loop.add(forecast.lines, h.wait_at - f.nmi_at - forecast.loop_cycles);
        if (!f.astray)
            r.forecast.add(forecast, lagged,
                           "frame " + std::to_string(first + 1) + " (level " + std::to_string(before.levelNumber) +
                               ", play state " + std::to_string(before.playState) + ", gameModeState " +
                               std::to_string(before.gameModeState) + ")");
        std::size_t polled = first;
        auto poll = [&](const GameState&) { return movie.frames[++polled]; };
        step_with_lag(s, b, f.lag, poll);
        r.lag_frames += f.lag.total();
        if (scored(before, s)) last_score = {first + 1, s.levelNumber, before.completedLines};
        if (f.astray) {
            // The game went astray in this frame or the NMIs in its work: the model's account
            // is a lock's score loop in this frame that may crash the game (frame_time.hpp).
            r.crash = FidelityCrash{i + 1, *f.astray, last_score.level, last_score.lines, false};
            r.crash->predicted = last_score.frame == first + 1 && forecast.crash == Maybe::May;
            break;
        }
        if (h.lag) break;  // the movie ran out in the middle of a frame's work
        // The model stops following where the game leaves play (game over, ending, B-Type
        // goal, reset): that frame ends in the game's menus or animations, not at a frame
        // boundary of play, so there is nothing to compare.
        if (s.status != GameStatus::Playing) break;
        ++r.frames_compared;
        if (!same_as_game(h, before, s, i + 1, b, r)) break;
        count_events(before, s, r);
    }
}

}  // namespace

std::string state_difference(const GameState& model, const GameState& game) {
    std::istringstream a(state_to_text(model)), b(state_to_text(game));
    std::string la, lb, out;
    while (std::getline(a, la) && std::getline(b, lb))
        if (la != lb) out += "  model: " + la + "\n  game:  " + lb + "\n";
    return out;
}

FidelityResult run_fidelity_game(std::span<const uint8_t> rom, const FidelityGame& game,
                                 std::function<void(const emu::Nes&)> observe) {
    FidelityResult r;
    r.game = game;
    try {
        const PowerOnSequence& p = game.start;
        if (p.level_menu_frames < 1)
            throw std::invalid_argument("the harness needs a level menu frame to set the level");
        if (p.game_type == 1 && p.game_type_frames < 1)
            throw std::invalid_argument("B-Type needs a game type menu frame (the Right press)");
        const GameState expected_start = power_on_game(p);  // also checks the path

        Harness h(rom, std::move(observe));
        walk_the_menus(h, p);
        GameState s = starting_state(h, game, expected_start, r);
        follow_movie(h, game, s, r);
        r.end = s;
    } catch (const std::exception& e) {
        r.error = e.what();
    }
    return r;
}

std::vector<FidelityGame> standard_fidelity_games(std::size_t count, std::size_t frames,
                                                  const std::vector<uint8_t>& levels, uint64_t seed) {
    if (levels.empty()) throw std::invalid_argument("no start levels");
    std::vector<FidelityGame> games;
    for (std::size_t i = 0; i < count; ++i) {
        FidelityGame g;
        const uint64_t k = seed + i;
        g.start.start_level = levels[i % levels.size()];
        g.start.legal_frames = static_cast<uint32_t>((k * 37) % 7 == 0 ? 255 : (k * 13) % 40);
        g.start.title_frames = static_cast<uint32_t>((k * 7) % 30);
        g.start.game_type = (i % 6 == 5) ? 1 : 0;
        g.start.game_type_frames = static_cast<uint32_t>(g.start.game_type + (k * 5) % 4);
        g.start.start_height = g.start.game_type ? static_cast<uint8_t>((k / 6) % 6) : 0;
        g.start.level_menu_frames = static_cast<uint32_t>(1 + (k * 101) % 997);
        g.frames = frames;
        g.movie_seed = k * 0x9E3779B97F4A7C15ull + 1;
        const bool known_threshold = g.start.start_level < 20 || g.start.start_level == 29;
        if (g.start.game_type == 0 && i % 3 == 1 && known_threshold) {
            // A few lines before the first level-up of the start level (BCD).
            const unsigned level = g.start.start_level;
            // First level-up (see the level test): 10 (L + 1) up to level 9, 100 for 10-15, then
            // 110-140 for 16-19; level 29 at 200 (lines / 10 = $20 = 32 > 29).
            const unsigned first = level < 10 ? (level + 1) * 10
                                 : level < 16 ? 100
                                 : level < 20 ? 100 + (level - 15) * 10
                                              : 200;
            const unsigned lines = first - 3;
            g.lines = static_cast<uint16_t>(((lines / 100) << 8) | (((lines / 10) % 10) << 4) | (lines % 10));
        }
        games.push_back(g);
    }
    return games;
}

std::vector<FidelityGame> stacked_fidelity_games(std::size_t count, std::size_t frames, uint64_t seed,
                                                  const std::vector<uint8_t>& levels, bool max_score) {
    std::vector<FidelityGame> games = standard_fidelity_games(count, frames, levels, seed);
    for (std::size_t i = 0; i < games.size(); ++i) {
        FidelityGame& g = games[i];
        g.start.game_type = 0;
        g.start.game_type_frames = 0;
        g.start.start_height = 0;
        g.lines = std::nullopt;
        g.stack_top = static_cast<uint8_t>(2 + (seed + i * 5) % 14);
        g.max_score = max_score;
    }
    return games;
}

std::vector<FidelityResult> run_fidelity(std::span<const uint8_t> rom, const std::vector<FidelityGame>& games,
                                         unsigned threads, const std::function<void(std::size_t)>& progress) {
    std::vector<FidelityResult> results(games.size());
    PoolOptions options;
    options.progress = progress;
    options.interval = std::chrono::milliseconds(200);
    parallel_for(
        games.size(), std::max(1u, threads), [&](std::size_t i) { results[i] = run_fidelity_game(rom, games[i]); },
        options);
    return results;
}

std::string describe(const FidelityResult& r) {
    std::ostringstream out;
    const PowerOnSequence& p = r.game.start;
    out << (p.game_type ? "B-Type" : "A-Type") << " level " << int(p.start_level);
    if (p.game_type) out << " height " << int(p.start_height);
    out << ", menus +" << p.legal_frames << "/+" << p.title_frames << "/+" << p.game_type_frames << ", "
        << p.level_menu_frames << " level-menu frames, movie seed " << r.game.movie_seed;
    if (r.game.lines) out << ", lines set to " << std::hex << *r.game.lines << std::dec;
    if (r.game.stack_top) out << ", stack from row " << int(*r.game.stack_top);
    if (r.game.max_score) out << ", score 999999";
    out << ": ";
    if (!r.error.empty()) {
        out << "ERROR " << r.error << "\n";
        return out.str();
    }
    out << r.frames_compared << " frames, " << r.pieces << " pieces, " << r.line_clears << " line clears ("
        << r.tetrises << " tetrises), " << r.level_ups << " level-ups, " << r.pauses << " pauses, "
        << r.hidden_row_locks << " locks into the hidden rows, " << r.lag_frames << " lag frames, ended "
        << (r.end.status == GameStatus::Playing ? (is_topped_out(r.end) ? "topped out" : "playing")
                                                : to_string(r.end.status))
        << "\n";
    if (!r.start_matches_power_on)
        out << "  the game's first frame differs from power_on_game():\n" << r.start_difference;
    if (r.crash)
        out << "  CRASH in frame " << r.crash->frame << " (" << r.crash->how << "), a lock scoring " << int(r.crash->lines)
            << " lines at level " << int(r.crash->level) << ": "
            << (r.crash->predicted ? "the model called it a lock that may crash\n"
                                   : "NOT predicted by the model (forecast_frame_time)\n");
    if (r.diverged) {
        out << "  DIVERGENCE at frame " << r.divergence_frame << " with buttons "
            << buttons_to_string(r.divergence_buttons) << "\n";
        if (r.rom)
            out << state_difference(r.model, *r.rom);
        else
            out << "  the game's RAM is not a model state: " << r.rom_error << "\n";
        out << "  state before the frame:\n" << state_to_text(r.before);
        out << "  model after the frame:\n" << state_to_text(r.model);
        if (r.rom) out << "  game after the frame:\n" << state_to_text(*r.rom);
    }
    return out.str();
}

}  // namespace nestris
