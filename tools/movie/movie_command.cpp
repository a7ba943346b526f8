// make-tetris-movie: authors an FCEUX movie (.fm2) of one whole game of Tetris (USA) from
// power-on: through the legal screen and the menus to an A-Type game at a start level, played by
// a small greedy player for a number of pieces, then pieces dropped where they spawn until the
// game tops out. The player reacts to the game's RAM in this emulator with PowerOn::Fceux and
// FCEUX's frames, so the movie is what a player would have recorded in FCEUX if the two agree
// (tools/scripts/fceux_check.sh --movie checks that they do). The movie holds only button presses.
//
//   make-tetris-movie ROM -o tests/fixtures/fceux/tetris_game.fm2 [--level 5] [--pieces 60]
//
// A function (tools/movie/make_tetris_movie.cpp is the program), so that the tests run it as a user does;
// it ends as every tool does (command_runner.hpp).
#include "tools/movie/movie_command.hpp"
#include "tools/harness/version.hpp"

#include "ai-reference/model/game_model.hpp"
#include "ai-reference/model/pieces.hpp"
#include "base/command_runner.hpp"
#include "base/file_io.hpp"
#include "emu-test/debug/fm2.hpp"
#include "emu-test/nes.hpp"
#include "game/tetris_map.hpp"

#include <CLI/CLI.hpp>

