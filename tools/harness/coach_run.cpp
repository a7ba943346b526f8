// The coach game of coach_run.hpp.
#include "tools/harness/coach_run.hpp"

#include "ai-reference/ai/ai_coach.hpp"
#include "ai-reference/ai/ai_player.hpp"
#include "ai-reference/model/ram_map.hpp"
#include "generated/hooks_map.hpp"
#include "generated/tetris_map.hpp"

#include <stdexcept>

namespace nestris::game {

namespace {

// The coach's bytes the harness reads, by their labels in the shipped cartridge.
struct CoachLabels {
    uint16_t ai_mode, cur_id, ghost_x, ghost_y, ghost_o, published, coach_ghost, plan_ok, plan_id, grade_total,
        grade_matched, grade_shown;
    explicit CoachLabels(const CartImage& cart)
        : ai_mode(ai_mode_address()), cur_id(cart.require("cur_id")), ghost_x(cart.require("ghost_x")),
          ghost_y(cart.require("ghost_y")), ghost_o(cart.require("ghost_o")),
          published(cart.require("ai_task_main::published")), coach_ghost(cart.require("coach_ghost")),
          plan_ok(cart.require("plan_ok")),
          plan_id(cart.require("plan_id")), grade_total(cart.require("grade_total")),
          grade_matched(cart.require("grade_matched")), grade_shown(cart.require("grade_shown")) {}
};

// What coach_ghost reads at the start of a frame's idle time: the plan's piece and the ghost's
// placement (taken at its entry: the task may publish after a frame's NMI, before the game's
// work, where a sample at the frame's end would miss it).
struct GhostSeen {
    bool for_piece_on_screen = false;  // plan_ok is PLAN_OK and plan_id the piece's spawnCount
    bool gradable = false;             // and the ghost's column has no GHOST_NONE: not graded yet
    uint8_t x = 0, y = 0, orientation = 0;
};

GhostSeen ghost_seen(const emu::Nes& nes, const CoachLabels& at) {
    GhostSeen g;
    g.for_piece_on_screen = nes.read_ram(at.plan_ok) == hooks::PLAN_OK &&
                            nes.read_ram(at.plan_id) == nes.read_ram(tetris::spawnCount);
    g.x = nes.read_ram(at.ghost_x);
    g.y = nes.read_ram(at.ghost_y);
    g.orientation = nes.read_ram(at.ghost_o);
    g.gradable = g.for_piece_on_screen && !(g.x & hooks::GHOST_NONE);
    return g;
}

uint16_t read16(const emu::Nes& nes, uint16_t at) {
    return static_cast<uint16_t>(nes.read_ram(at) | nes.read_ram(static_cast<uint16_t>(at + 1)) << 8);
}

// Where the frame's grade sprites differ from those for the share `shown`, said.
std::optional<std::string> grade_sprites_differ(const emu::Nes& nes, std::optional<uint8_t> shown) {
    const GradeOam want = expected_grade_oam(shown);
    for (unsigned i = 0; i < want.size(); ++i) {
        const uint8_t got = nes.read_ram(static_cast<uint16_t>(tetris::oamStaging + hooks::GRADE_OAM + i));
        if (got != want[i])
            return "the grade's OAM byte " + std::to_string(hooks::GRADE_OAM + i) + " is " + std::to_string(got) +
                   ", not " + std::to_string(want[i]) +
                   (shown ? " (the share " + std::to_string(*shown) + ")" : " (nothing graded yet)");
    }
    return std::nullopt;
}

}  // namespace

GradeOam expected_grade_oam(std::optional<uint8_t> shown) {
    GradeOam want;
    want.fill(0xFF);
    if (!shown) return want;
    unsigned rest = *shown;
    for (unsigned x = hooks::GRADE_ONES_X;; x -= 8) {
        uint8_t* sprite = &want[x - hooks::GRADE_OAM];
        sprite[0] = hooks::GRADE_Y;
        sprite[1] = static_cast<uint8_t>(rest % 10);  // (tiles $00-$09: the digits)
        sprite[2] = hooks::GRADE_ATTRIBUTES;
        sprite[3] = static_cast<uint8_t>(x);
        rest /= 10;
        if (rest == 0) return want;
    }
}

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
    // coach_ghost's entry, the start of the coach's idle time: the ghost it reads.
    std::optional<GhostSeen> at_idle;
    nes.set_instruction_hook([&](const emu::Nes& n) {
        if (n.cpu().pc() == at.published && n.read_ram(at.cur_id) == n.read_ram(tetris::spawnCount))
            published_frame = static_cast<int64_t>(frame);
        if (n.cpu().pc() == at.coach_ghost) at_idle = ghost_seen(n, at);
    });

