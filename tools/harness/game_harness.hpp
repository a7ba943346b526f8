// The real game in the emulator, original and patched, for the proofs of the game hooks
// (tests/game) and the tools that measure them: a seeded driver that plays through every screen
// like a restless person, an access trace that sees every read, write and execute of chosen
// addresses, and the frame-by-frame comparison of the two ROMs.
//
// Everything here needs the user's own Tetris (USA); nothing of the game is stored.
#pragma once

#include "patcher/cart_image.hpp"
#include "ai-reference/model/frame_time.hpp"
#include "emu-test/nes.hpp"
#include "generated/tetris_map.hpp"

#include <array>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <tuple>
#include <vector>

namespace nestris::ai {
class AiPlayer;
}

namespace nestris::game {

// The game's addresses and modes are tetris:: (tetris_map.hpp, generated from asm/tetris.inc);
// this is the one address of the cartridge's own the harness reads: its mode byte (hooks::AI_MODE_*:
// a person, the demo, an AI game, the coach), from the shipped cartridge's labels.
uint16_t ai_mode_address();
// Is pc code of the patched game: PRG ROM ($8000-$FFFF), or the AI's code that the legal screen
// unpacked into PRG-RAM (the shipped cartridge's PRG_RAM_CODE, as far as it is used)? Anywhere
// else the CPU runs a jump gone astray (the high levels' crash, ai-reference/MODEL.md "Time").
bool is_game_code(uint16_t pc);

// The user's original ROM and the same ROM patched with this build's cartridge.
struct GameRoms {
    std::vector<uint8_t> original;
    std::vector<uint8_t> patched;
};
// Throws std::runtime_error if `file` is not Tetris (USA) (any header or none).
GameRoms make_game_roms(std::span<const uint8_t> file, const CartImage& cart);

// ---- the driver ----------------------------------------------------------------------------
// Controller bits (emu::button) from the game's button byte (A = $80 ... Right = $01).
uint8_t pad_from_game(uint8_t game_buttons);

struct DriverOptions {
    uint64_t seed = 1;
    bool watch_demo = false;      // now and then leave the title alone until the demo starts
    bool select_in_level_menu = false;  // hold Select at Start in the level menu (an AI game)
    bool coach_in_level_menu = false;   // hold B at Start in the level menu (a coach game): A and B
                                        // pressed together first (B alone goes back), with A still
                                        // held at Start now and then (+10)
    int give_up_min = 10;         // pieces the driver plays well before it lets a game top out
    int give_up_max = 60;
    int junk_piece_percent = 10;  // pieces played with random buttons instead of well
};

// What to press in the coming frame, from the RAM of the machine it plays (call between
// frames). Menus: random moves, then Start (the level menu: A held at Start now and then, for
// +10). Play: the reference AI places most pieces; some get random buttons; it pauses, toggles
// the preview, holds Right+Left+Down, now and then resets with A+B+Select+Start; after a random
// number of pieces it plays junk until the game tops out, waits for the curtain and presses
// Start; high-score entry gets random letters. Deterministic for a seed.
class GameDriver {
public:
    explicit GameDriver(DriverOptions options);
    ~GameDriver();
    GameDriver(GameDriver&&) noexcept;
    GameDriver& operator=(GameDriver&&) noexcept;
    uint8_t next(const emu::Nes& nes);

    // What the driver saw, for reports.
    struct Stats {
        uint64_t games = 0, b_type_games = 0, pauses = 0, resets = 0, demos = 0,
                 curtains = 0, max_level = 0, high_score_entries = 0, endings = 0;
        uint64_t max_lines = 0;
    };
    const Stats& stats() const { return stats_; }

private:
    uint32_t roll(uint32_t n);  // 0..n-1
    void press(uint8_t b, uint8_t held = 0);  // queues released, pressed, released frames
    uint8_t menu(uint8_t mode, const emu::Nes& nes);
    uint8_t play(const emu::Nes& nes);