#include <array>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace nestris::tools {
namespace {

using namespace nestris::emu;

// The longest movie it records: a game from level 0 topped out by dropped pieces takes far
// fewer frames; the bound keeps memory (a frame a byte or two) and time in reason.
constexpr uint64_t kMaxMovieFrames = 1'000'000;

struct MovieOptions {
    std::string rom, out;
    int level = 5, pieces = 60;
    uint64_t max_frames = 60'000;
};

constexpr int kRows = kPlayfieldHeight, kColumns = kPlayfieldWidth;
using Board = std::array<std::array<bool, kColumns>, kRows>;

bool fits(const Board& b, uint8_t o, int x, int y) {
    for (const Cell c : kOrientationCells[o]) {
        const int cx = x + c.dx, cy = y + c.dy;
        if (cx < 0 || cx >= kColumns || cy >= kRows) return false;
        if (cy >= 0 && b[cy][cx]) return false;
    }
    return true;
}

// The classic four-feature evaluation of the board after the piece lands (higher is better).
double evaluate(Board b, uint8_t o, int x, int y) {
    for (const Cell c : kOrientationCells[o]) {
        if (y + c.dy < 0) return -1e9;  // above the top: topping out
        b[y + c.dy][x + c.dx] = true;
    }
    int lines = 0;
    for (int r = 0; r < kRows; ++r) {
        bool full = true;
        for (int c = 0; c < kColumns; ++c) full = full && b[r][c];
        if (full) {
            ++lines;
            for (int rr = r; rr > 0; --rr) b[rr] = b[rr - 1];
            b[0] = {};
        }
    }
    int heights[kColumns], holes = 0, aggregate = 0, bump = 0;
    for (int c = 0; c < kColumns; ++c) {
        heights[c] = 0;
        for (int r = 0; r < kRows; ++r) {
            if (b[r][c]) {
                heights[c] = kRows - r;
                break;
            }
        }
        for (int r = kRows - heights[c]; r < kRows; ++r) holes += !b[r][c];
        aggregate += heights[c];
        if (c) bump += std::abs(heights[c] - heights[c - 1]);
    }
    return -0.51 * aggregate + 0.76 * lines - 0.36 * holes - 0.18 * bump;
}

struct Target {
    uint8_t orientation;
    int x;
};

Target choose(const Board& b, uint8_t current, int x0, int y0) {
    Target best{current, x0};
    double best_score = -1e18;
    const uint8_t type = kTypeOfOrientation[current];
    for (uint8_t o = 0; o < kOrientationCount; ++o) {
        if (kTypeOfOrientation[o] != type) continue;
        for (int x = 0; x < kColumns; ++x) {
            if (!fits(b, o, x, y0)) continue;
            int y = y0;
            while (fits(b, o, x, y + 1)) ++y;
            const double s = evaluate(b, o, x, y);
            if (s > best_score) {
                best_score = s;
                best = {o, x};
            }
        }
    }
    return best;
}

int bcd(uint8_t v) { return (v >> 4) * 10 + (v & 15); }

int make_movie(const MovieOptions& o) {
    const auto bytes = read_file(o.rom);
    check_output(o.out);  // before the game is played: never onto the ROM, a FIFO, a missing folder
    Nes nes(bytes);
    Fm2Movie movie;
    fm2_power_on(nes, movie, PowerOn::Fceux);
    const int level = o.level, pieces = o.pieces;
    const uint64_t max_frames = o.max_frames;
    movie.frames.reserve(max_frames);
    uint8_t prev = 0;
    bool have_target = false, topped_out = false, started = false;
    Target target{};
    int placed = 0, menu_wait = 0;
    bool went_down = false;
    int rights = 0, after_top_out = 0;
    uint64_t game_start = 0;
    while (movie.frames.size() < max_frames) {
        const uint8_t mode = nes.read_ram(tetris::gameMode);
        uint8_t pad = 0;
        if (mode != tetris::GAME_MODE_PLAY) {
            if (started) break;  // back at the menus (or the high score screen) after the game
            // Menus: a press every 20 frames once the legal screen has had 300; at the level
            // menu Down (levels 5-9), Right to the level, then Start.
            if (movie.frames.size() >= 300 && ++menu_wait >= 20) {
                menu_wait = 0;
                if (mode == tetris::GAME_MODE_LEVEL_MENU && level >= 5 && !went_down) {
                    pad = emu::button::Down;
                    went_down = true;
                } else if (mode == tetris::GAME_MODE_LEVEL_MENU && rights < level % 5) {
                    pad = emu::button::Right;
                    ++rights;
                } else if (mode <= tetris::GAME_MODE_LEVEL_MENU) {
                    pad = emu::button::Start;
                }
            }
        } else {
            if (!started) game_start = movie.frames.size();
            started = true;
            const uint8_t state = nes.read_ram(tetris::playState);
            const uint8_t piece = nes.read_ram(tetris::currentPiece);
            if (state == tetris::PLAY_STATE_CURTAIN) {
                topped_out = true;  // the curtain: the game is over
            }
            if (state != tetris::PLAY_STATE_ACTIVE || piece >= kOrientationCount) {
                have_target = false;
            } else {
                if (!have_target) {
                    Board b{};
                    for (int r = 0; r < kRows; ++r)
                        for (int c = 0; c < kColumns; ++c)
                            b[r][c] = nes.read_ram(static_cast<uint16_t>(tetris::playfield + r * kColumns + c)) != kTileEmpty;
                    const int x = nes.read_ram(tetris::tetriminoX), y = static_cast<int8_t>(nes.read_ram(tetris::tetriminoY));
                    target = placed < pieces ? choose(b, piece, x, y) : Target{piece, x};
                    have_target = true;
                    ++placed;
                }
                const int x = nes.read_ram(tetris::tetriminoX);
                if (piece != target.orientation) {
                    if (!(prev & emu::button::A)) pad |= emu::button::A;
                } else if (x < target.x) {
                    if (!(prev & emu::button::Right)) pad |= emu::button::Right;
                } else if (x > target.x) {
                    if (!(prev & emu::button::Left)) pad |= emu::button::Left;
                } else {
                    pad |= emu::button::Down;
                }
            }
        }
        movie.frames.push_back(Fm2Frame{0, pad});
        prev = pad;
        if (run_fm2_frame(nes, movie, movie.frames.size() - 1) != RunStatus::Reached)
            throw std::runtime_error("the CPU jammed in frame " + std::to_string(movie.frames.size()) +
                                     ": is this Tetris (USA)?");
        if (topped_out && ++after_top_out >= 300) break;  // the curtain has fallen
    }
    if (!topped_out)
        throw std::runtime_error("no top-out within " + std::to_string(max_frames) + " frames: is this Tetris (USA)?");
    const int lines = bcd(nes.read_ram(tetris::lines)) + 100 * bcd(nes.read_ram(tetris::lines + 1));
    const int score = bcd(nes.read_ram(tetris::score)) + 100 * bcd(nes.read_ram(tetris::score + 1)) +
                      10000 * bcd(nes.read_ram(tetris::score + 2));
    std::string text = fm2_header(nes.cartridge(), "Tetris (USA)",
                                  "author nestris-ai make-tetris-movie: one A-Type game from level " + std::to_string(level) +
                                      ", " + std::to_string(pieces) + " pieces placed by a greedy player, then top-out");
    for (const Fm2Frame& f : movie.frames) text += fm2_line(f);
    write_text_atomically(o.out, text);
    std::printf("%zu frames (the game from frame %llu), %d pieces, %d lines, score %d: %s\n", movie.frames.size(),
                static_cast<unsigned long long>(game_start), placed, lines, score, o.out.c_str());
    return 0;
}

}  // namespace

int run_make_tetris_movie(int argc, const char* const* argv) {
    CLI::App app{"make-tetris-movie: an FCEUX movie of one game of Tetris (USA) from power-on to top-out", "make-tetris-movie"};
    MovieOptions o;
    app.add_option("ROM", o.rom, "Tetris (USA) ROM")->required();
    app.add_option("-o,--output", o.out, "the .fm2 to write")->required();
    app.add_option("--level", o.level, "start level 0-9")->check(CLI::Range(0, 9));
    app.add_option("--pieces", o.pieces, "pieces the player places before it lets the rest fall (0-10000)")
        ->check(CLI::Range(0, 10'000));
    app.add_option("--max-frames", o.max_frames,
                   "give up after this many frames (default 60000, at most " + std::to_string(kMaxMovieFrames) + ")")
        ->check(CLI::Range(uint64_t{1}, kMaxMovieFrames));
    app.footer("Exit status: 0 written; 1 refused or failed (no top-out, a bad ROM, an output it may not write); 2 usage.");
    app.set_version_flag("--version", version_text());
    return run_program(app, argc, argv, [&] { return make_movie(o); });
}

}  // namespace nestris::tools