    CoachGame g;
    const uint64_t lag_before = nes.lag_frames();
    bool active = false;
    uint8_t piece_id = 0;
    uint64_t spawn_frame = 0;
    ai::Target reference{};
    bool reference_found = false;
    for (; frame < frames; ++frame) {
        at_idle.reset();
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
        const bool on_screen = nes.read_ram(tetris::renderMode) == tetris::RENDER_MODE_PLAY;
        // The grade (AI_DESIGN.md "The coach's grade"): its sprites show the share as it was at
        // the frame's idle time; then a lock with a plan for its piece is counted, and matched
        // when it is where the ghost was.
        if (on_screen && at_idle && g.grade_difference.empty()) {
            const std::optional<uint8_t> shown =
                g.graded ? std::optional<uint8_t>(ai::coach_share(g.matched, g.graded)) : std::nullopt;
            if (auto d = grade_sprites_differ(nes, shown)) g.grade_difference = "frame " + std::to_string(frame) + ": " + *d;
        }
        if (on_screen && play_state == tetris::PLAY_STATE_LOCK && at_idle && at_idle->gradable) {
            if (!g.pieces.empty() && g.pieces.back().graded && g.grade_difference.empty())
                g.grade_difference = "frame " + std::to_string(frame) + ": a piece graded twice";
            if (!g.pieces.empty()) g.pieces.back().graded = true;
            ++g.graded;
            g.matched += nes.read_ram(tetris::tetriminoX) == at_idle->x &&
                         nes.read_ram(tetris::tetriminoY) == at_idle->y &&
                         nes.read_ram(tetris::currentPiece) == at_idle->orientation;
        }
        const unsigned cart_total = read16(nes, at.grade_total), cart_matched = read16(nes, at.grade_matched);
        const unsigned cart_shown = nes.read_ram(at.grade_shown);
        const unsigned want_shown = g.graded ? ai::coach_share(g.matched, g.graded) + 1u : 0u;
        if (g.grade_difference.empty() && (cart_total != g.graded || cart_matched != g.matched || cart_shown != want_shown))
            g.grade_difference = "frame " + std::to_string(frame) + ": the cartridge's grade is " +
                                 std::to_string(cart_matched) + " of " + std::to_string(cart_total) + " (shown " +
                                 std::to_string(cart_shown) + "), the harness's " + std::to_string(g.matched) + " of " +
                                 std::to_string(g.graded) + " (shown " + std::to_string(want_shown) + ")";
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
                p.equals_reference = reference_found && nes.read_ram(at.ghost_o) == reference.orientation &&
                                     nes.read_ram(at.ghost_x) == reference.x &&
                                     static_cast<int8_t>(nes.read_ram(at.ghost_y)) == reference.landing_y;
                if (!p.equals_reference && g.first_difference.empty())
                    g.first_difference =
                        "piece " + std::to_string(g.pieces.size()) + " (level " + std::to_string(p.level) +
                        "): the ghost is orientation " + std::to_string(nes.read_ram(at.ghost_o)) +
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
            p.followed = p.searched && at_idle && nes.read_ram(tetris::currentPiece) == at_idle->orientation &&
                         nes.read_ram(tetris::tetriminoX) == at_idle->x && nes.read_ram(tetris::tetriminoY) == at_idle->y;
        }
        active = now_active;
    }
    g.lag_frames = nes.lag_frames() - lag_before;
    g.lines = lines_made(nes.read_ram(tetris::lines), nes.read_ram(tetris::lines + 1));
    return g;
}

}  // namespace nestris::game
