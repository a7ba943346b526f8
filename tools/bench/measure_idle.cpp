// measure-idle: the CPU time the AI can have, measured on the ORIGINAL game (the user's ROM).
//
// The AI computes in the main loop's wait for the vertical blank. Per frame of real play (the
// reference AI playing through the controller, at start levels 0, 18, 19 and 29), this tool
// measures with a per-instruction hook, in CPU cycles:
//   idle  from the main loop entering the wait (the hook site game_waitForVblank_loop) to the
//         NMI: what ai_idle gets (minus its own call overhead);
//   nmi   the NMI handler, entry to the end of its RTI (render, poll; ai_poll runs in it);
//   work  the main loop from the NMI's return to entering the wait;
// and classifies each frame by what the game did in it: piece moving, lock, row check,
// line-clear animation, lines/score update, entry delay (spawn waiting for the playfield
// copy), a level-up, a score change, the first frame of a game. A frame without a wait before
// its NMI is a lag frame of the original game. Prints figures; tests nothing.
#include "ai-reference/ai/ai_player.hpp"
#include "ai-reference/model/player.hpp"
#include "ai-reference/model/ram_map.hpp"
#include "base/command_runner.hpp"
#include "base/file_io.hpp"
#include "base/tally.hpp"
#include "emu-test/input.hpp"
#include "emu-test/nes.hpp"
#include "patcher/cart_image.hpp"
#include "tools/cli/command_line.hpp"
#include "tools/harness/game_driver.hpp"
#include "tools/harness/game_harness.hpp"
#include "tools/harness/version.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace nestris;

namespace {

using Stat = Tally<uint64_t>;  // cycles over frames

// One main-loop period (from an NMI's return to the next NMI) and the NMI that ends it.
struct Period {
    bool waited = false;            // the main loop reached the wait before the NMI
    uint64_t idle = 0, work = 0, nmi = 0;
    uint8_t state = 0, vram_row = 0;  // playState and vramRow when the period began
    bool level_up = false, score_change = false;
};

// Cycle bookkeeping from the instruction hook.
struct Meter {
    uint16_t wait_pc = 0, nmi_pc = 0, rti_pc = 0;
    uint16_t play_state = 0, vram_row = 0, level = 0, score = 0;
    uint64_t wait_at = 0, nmi_at = 0, rti_end = 0;
    bool waiting = false, started = false;
    Period current;
    uint8_t level_at_start = 0;
    uint32_t score_at_start = 0;
    std::vector<Period> done;