    DriverOptions options_;
    std::mt19937_64 rng_;
    Stats stats_;
    uint8_t last_mode_ = 0xFF;
    uint64_t in_mode_ = 0;       // frames since the game mode changed
    uint64_t plan_frame_ = 0;    // menus: the frame at which to press Start
    bool wait_for_demo_ = false;
    int menu_moves_ = 0;
    // play
    std::unique_ptr<ai::AiPlayer> ai_;
    int pieces_ = 0, give_up_at_ = 0;
    bool junk_piece_ = false;
    uint8_t last_play_state_ = 0, last_render_mode_ = 0;
    uint64_t wait_ = 0;          // frames to wait before the next special press
    uint8_t held_ = 0;
    std::deque<uint8_t> script_;  // buttons of the coming frames, before anything else
};

// ---- the access trace ----------------------------------------------------------------------
enum AccessKind : uint8_t { kExecute = 1, kRead = 2, kWrite = 4 };
std::string access_kind_name(uint8_t kind);

struct WatchedRange {
    uint16_t first = 0, last = 0;  // inclusive CPU addresses (RAM: $0000-$07FF, no mirrors)
    std::string name;
};

// The accesses of one instruction (pc) of one kind to one watched range, in one game situation.
struct AccessSite {
    std::string range;
    uint16_t pc = 0;
    uint8_t kind = 0;
    uint8_t game_mode = 0, game_mode_state = 0, play_state = 0;
    uint16_t lowest = 0xFFFF, highest = 0;  // addresses touched
    uint64_t count = 0, first_frame = 0;
    std::string describe() const;
};

// Decodes every instruction before it runs (operand bytes, effective address from the
// registers and memory, as the CPU will use them; OAM DMA pages) and records each access to a
// watched address: instruction fetches (every byte of the instruction) as execute, operand
// reads and writes, pointer reads of indirect modes, the read-modify-write of INC/ASL/...
// (both a read and a write). The emulator makes no dummy reads, and neither does the trace.
// Writes to $8000-$FFFF go to the MMC1's registers, whatever the ROM holds there: they are
// counted apart (mapper_writes), not as accesses to ROM bytes.
//
// Entry checks: for a span of code, every instruction inside it that follows one outside it
// must be one of the allowed entry points, or follow an RTS/RTI (a return into the span, or
// the end of an interrupt that came while it ran); anything else (a jump, branch or fall into
// the span from outside) is recorded as a foreign entry.
struct EntryCheck {
    uint16_t first = 0, last = 0;
    std::vector<uint16_t> allowed;
    std::string name;
};
struct ForeignEntry {
    std::string span;
    uint16_t from = 0, to = 0;
    uint64_t count = 0, first_frame = 0;
};

class AccessTrace {
public:
    explicit AccessTrace(std::vector<WatchedRange> watched, std::vector<EntryCheck> entries = {});
    // Installs the trace as the machine's instruction hook (replacing any other).
    void attach(emu::Nes& nes);
    void on_instruction(const emu::Nes& nes);
    std::vector<AccessSite> sites() const;
    std::vector<ForeignEntry> foreign_entries() const;
    // The kinds of access (AccessKind bits) seen at a watched address, over the whole run.
    uint8_t touched(uint16_t addr) const { return touched_[addr]; }
    uint64_t instructions() const { return instructions_; }
    uint64_t mapper_writes() const { return mapper_writes_; }

private:
    void touch(const emu::Nes& nes, uint16_t addr, uint8_t kind);
    std::vector<WatchedRange> ranges_;
    std::vector<uint8_t> range_of_;  // 64 KiB: index + 1 of the range holding the address, 0 none
    std::vector<uint8_t> touched_;   // 64 KiB: AccessKind bits seen
    std::map<std::tuple<uint8_t, uint16_t, uint8_t, uint8_t, uint8_t, uint8_t>, AccessSite> sites_;
    std::vector<EntryCheck> entries_;
    std::vector<uint8_t> span_of_;   // 64 KiB: index + 1 of the entry-checked span, 0 none
    std::map<std::pair<uint16_t, uint16_t>, ForeignEntry> foreign_;
    uint16_t prev_pc_ = 0;
    uint8_t prev_opcode_ = 0;
    uint64_t instructions_ = 0, mapper_writes_ = 0;
};

// ---- identity of the original and the patched game -----------------------------------------
// RAM the comparison leaves out: the bytes the AI owns, and the stack below the original's
// stack pointer (dead bytes; the hooks call one level deeper, so their garbage differs).
struct RamExclusions {
    std::vector<std::pair<uint16_t, uint16_t>> ranges;  // inclusive
};
RamExclusions ai_owned_ram(const CartImage& cart);

// The first difference between the two machines after a frame, if any: RAM outside the
// exclusions and the stack, and the PPU writes of the frame (register, value and VRAM address
// of each, in order; the position in the frame is not compared) once the level-menu hint's
// writes are taken out of the patched machine's log.
// One frame's own leave-outs (a coach run's, run_identity): RAM ranges, and bits of single bytes.
struct FrameMasks {
    std::vector<std::pair<uint16_t, uint16_t>> ranges;  // inclusive
    std::vector<std::pair<uint16_t, uint8_t>> bits;     // (address, the bits left out)
};
// Does the OAM staging page hold a sprite in the coach's ghost slots (from hooks::GHOST_OAM to
// the page's end: a byte there not $FF)?
bool ghost_slots_used(const emu::Nes& nes);
// The coach's sprites (the grade's, hooks::GRADE_OAM to the ones' slot, and the ghost's, GHOST_OAM
// to the page's end) as a leave-out, where the original has no sprite in either: the coach draws
// only where the game draws nothing.
FrameMasks ghost_masks(const emu::Nes& original);
std::optional<std::string> compare_frame(const emu::Nes& original, const emu::Nes& patched,
                                         const RamExclusions& exclusions,
                                         std::span<const emu::PpuWrite> original_writes,
                                         std::vector<emu::PpuWrite> patched_writes,
                                         const CartImage& cart, const FrameMasks& masks = {});

struct IdentityResult {
    uint64_t frames = 0;
    uint64_t compared_frames = 0;  // frames at whose end both games waited for the NMI
    uint64_t ppu_writes = 0;
    std::optional<std::string> mismatch;  // the first one; the run stops there
    GameDriver::Stats stats;
    std::map<uint8_t, uint64_t> frames_per_mode;
    uint64_t coach_frames = 0;     // frames at whose end the patched game was in a coach game
    uint64_t ghost_frames = 0;     // of the compared frames, those with the ghost's sprites staged
    uint64_t coach_plus_10 = 0;    // Starts with A and B held (+10 coach games; the original's without B)
};
// Runs both ROMs from power-on for `frames` frames with the driver's buttons (decided on the
// original) and compares them after every frame.
// buttons_out, if given, receives the pad of every frame (to replay the movie elsewhere).
// With options.coach_in_level_menu the patched game plays coach games (the driver's pads; it
// plays them as it plays on the original, so it places most pieces where the coach's ghost is)
// and the original the same games started without the coach: on a Start with A and B held in
// the level menu (a coach game at +10) the original's pad leaves B out until B is let go (on
// the original A+B+Start is no +10). Then, and in the frame after, the controller's bytes are
// compared without the B bit; and the coach's sprites (the grade's and the ghost's slots) are left
// out where the original has no sprite there (its bytes all $FF).
// original_buttons_out: the original's pads (the same but for a +10 coach game's Start).
IdentityResult run_identity(const GameRoms& roms, const CartImage& cart, const DriverOptions& options,
                            uint64_t frames, std::vector<uint8_t>* buttons_out = nullptr,
                            std::vector<uint8_t>* original_buttons_out = nullptr);

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
    void on_instruction(const emu::Nes& n);
    // Where the first dispatch that went astray went, said for people; nothing until one did.
    const std::optional<std::string>& astray() const { return astray_; }

private:
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
};
// The emu-test input string from power-on: legal screen, title, game type, level (and height),
// then Start (with Select held for an AI game, B for a coach game, A held for levels 10-19), and
// let go.
std::string menu_walk_input(const MenuWalk& walk);

