// The coach game of coach_run.hpp.
#include "tools/harness/coach_run.hpp"

#include "ai-reference/ai/ai_player.hpp"
#include "ai-reference/model/ram_map.hpp"
#include "hooks_map.hpp"
#include "tetris_map.hpp"

#include <stdexcept>

namespace nestris::game {

namespace {

// The coach's bytes the harness reads, by their labels in the shipped cartridge.
struct CoachLabels {
    uint16_t ai_mode, cur_id, ghost_cell0, ghost_x, ghost_y, published;
    explicit CoachLabels(const CartImage& cart)
        : ai_mode(ai_mode_address()), cur_id(cart.require("cur_id")), ghost_cell0(cart.require("ghost_cell0")), ghost_x(cart.require("ghost_x")),
          ghost_y(cart.require("ghost_y")), published(cart.require("ai_task_main::published")) {}
};

constexpr uint8_t kOrientationBytes = tetris::ORIENTATION_SIZE;

}  // namespace

CoachGame run_coach_game(const GameRoms& roms, const CartImage& cart, const MenuWalk& walk, Player& player,
                         uint64_t frames) {
    if (!walk.coach || walk.ai) throw std::invalid_argument("run_coach_game: the walk must start a coach game");
    const CoachLabels at(cart);
    emu::Nes nes(roms.patched);
    nes.run_input(menu_walk_input(walk));
    if (nes.read_ram(at.ai_mode) != hooks::AI_MODE_COACH)
        throw std::runtime_error("the menu walk did not start a coach game (ai_mode " +
                                 std::to_string(nes.read_ram(at.ai_mode)) + ")");

    // The task reaching ai_task_main::published for the piece on screen: its decision is out.
    uint64_t frame = 0;
    int64_t published_frame = -1;
    nes.set_instruction_hook([&](const emu::Nes& n) {
        if (n.cpu().pc() == at.published && n.read_ram(at.cur_id) == n.read_ram(tetris::spawnCount))
            published_frame = static_cast<int64_t>(frame);
    });

    CoachGame g;
    const uint64_t lag_before = nes.lag_frames();
    bool active = false;
    uint8_t piece_id = 0;
    uint64_t spawn_frame = 0;
    ai::Target reference{};
    bool reference_found = false;
    for (; frame < frames; ++frame) {
        // The player sees the frames the model can read (play); between them (the game's own
        // screens: the start of a game, line clears' busy frames) it holds nothing, as the
        // harness's driver does.
        uint8_t pad = 0;
        try {
            pad = pad_from_game(player.buttons(view_of(from_ram(std::span<const uint8_t, kCpuRamSize>(nes.ram().data(), kCpuRamSize)))));
        } catch (const std::exception&) {
            pad = 0;
        }
        nes.set_buttons(pad);
        nes.run_frame();
        ++g.frames;

        const uint8_t play_state = nes.read_ram(tetris::playState);
        if (play_state == tetris::PLAY_STATE_CURTAIN) {
            g.topped_out = true;
            break;
        }
        const uint8_t id = nes.read_ram(tetris::spawnCount);
        const bool now_active = play_state == tetris::PLAY_STATE_ACTIVE &&
                                nes.read_ram(tetris::currentPiece) < tetris::PIECE_NONE;
        if (now_active && (!active || id != piece_id)) {  // a piece spawned this frame
            piece_id = id;
            spawn_frame = frame;
            published_frame = published_frame >= 0 && nes.read_ram(at.cur_id) == id ? published_frame : -1;
            const PlayerView seen = view_of(from_ram(std::span<const uint8_t, kCpuRamSize>(nes.ram().data(), kCpuRamSize)));
            // (a frame with a piece under control is one from_ram reads: it throws only on a bad state)
            const ai::Decision d = ai::decide(seen, (seen.autorepeatY & 0x80) != 0, nes.read_ram(tetris::gameType) != 0,
                                              ai::default_tables());
            reference_found = d.chosen.has_value();
            reference = d.target();
            CoachPiece p;
            p.level = nes.read_ram(tetris::levelNumber);
            g.pieces.push_back(p);
        }
        if (now_active && !g.pieces.empty()) {
            CoachPiece& p = g.pieces.back();
            const int since = static_cast<int>(frame - spawn_frame);
            const bool shown = ghost_slots_used(nes);  // (coach_ghost stages only a plan for the piece on screen)
            if (shown && p.first_ghost < 0) p.first_ghost = since;
            if (published_frame >= static_cast<int64_t>(spawn_frame) && !p.searched) {
                p.searched = true;
                p.full_published = static_cast<int>(published_frame - static_cast<int64_t>(spawn_frame));
                p.equals_reference = reference_found &&
                                     nes.read_ram(at.ghost_cell0) == reference.orientation * kOrientationBytes &&
                                     nes.read_ram(at.ghost_x) == reference.x &&
                                     static_cast<int8_t>(nes.read_ram(at.ghost_y)) == reference.landing_y;
                if (!p.equals_reference && g.first_difference.empty())
                    g.first_difference =
                        "piece " + std::to_string(g.pieces.size()) + " (level " + std::to_string(p.level) +
                        "): the ghost is orientation " + std::to_string(nes.read_ram(at.ghost_cell0) / kOrientationBytes) +
                        ", column " + std::to_string(nes.read_ram(at.ghost_x)) + ", row " +
                        std::to_string(static_cast<int8_t>(nes.read_ram(at.ghost_y))) + "; the reference's " +
                        (reference_found ? "orientation " + std::to_string(reference.orientation) + ", column " +
                                               std::to_string(reference.x) + ", row " + std::to_string(reference.landing_y)
                                         : std::string("none (nothing reachable)"));
            }
            if (p.searched && shown && p.full_ghost < 0) p.full_ghost = since;
        }
        if (active && !now_active && !g.pieces.empty()) {  // it locked (or the game left play)
            CoachPiece& p = g.pieces.back();
            p.followed = p.searched && nes.read_ram(tetris::currentPiece) * kOrientationBytes == nes.read_ram(at.ghost_cell0) &&
                         nes.read_ram(tetris::tetriminoX) == nes.read_ram(at.ghost_x) &&
                         nes.read_ram(tetris::tetriminoY) == nes.read_ram(at.ghost_y);
        }
        active = now_active;
    }
    g.lag_frames = nes.lag_frames() - lag_before;
    g.lines = lines_made(nes.read_ram(tetris::lines), nes.read_ram(tetris::lines + 1));
    return g;
}

}  // namespace nestris::game
