// The real game in the emulator, original and patched, for the proofs of the game hooks
// (tests/game) and the tools that measure them. This header holds what they all share: the two
// ROMs, where the game's code is, the watch on its lag NMIs and jump-table dispatch, and the menu
// walk that starts a game. The rest has a header each: the seeded driver that plays through every
// screen (game_driver.hpp), the access trace (access_trace.hpp), the frame-by-frame comparison of
// the two ROMs (identity.hpp), model-made starts (model_start.hpp), the AI's games against the
// cartridge in the loop (ai_game_loop.hpp) and on the original (ai_game_original.hpp), and the
// patched ROM without the AI's crash rule (crash_rule_rom.hpp).
//
// Everything here needs the user's own Tetris (USA); nothing of the game is stored.
#pragma once

#include "ai-reference/model/game_model.hpp"
#include "emu-test/nes.hpp"
#include "game/tetris_map.hpp"
#include "patcher/cart_image.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <string>
#include <vector>

namespace nestris::game {

// The game's addresses and modes are tetris:: (tetris_map.hpp, generated from game/tetris.inc);
// this is the one address of the cartridge's own the harness reads: its mode byte (hooks::AI_MODE_*:
// a person, the demo, an AI game, the coach), from the shipped cartridge's labels.
uint16_t ai_mode_address();
// Is pc code of the patched game: PRG ROM ($8000-$FFFF), or the AI's code that the legal screen
// unpacked into PRG-RAM (the shipped cartridge's PRG_RAM_CODE, as far as it is used)? Anywhere
// else the CPU runs a jump gone astray (the high levels' crash, ai-reference/MODEL.md "Time").
// (Inline, the range found once: the harnesses ask it of every instruction the game runs.)
std::pair<uint16_t, uint32_t> ram_code_range();  // [first, end) of PRG_RAM_CODE's used part
inline bool is_game_code(uint16_t pc) {
    if (pc >= 0x8000) return true;
    static const std::pair<uint16_t, uint32_t> ram_code = ram_code_range();
    return pc >= ram_code.first && pc < ram_code.second;
}

// The user's original ROM and the same ROM patched with this build's cartridge.
struct GameRoms {
    std::vector<uint8_t> original;
    std::vector<uint8_t> patched;
};
// Throws std::runtime_error if `file` is not Tetris (USA) (any header or none).
GameRoms make_game_roms(std::span<const uint8_t> file, const CartImage& cart);

// ---- lag frames ---------------------------------------------------------------------------
// Counts in `lag` an NMI that landed in a frame's work, the machine standing at the NMI handler's
// first instruction: where in the work it landed (step_with_lag's zones: gameModeState 6 and 7
// `reached` or not, the pause's start), and whether on the player's save's store of vramRow.
void count_lag_nmi(LagNmis& lag, const emu::Nes& at_nmi, bool reached_state6, bool reached_state7);

// The game's jump-table dispatch (switch_s_plus_2a), watched: the entry its table gives for A,
// against where its jmp (tmp1) goes. An NMI between the dispatch's pulls and its jmp leaves tmp1
// and tmp2 as its own dispatch rewrote them, and the jmp goes astray: into RAM (a crash), or
// into the game's code elsewhere (traced: `nestris-ai fidelity --games 0 --stacked 1
// --stacked-levels 254 --max-score --seed 4154`, an NMI at $AC89 in gameModeState 8's dispatch
// sent the game into the legal screen's code at $8220, with gameModeState 8). Either way the
// game has left play: the harnesses end the game there as a crash.
class DispatchWatch {
public:
    void on_instruction(const emu::Nes& n) {  // (inline: every instruction comes here)
        const uint16_t pc = n.cpu().pc();
        if (pc == tetris::game_switchDispatch || pc == tetris::game_switchWindowLast) on_dispatch(n, pc);
    }
    // Where the first dispatch that went astray went, said for people; nothing until one did.
    const std::optional<std::string>& astray() const { return astray_; }

private:
    void on_dispatch(const emu::Nes& n, uint16_t pc);
    std::vector<uint16_t> expected_;  // nested: an NMI's dispatch inside the main loop's
    std::optional<std::string> astray_;
};

// A frame whose work outlasts this many NMIs is a freeze (a crash). Not fewer: a lag NMI in the
// sprite loader (MODEL.md "Time") makes it read RAM until a $FF record, which frameCounter
// becomes within 256 frames: a stall of up to 256 frames, after which the game goes on.
inline constexpr uint64_t kFreezeFrames = 300;

// ---- the menus as a player walks them ------------------------------------------------------
// The longest extra wait on the legal screen after which the walk still starts the game it
// describes: from 226 its presses land elsewhere (at 226: a person's game at level 0, paused,
// which a tool would run for its frames as an AI game that never scores). Measured.
inline constexpr int kMaxTitleWait = 225;
struct MenuWalk {
    int level = 19;          // 0-19 (10-19: A held at Start)
    bool b_type = false;
    int height = 0;          // B-Type start height 0-5
    bool ai = true;          // Select held at Start: the AI plays
    int title_wait = 0;      // extra frames on the legal screen (another RNG state, other pieces)
    bool coach = false;      // B held at Start (pressed with A first): a person's game with the
                             // coach's ghost (not with ai)
    bool hate = false;       // hate mode, the cartridge's worst piece: with ai, B held too
                             // (pressed after Select); with coach, Select too (after B)
};
// The emu-test input string from power-on: legal screen, title, game type, level (and height),
// then Start (with Select held for an AI game, Select then B for hate mode, B for a coach game,
// A held for levels 10-19), and let go.
std::string menu_walk_input(const MenuWalk& walk);
// The RNG's seed (rngSeed, big endian), as the harnesses print it at a game's start: games from
// different seeds are dealt different pieces (tools/scripts/rebirth-protocol.sh tells them apart).
inline uint16_t rng_seed(const emu::Nes& nes) {
    return static_cast<uint16_t>(nes.read_ram(tetris::rngSeed) << 8 | nes.read_ram(tetris::rngSeed + 1));
}

}  // namespace nestris::game