// ---- an AI game on the real ROM against the cartridge in the loop --------------------------
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
    uint32_t real_fallbacks = 0;       // pieces the real game gave the best of an unfinished search
    uint32_t loop_fallbacks = 0;       // the same in the loop
    uint32_t pieces_29 = 0, fallbacks_29 = 0;  // of those, at level 29 and above (a row a frame)
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
// A game from a model-made state: at its first frame of play, `level`, score 999 999, a stack 8
// rows high from `seed` (high_level_state below) and `lines` (BCD, as the game keeps it), written
// into the game's RAM; the AI starts over there, on that board (AiRestart).
struct ModelStart {
    uint8_t level = 0;
    uint64_t seed = 0;
    std::array<uint8_t, 2> lines{};
};
// Game i of a run of games from model-made states from level count `from_level` (100-510): level
// count L + (37 i mod (last + 1 - L)), its stack from seed first_seed + i. Up to 255 (last 255)
// the lines counter is 0; past 255 (last 511) the level is the count's low byte, after the
// rebirth, with the lines of a game from level 19 when it first reached that count
// (first_reaching). `name`: ", from level ..., seed ...", for people.
inline constexpr int kLastLevelPastRebirth = 511;
struct NamedModelStart {
    ModelStart start;
    std::string name;
};
NamedModelStart model_start_of_game(int from_level, uint64_t first_seed, uint64_t i);
// "L-255 (model-made states)" or "L-511 (model-made states, past the rebirth)".
std::string model_start_levels(int from_level);
// With `start`, the game goes on from a model-made state, and the loop starts from it.
AiGameComparison compare_ai_game_with_loop(std::span<const uint8_t> patched_rom, const CartImage& cart,
                                           const MenuWalk& walk, uint64_t max_frames,
                                           std::optional<ModelStart> start = std::nullopt);