    uint32_t score_of(const emu::Nes& n) const {
        return static_cast<uint32_t>(n.read_ram(score)) | n.read_ram(static_cast<uint16_t>(score + 1)) << 8 |
               static_cast<uint32_t>(n.read_ram(static_cast<uint16_t>(score + 2))) << 16;
    }
    void on(const emu::Nes& n) {
        const uint16_t pc = n.cpu().pc();
        const uint64_t c = n.cycles();
        if (pc == wait_pc && !waiting) {
            waiting = true;
            wait_at = c;
        } else if (pc == nmi_pc) {
            nmi_at = c - 7;  // the interrupt sequence ran before the handler's first instruction
            current.waited = waiting;
            current.idle = waiting ? nmi_at - wait_at : 0;
            current.work = (waiting ? wait_at : nmi_at) - rti_end;
            current.level_up = n.read_ram(level) != level_at_start;
            current.score_change = score_of(n) != score_at_start;
            waiting = false;
        } else if (pc == rti_pc) {
            rti_end = c + 6;
            current.nmi = rti_end - nmi_at;
            if (started) done.push_back(current);
            started = true;
            current = {};
            current.state = n.read_ram(play_state);
            current.vram_row = n.read_ram(vram_row);
            level_at_start = n.read_ram(level);
            score_at_start = score_of(n);
        }
    }
};

std::string level_list_default() { return "0,18,19,29"; }


void print_row(const char* name, const Stat& s, const Stat& nmi, const Stat& work) {
    if (s.empty()) return;
    std::printf("  %-26s %7llu  %6llu %8.0f %6llu   %6llu %6llu   %6llu %6llu\n", name,
                static_cast<unsigned long long>(s.count()), static_cast<unsigned long long>(s.min()), s.mean(),
                static_cast<unsigned long long>(s.max()), static_cast<unsigned long long>(nmi.max()),
                static_cast<unsigned long long>(static_cast<uint64_t>(nmi.mean())),
                static_cast<unsigned long long>(work.max()),
                static_cast<unsigned long long>(static_cast<uint64_t>(work.mean())));
}

// The original game from power-on to a game at `level`: the level menu's cursor at level % 10,
// then Start (A held: +10); from level 20 the start level is poked into RAM first.
void start_game_at(emu::Nes& nes, int level) {
    const int base = level % 10;
    std::string input = ".*300 S .*20 S .*20 S .*20 ";
    if (base >= 5) input += "D .*3 ";
    for (int i = 0; i < base % 5; ++i) input += "R .*3 ";
    nes.run_input(input);
    if (level >= 20) nes.write_ram(static_cast<uint16_t>(tetris::startLevel + kPlayer1Offset), static_cast<uint8_t>(level));
    nes.run_input(level >= 10 && level < 20 ? "A*3 A+S" : "S");
}

// The kinds of frame a main-loop period counts in (`first`: the game's first).
std::vector<std::string> kinds_of(const Period& f, bool first) {
    std::vector<std::string> kinds = {"all frames"};
    if (first) kinds.push_back("first frame of a game");
    switch (f.state) {
    case 1: kinds.push_back("piece moving (state 1)"); break;
    case 2: kinds.push_back("lock (state 2)"); break;
    case 3: kinds.push_back("row check (state 3)"); break;
    case 4: kinds.push_back("line-clear animation (4)"); break;
    case 5: kinds.push_back("lines/stats update (5)"); break;
    case 8: kinds.push_back(f.vram_row >= 32 ? "spawn (state 8)" : "entry delay (state 8)"); break;
    default: kinds.push_back("other play states"); break;
    }
    if (f.level_up) kinds.push_back("level-up frame");
    if (f.score_change) kinds.push_back("score change");
    return kinds;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"measure-idle: per frame of play on the ORIGINAL Tetris (USA), the CPU cycles from the main loop's\n"
                 "wait for vertical blank to the NMI (the AI's idle time), the NMI's and the main loop's work;\n"
                 "by kind of frame, at several start levels. The reference AI plays.", "measure-idle"};
    std::string rom_path, levels_text = level_list_default();
    uint64_t frames = 30'000;
    app.add_option("ROM", rom_path, "Tetris (USA) ROM")->required();
    app.add_option("--frames", frames, "frames of play measured per level (games restart after a top-out)");
    app.add_option("--levels", levels_text, "start levels, comma separated, ranges with '-' (0-255; 29 is set by a RAM poke)");
    app.set_version_flag("--version", nestris::tools::version_text());
    return nestris::run_program(app, argc, argv, [&]() -> int {
        std::vector<int> levels;
        for (const uint32_t v : parse_number_list(levels_text)) {
            if (v > 255) throw UsageError("--levels are 0-255");
            levels.push_back(static_cast<int>(v));
        }
        const game::GameRoms roms = game::make_game_roms(read_file(rom_path), shipped_cart());
        const uint16_t p1_level = tetris::player1_levelNumber;
        const uint16_t vram_row = static_cast<uint16_t>(tetris::vramRow + kPlayer1Offset);

        std::printf("CPU cycles per frame (NTSC frame = 29 780.5 cycles). idle: wait entry -> NMI; nmi: the handler;\n"
                    "work: main loop from the NMI's return to the wait. Original game, the reference AI playing.\n");
        std::fflush(stdout);  // (before the progress, where both go to one file)
        const auto start = std::chrono::steady_clock::now();
        const auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
        // In frames of play, every level's --frames: a level's games take many seconds.
        ProgressReport progress("measure-idle", levels.size() * frames, "frames", stderr_is_terminal(), false);
        uint64_t levels_done = 0;
        for (int level : levels) {
            std::map<std::string, std::array<Stat, 3>> by_kind;  // idle, nmi, work
            Stat busy;                                          // nmi + work of a frame
            uint64_t measured = 0, lag = 0, games = 0, max_lines = 0;
            int max_level = 0;
            while (measured < frames) {
                emu::Nes nes(roms.original);
                start_game_at(nes, level);
                Meter m;
                m.wait_pc = tetris::game_waitForVblank_loop;
                m.nmi_pc = tetris::game_nmi;
                m.rti_pc = tetris::game_nmiReturn;
                m.play_state = tetris::player1_playState;
                m.vram_row = vram_row;
                m.level = p1_level;
                m.score = tetris::score;
                nes.set_instruction_hook([&m](const emu::Nes& n) { m.on(n); });
                ai::AiPlayer ai;
                ++games;
                bool first = true;
                while (measured < frames && nes.read_ram(tetris::gameMode) == tetris::GAME_MODE_PLAY) {
                    uint8_t b = 0;
                    try {
                        const std::span<const uint8_t, kCpuRamSize> ram(nes.ram().data(), kCpuRamSize);
                        b = game::pad_from_game(ai.buttons(view_of(from_ram(ram))));
                    } catch (const std::exception&) {
                    }
                    nes.set_buttons(b);
                    m.done.clear();
                    nes.run_frame();
                    if (nes.read_ram(tetris::player1_playState) == tetris::PLAY_STATE_CURTAIN) break;  // topped out
                    if (nes.read_ram(tetris::renderMode) != 3) continue;                           // paused
                    for (const Period& f : m.done) {
                        if (f.state == 0) continue;  // the game's own setup, before its first piece
                        const std::vector<std::string> kinds = kinds_of(f, first);
                        first = false;
                        if (!f.waited) ++lag;
                        busy.add(f.nmi + f.work);
                        for (const std::string& k : kinds) {
                            auto& st = by_kind[k];
                            st[0].add(f.idle);
                            st[1].add(f.nmi);
                            st[2].add(f.work);
                        }
                        ++measured;
                    }
                    max_level = std::max<int>(max_level, nes.read_ram(p1_level));
                    max_lines = std::max<uint64_t>(max_lines, lines_made(nes.read_ram(tetris::lines), nes.read_ram(static_cast<uint16_t>(tetris::lines + 1))));
                    // (a frame may end more than one main-loop period: `measured` can pass --frames)
                    std::cerr << progress.update(levels_done * frames + std::min(measured, frames), seconds()) << std::flush;
                }
            }
            ++levels_done;
            std::cerr << progress.clear() << std::flush;
            std::printf("\nstart level %d: %llu frames of play in %llu games (up to level %d, %llu lines), %llu lag frames\n",
                        level, static_cast<unsigned long long>(measured), static_cast<unsigned long long>(games), max_level,
                        static_cast<unsigned long long>(max_lines), static_cast<unsigned long long>(lag));
            std::printf("  %-26s %7s  %6s %8s %6s   %6s %6s   %6s %6s\n", "frame kind", "frames", "idle:min", "mean", "max",
                        "nmi:max", "mean", "work:max", "mean");
            const char* order[] = {"all frames", "piece moving (state 1)", "lock (state 2)", "row check (state 3)",
                                   "line-clear animation (4)", "lines/stats update (5)", "entry delay (state 8)",
                                   "spawn (state 8)", "other play states", "level-up frame", "score change",
                                   "first frame of a game"};
            for (const char* k : order)
                if (by_kind.count(k)) print_row(k, by_kind[k][0], by_kind[k][1], by_kind[k][2]);
            if (!busy.empty())
                std::printf("  the game's own work in a frame (NMI + main loop): max %llu, mean %.0f cycles\n",
                            static_cast<unsigned long long>(busy.max()), busy.mean());
            std::fflush(stdout);
        }
        std::cerr << progress.finish(seconds()) << std::flush;
        return 0;
    });
}
