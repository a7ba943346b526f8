#include "tools/harness/lock_timing.hpp"

#include "ai-reference/model/pieces.hpp"
#include "ai-reference/model/ram_map.hpp"
#include "base/hex.hpp"
#include "emu-test/nes.hpp"

#include <optional>
#include <stdexcept>

namespace nestris::game {
namespace {

constexpr uint16_t kAddLineClearPoints = tetris::game_addLineClearPoints;
constexpr uint16_t kScoreLoopDone = tetris::game_scoreLoopDone;


// To the first frame boundary of play after Start on the level menu (the level written there).
void start_game(emu::Nes& nes, const LockSetup& setup) {
    std::string input = ".*" + std::to_string(300 + setup.title_wait) + " S .*20 S .*20 S .*20 ";
    nes.run_input(input);
    nes.write_ram(static_cast<uint16_t>(tetris::startLevel + kPlayer1Offset), setup.level);
    nes.run_input("S");
    for (int i = 0; i < 60; ++i) {
        if (nes.run_until_pc(tetris::game_nmi, 400'000) != emu::RunStatus::Reached) break;
        const auto ram = nes.ram();
        if (ram[tetris::gameMode] == tetris::GAME_MODE_PLAY && ram[tetris::gameModeState] == 2 &&
            ram[tetris::renderMode] == tetris::RENDER_MODE_PLAY && ram[tetris::player1_playState] == tetris::PLAY_STATE_ACTIVE)
            return;
        nes.step();
    }
    throw std::runtime_error("the game did not start (is this Tetris (USA)?)");
}

}  // namespace

bool in_dispatch_crash_window(uint16_t pc) {
    return pc >= tetris::game_switchWindowFirst && pc <= tetris::game_switchWindowLast;
}

std::vector<Stall> stalls_of(const std::vector<AiGameTimes::Lag>& lags, uint32_t min_frames) {
    std::vector<Stall> out;
    std::optional<Stall> run;
    const auto close = [&] {
        if (run && run->frames >= min_frames) out.push_back(*run);
        run.reset();
    };
    for (const AiGameTimes::Lag& l : lags) {
        if (run && l.frame == run->first_frame + run->frames) {
            ++run->frames;
            continue;
        }
        close();
        run = Stall{l.frame, 1, l.level, l.pc};
    }
    close();
    return out;
}

bool in_mino_window(uint16_t pc) { return pc >= tetris::game_stageMinoLoop && pc <= tetris::game_stageMinoLoopLast; }

bool in_sprite_loader_window(uint16_t pc) {
    return pc >= tetris::game_spriteLoaderPointerSet && pc <= tetris::game_spriteLoaderLoopJmp;
}

LockTiming trace_lock(std::span<const uint8_t> original_rom, const LockSetup& setup) {
    if (setup.lines_cleared > 4) throw std::invalid_argument("a lock clears 0-4 lines");
    if (setup.rest_row < 4 || setup.rest_row >= kPlayfieldHeight) throw std::invalid_argument("the rest row is 4-19");
    emu::Nes nes(original_rom);
    start_game(nes, setup);
    GameState s = from_ram(nes.ram());
    s.score = setup.score;
    s.lines = setup.lines;
    s.levelNumber = setup.level;
    s.playfield.fill(kTileEmpty);
    for (int r = setup.rest_row + 1 - setup.lines_cleared; r <= setup.rest_row; ++r)
        for (int c = 0; c < kPlayfieldWidth - 1; ++c) s.playfield[static_cast<std::size_t>(r * 10 + c)] = kTileBlockA;
    for (int r = setup.rest_row + 1; r < kPlayfieldHeight; ++r)
        for (int c = 1; c < kPlayfieldWidth; ++c) s.playfield[static_cast<std::size_t>(r * 10 + c)] = kTileBlockA;
    s.displayNextPiece = setup.preview ? 0 : 1;
    s.holdDownPoints = setup.hold_down_points;
    s.currentPiece = 17;  // I, vertical
    s.tetriminoX = 9;
    s.tetriminoY = 4;
    s.autorepeatY = 0;
    s.fallTimer = 0;
    to_ram(s, nes.ram());

    LockTiming t;
    uint64_t score_nmi = 0, loop_start = 0, loop_end = 0, wait_at = 0;
    bool in_frame = false;
    DispatchWatch dispatch;
    nes.set_instruction_hook([&](const emu::Nes& n) {
        const uint16_t pc = n.cpu().pc();
        const uint64_t c = n.cycles();
        dispatch.on_instruction(n);
        if ((!is_game_code(pc) || dispatch.astray()) && !t.crashed) {  // the game's code is all in ROM; a dispatch
            t.crashed = true;                                    // gone astray left play (DispatchWatch)
            t.crash_pc = pc;
        } else if (pc == tetris::game_nmi) {
            if (in_frame) t.landed.push_back({c - emu::Nes::kInterruptCycles - score_nmi, n.interrupted_pc()});
            if (loop_start == 0) score_nmi = c - emu::Nes::kInterruptCycles;
        } else if (pc == kAddLineClearPoints && loop_start == 0 &&
                   n.read_ram(tetris::player1_playState) == tetris::PLAY_STATE_UPDATE_LINES) {
            loop_start = c;
            in_frame = true;
        } else if (pc == kScoreLoopDone && in_frame && loop_end == 0) {
            loop_end = c;
            t.score_after = {n.read_ram(tetris::score), n.read_ram(static_cast<uint16_t>(tetris::score + 1)),
                             n.read_ram(static_cast<uint16_t>(tetris::score + 2))};
        } else if (in_frame && loop_end && in_dispatch_crash_window(pc)) {
            t.crash_window_starts.push_back(c - loop_end);
        } else if (in_frame && loop_end && in_sprite_loader_window(pc)) {
            t.loader_window_starts.push_back(c - loop_end);
        } else if (in_frame && loop_end && in_mino_window(pc)) {
            t.mino_window_starts.push_back(c - loop_end);
        } else if (pc == tetris::game_waitForVblank_loop && in_frame && wait_at == 0) {
            wait_at = c;
            in_frame = false;
        }
    });
    // The I falls 15 rows: 48 frames a row at level 0, then the entry delay and any line clear.
    for (int f = 0; f < 1000 && !t.crashed; ++f) {
        nes.run_frame();
        if (wait_at && nes.read_ram(tetris::player1_playState) == tetris::PLAY_STATE_ACTIVE) break;
    }
    if (!t.crashed && loop_start && !wait_at) {
        t.crashed = true;
        t.crash_pc = nes.cpu().pc();
    }
    t.scored = loop_start != 0;
    if (!t.scored) return t;
    t.pre = loop_start - score_nmi;
    if (loop_end) t.loop = loop_end - loop_start;
    if (wait_at && loop_end) t.post = wait_at - loop_end;
    return t;
}

}  // namespace nestris::game

namespace nestris::game {

std::optional<AiScoringKind> ai_kind_of(const ScoringFrame& f) {
    // (the music unchanged: the tune already the one row 5 wants)
    const bool music_changes = (f.row5_first_block != kRow5Empty) != (f.allegro != 0);
    // (the spawn's level from 128: a level-up to 128 comes after a frame with the AI's polls, whose
    // work moves it; nothing crashes there)
    if (f.level - f.level_up < hooks::AI_POLL_PAUSE_LEVEL || music_changes || f.pre >= kAiNextNmi.first)
        return std::nullopt;
    AiScoringKind kind = scoring_kind(f.lines[0], f.lines_cleared, f.level_up);
    kind.soft_drop = f.hold_down_points >= 2;  // (its points leave kSoftDropScore from 999 999)
    kind.piece_sooner = locked_piece_sooner(f.piece);
    kind.row5_first = f.row5_first_block;
    if (kind.soft_drop && f.score != kSoftDropScore) return std::nullopt;
    return kind;
}

AiGameTimes trace_ai_game_locks(std::span<const uint8_t> patched_rom, const CartImage& cart, const MenuWalk& walk,
                                uint64_t frames, std::optional<ModelStart> start) {
    // The AI's code and tables, in ROM and in PRG-RAM: an NMI there is an NMI in the idle time.
    std::vector<std::pair<uint16_t, uint16_t>> ai_code;
    for (const CartSegment& seg : cart.segments)
        if (!seg.bytes.empty())
            ai_code.emplace_back(seg.address, static_cast<uint16_t>(seg.address + seg.bytes.size()));
    const auto in_idle = [&](uint16_t pc) {
        if (pc >= tetris::game_waitForVblank && pc < tetris::game_waitForVblank_loop + 5) return true;
        for (const auto& [first, end] : ai_code)
            if (pc >= first && pc < end) return true;
        return false;
    };
    emu::Nes nes(patched_rom);
    AiRestart restart(cart);
    begin_ai_game(nes, walk, restart, start);
    DispatchWatch dispatch;
    AiGameTimes out;
    uint64_t last_nmi = 0, loop_start = 0;
    std::optional<ScoringFrame> frame;  // the scoring frame being traced
    std::array<uint8_t, kCpuRamSize> at_nmi{};
    nes.set_instruction_hook([&](const emu::Nes& n) {
        const uint16_t pc = n.cpu().pc();
        const uint64_t c = n.cycles();
        restart.on_instruction(nes, n);
        if (out.crashed) return;
        dispatch.on_instruction(n);
        if (!is_game_code(pc) || dispatch.astray()) {  // RAM, or a dispatch gone astray (DispatchWatch)
            out.crashed = true;
            out.crash_pc = !is_game_code(pc) ? pc : 0;
            out.crash_detail = !is_game_code(pc) ? "the CPU ran RAM at " + hex(pc, 4) : *dispatch.astray();
            if (frame) frame->crashed = true;
        } else if (pc == tetris::game_nmi) {
            const uint16_t ret = n.interrupted_pc();
            if (n.read_ram(tetris::gameMode) == tetris::GAME_MODE_PLAY && !in_idle(ret))
                out.lags.push_back({out.frames_run, n.read_ram(tetris::player1_playState),
                                    n.read_ram(tetris::player1_levelNumber), ret});
            if (frame && loop_start) {
                frame->landed.push_back({c - emu::Nes::kInterruptCycles - last_nmi, ret});
            } else {
                last_nmi = c - emu::Nes::kInterruptCycles;
                std::copy(n.ram().begin(), n.ram().end(), at_nmi.begin());
            }
        } else if (pc == kAddLineClearPoints && !loop_start && n.read_ram(tetris::player1_playState) == tetris::PLAY_STATE_UPDATE_LINES &&
                   n.read_ram(tetris::gameMode) == tetris::GAME_MODE_PLAY) {
            loop_start = c;
            ScoringFrame f;
            // The loop reads the active copy of the level, which the lines loop may just have raised.
            f.level = n.read_ram(tetris::levelNumber);
            f.level_up = f.level != at_nmi[tetris::levelNumber];
            f.lines_cleared = n.read_ram(tetris::completedLines);
            f.hold_down_points = n.read_ram(tetris::holdDownPoints);
            f.allegro = at_nmi[tetris::allegro];
            f.lines = {at_nmi[tetris::lines], at_nmi[tetris::lines + 1]};
            f.preview_shown = at_nmi[tetris::displayNextPiece] == 0;
            f.vram_row = at_nmi[tetris::vramRow];
            f.piece = at_nmi[tetris::currentPiece];
            f.piece_x = at_nmi[tetris::tetriminoX];
            f.piece_y = at_nmi[tetris::tetriminoY];
            f.next_piece = at_nmi[tetris::nextPiece];
            f.row5_first_block = row5_first_block(at_nmi.data() + tetris::playfield);
            f.score = {n.read_ram(tetris::score), n.read_ram(static_cast<uint16_t>(tetris::score + 1)),
                       n.read_ram(static_cast<uint16_t>(tetris::score + 2))};
            f.pre = c - last_nmi;
            frame = f;
        } else if (pc == kScoreLoopDone && frame && loop_start && frame->loop == 0) {
            frame->loop = c - loop_start;
        } else if (pc == tetris::game_switchWindowFirst && frame && frame->loop && frame->landed.empty()) {
            frame->dispatch_windows.push_back(c - loop_start - frame->loop);
        } else if (pc == tetris::game_waitForVblank_loop) {  // (after the music engine's turn)
            if (frame && frame->loop) {
                out.frames.push_back(*frame);
                frame.reset();
                loop_start = 0;
            }
        }
    });
    for (; out.frames_run < frames && !out.crashed; ++out.frames_run) {
        nes.run_frame();
        if (nes.read_ram(tetris::player1_playState) == tetris::PLAY_STATE_CURTAIN) {
            out.end = AiGameTimes::End::Curtain;
            break;
        }
        if (nes.read_ram(tetris::gameMode) != tetris::GAME_MODE_PLAY) {
            out.crashed = true;  // out of play without the curtain: the game was thrown out
            break;
        }
    }
    if (out.crashed) out.end = AiGameTimes::End::Crash;
    if (frame) out.frames.push_back(*frame);
    out.lines = lines_made(nes.read_ram(tetris::lines), nes.read_ram(tetris::lines + 1));
    out.level = nes.read_ram(tetris::player1_levelNumber);
    return out;
}

}  // namespace nestris::game