// The AI starts over after a harness wrote another state into the game's RAM, as at a game's
// start: its driver at once (drv_active, drv_held 0, as the NMIs between games leave them), its
// task when ai_idle next begins (last_mode 0: the AI just switched on; written there, since the
// wait under way stores last_mode). on_instruction goes in the machine's instruction hook.
class AiRestart {
public:
    explicit AiRestart(const CartImage& cart);
    void arm(emu::Nes& patched);
    void on_instruction(emu::Nes& patched, const emu::Nes& n);

private:
    uint16_t idle_entry_, last_mode_, drv_active_, drv_held_;
    bool armed_ = false;
};

// ---- an AI game of the patched game replayed on the original --------------------------------
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
// A model-made state at a high level from the game's state at its first frame of play: the
// start's level and lines, score 999 999, a stack 8 rows high with one gap a row (from its seed).
GameState high_level_state(GameState at_start, const ModelStart& start);
// The machines (the first one's game decides) run on, no buttons, to the first frame boundary of
// play, where high_level_state goes into each; returns it.
GameState start_from_model_state(std::initializer_list<emu::Nes*> machines, const ModelStart& start);
// Human play at a high level on both games: the same menu walk (no Select), then at the first
// frame of play a model-made state written into both (`level`, score 999 999, a stack 8 rows
// high), then the same random movie (make_random_movie, `seed`) on both, compared as above, their
// lag NMIs too: a frame lagging on the patched game only is lag the patch's hooks caused.
// coach: the patched game's is a coach game (its chord without A in the walk, the same presses as
// a plain Start on the original), the ghost's sprites left out where the original has none.
AiGameOnOriginal compare_high_level_play_with_original(const GameRoms& roms, const CartImage& cart, uint8_t level,
                                                       uint64_t seed, uint64_t max_frames, bool coach = false);
// The cartridge's tables of the AI's crash rule (ai_crash_rule.hpp): symbol, bytes, and the value
// without_crash_rule writes into each byte (none: left as it is).
struct CrashRuleTable {
    const char* symbol;
    std::size_t size;
    std::optional<uint8_t> without_rule;
};
const std::array<CrashRuleTable, 8>& crash_rule_tables();
// The patched ROM without the AI's crash rule (its ranges emptied: no lock barred, the preview
// never hidden; the high rows' top-out stays): the AI of before issue 30, whose long games crash
// the game (for the proofs on crashing games).
std::vector<uint8_t> without_crash_rule(std::span<const uint8_t> patched_rom, const CartImage& cart);

}  // namespace nestris::game
