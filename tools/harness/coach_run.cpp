// The coach game of coach_run.hpp.
#include "tools/harness/coach_run.hpp"
#include "tools/harness/game_driver.hpp"
#include "tools/harness/identity.hpp"

#include "ai-reference/ai/ai_coach.hpp"
#include "ai-reference/ai/ai_player.hpp"
#include "ai-reference/model/ram_map.hpp"
#include "game/hooks_map.hpp"
#include "game/tetris_map.hpp"

#include <deque>
#include <stdexcept>

namespace nestris::game {

namespace {

// The coach's bytes the harness reads, by their labels in the shipped cartridge.
struct CoachLabels {
    uint16_t ai_mode, cur_id, ghost_x, ghost_y, ghost_o, published, coach_ghost, plan_ok, plan_id, grade_total,
        grade_matched, grade_shown, class_lo, class_hi, class_shown, class_timer, grade_points, grade_tenths;
    explicit CoachLabels(const CartImage& cart)
        : ai_mode(ai_mode_address()), cur_id(cart.require("cur_id")), ghost_x(cart.require("ghost_x")),
          ghost_y(cart.require("ghost_y")), ghost_o(cart.require("ghost_o")),
          published(cart.require("ai_task_main::published")), coach_ghost(cart.require("coach_ghost")),
          plan_ok(cart.require("plan_ok")),
          plan_id(cart.require("plan_id")), grade_total(cart.require("grade_total")),
          grade_matched(cart.require("grade_matched")), grade_shown(cart.require("grade_shown")),
          class_lo(cart.require("class_lo")), class_hi(cart.require("class_hi")),
          class_shown(cart.require("class_shown")), class_timer(cart.require("class_timer")),
          grade_points(cart.require("grade_points")), grade_tenths(cart.require("grade_tenths")) {}
};

uint16_t read16(const emu::Nes& nes, uint16_t at) {
    return static_cast<uint16_t>(nes.read_ram(at) | nes.read_ram(static_cast<uint16_t>(at + 1)) << 8);
}

// What coach_ghost reads at the start of a frame's idle time: the plan's piece and the ghost's
// placement (taken at its entry: the task may publish after a frame's NMI, before the game's
// work, where a sample at the frame's end would miss it), and what it shows in the box.
struct GhostSeen {
    bool for_piece_on_screen = false;  // plan_ok is PLAN_OK and plan_id the piece's spawnCount
    bool gradable = false;             // and the ghost's column has no GHOST_NONE: not graded yet
    uint8_t x = 0, y = 0, orientation = 0;
    bool decided = false;              // the task had published the full search's decision for it
    GradeShown box;
    // The grade's counts as they stand between two frames' coach work (the task waits at a
    // yield; a sample at the frame's end may fall inside the task's division).
    uint16_t total = 0, matched = 0, points = 0, tenths = 0;
    std::array<uint16_t, ai::kLockClasses> classes{};
};

GhostSeen ghost_seen(const emu::Nes& nes, const CoachLabels& at) {
    GhostSeen g;
    g.for_piece_on_screen = nes.read_ram(at.plan_ok) == hooks::PLAN_OK &&
                            nes.read_ram(at.plan_id) == nes.read_ram(tetris::spawnCount);
    g.x = nes.read_ram(at.ghost_x);
    g.y = nes.read_ram(at.ghost_y);
    g.orientation = nes.read_ram(at.ghost_o);
    g.gradable = g.for_piece_on_screen && !(g.x & hooks::GHOST_NONE);
    g.box.shown = nes.read_ram(at.grade_shown);
    g.box.class_shown = nes.read_ram(at.class_shown);
    g.box.class_timer = nes.read_ram(at.class_timer);
    g.box.curtain = nes.read_ram(tetris::playState) == tetris::PLAY_STATE_CURTAIN;
    g.total = read16(nes, at.grade_total);
    g.matched = read16(nes, at.grade_matched);
    g.points = read16(nes, at.grade_points);
    g.tenths = read16(nes, at.grade_tenths);
    for (uint8_t c = 0; c < ai::kLockClasses; ++c)
        g.classes[c] = static_cast<uint16_t>(nes.read_ram(static_cast<uint16_t>(at.class_lo + c)) |
                                             nes.read_ram(static_cast<uint16_t>(at.class_hi + c)) << 8);
    return g;
}

// Where the frame's grade sprites differ from those for what the box showed, said.
std::optional<std::string> grade_sprites_differ(const emu::Nes& nes, const GradeShown& box) {
    const GradeOam want = expected_grade_oam(box);
    for (unsigned i = 0; i < want.size(); ++i) {
        const uint8_t got = nes.read_ram(static_cast<uint16_t>(tetris::oamStaging + hooks::CLASS_OAM + i));
        if (got != want[i])
            return "the grade's OAM byte " + std::to_string(hooks::CLASS_OAM + i) + " is " + std::to_string(got) +
                   ", not " + std::to_string(want[i]) + " (accuracy + 1: " + std::to_string(box.shown) +
                   ", class " + std::to_string(box.class_shown) + " for " + std::to_string(box.class_timer) + " frames)";
    }
    return std::nullopt;
}

// A lock the cartridge classes: the reference's grade, waiting for the cartridge's count to move.
struct ClassWanted {
    uint64_t lock_frame = 0;
    ai::CoachGrade grade;
};

// The search input at a spawn, and the next piece (shown or not), from the game's RAM.
struct SpawnSeen {
    ai::SearchInput in;
    uint8_t next_type = 0;
    bool preview_shown = false;
};

SpawnSeen spawn_seen(const emu::Nes& nes, const PlayerView& view) {
    SpawnSeen s;
    s.in.board = ai::board_of(view);
    s.in.piece_type = ai::type_of_orientation(view.currentPiece);
    s.in.level = ai::LevelState{view.levelNumber, view.lines_bcd[0], view.lines_bcd[1],
                                nes.read_ram(tetris::gameType) != 0};
    s.in.first_piece = (view.autorepeatY & 0x80) != 0;
    s.next_type = ai::type_of_orientation(nes.read_ram(tetris::nextPiece));
    s.preview_shown = nes.read_ram(tetris::displayNextPiece) == 0;
    return s;
}

}  // namespace

GradeOam expected_grade_oam(const GradeShown& box) {
    GradeOam want;
    want.fill(0xFF);
    auto stage = [&](unsigned slot, unsigned x, uint8_t tile) {
        uint8_t* sprite = &want[slot - hooks::CLASS_OAM];
        sprite[0] = hooks::GRADE_Y;
        sprite[1] = tile;
        sprite[2] = hooks::GRADE_ATTRIBUTES;
        sprite[3] = static_cast<uint8_t>(x);
    };
    auto label = [&](std::string_view text, unsigned x) {
        const std::vector<uint8_t> tiles = ai::label_tiles(text);
        for (unsigned i = 0; i < tiles.size(); ++i) stage(hooks::CLASS_OAM + 4 * i, x + 8 * i, tiles[i]);
    };
    if (box.class_timer) {
        label(ai::class_label(static_cast<ai::LockClass>(box.class_shown)), hooks::CLASS_X);
        return want;
    }
    if (!box.shown) return want;
    if (box.curtain) label(ai::kAccuracyLabel, hooks::ACCURACY_X);
    unsigned rest = box.shown - 1u;
    for (unsigned x = hooks::GRADE_ONES_X;; x -= 8) {
        stage(x, x, static_cast<uint8_t>(rest % 10));  // (tiles $00-$09: the digits)
        rest /= 10;
        if (rest == 0) return want;
    }
}

CartGrade read_cart_grade(const emu::Nes& nes, const CartImage& cart) {
    CartGrade g;
    g.total = read16(nes, cart.require("grade_total"));
    g.matched = read16(nes, cart.require("grade_matched"));
    const uint16_t lo = cart.require("class_lo"), hi = cart.require("class_hi");
    for (uint8_t c = 0; c < ai::kLockClasses; ++c)
        g.classes[c] = static_cast<uint16_t>(nes.read_ram(static_cast<uint16_t>(lo + c)) |
                                             nes.read_ram(static_cast<uint16_t>(hi + c)) << 8);
    const uint8_t shown = nes.read_ram(cart.require("grade_shown"));
    if (shown) g.accuracy = static_cast<uint8_t>(shown - 1);
    return g;
}

std::string describe_grade(const CartGrade& grade) {
    std::string s = std::to_string(grade.total) + (grade.total == 1 ? " lock" : " locks") + " graded, " +
                    std::to_string(grade.matched) + " where the ghost was";
    if (grade.total) s += " (" + std::to_string(ai::coach_share(grade.matched, grade.total)) + " %)";
    s += "; classes:";
    for (uint8_t c = 0; c < ai::kLockClasses; ++c)
        s += std::string(c ? "," : "") + " " + std::string(ai::class_name(static_cast<ai::LockClass>(c))) + " " +
             std::to_string(grade.classes[c]);
    s += grade.accuracy ? "; accuracy " + std::to_string(*grade.accuracy) + " %" : "; no accuracy yet (no lock classed)";
    return s;
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
    // coach_ghost's entry, the start of the coach's idle time: the ghost it reads, and whether the
    // decision for the piece came before (it may come in the frame the piece locks, before the
    // game's work: the task runs on after the NMI to its next yield).
    std::optional<GhostSeen> at_idle;
    int published_id = -1;
    nes.set_instruction_hook([&](const emu::Nes& n) {
        if (n.cpu().pc() == at.published && n.read_ram(at.cur_id) == n.read_ram(tetris::spawnCount)) {
            published_frame = static_cast<int64_t>(frame);
            published_id = n.read_ram(at.cur_id);
        }
        if (n.cpu().pc() == at.coach_ghost) {
            at_idle = ghost_seen(n, at);
            at_idle->decided = published_id == n.read_ram(tetris::spawnCount);
        }
    });

    CoachGame g;
    std::optional<SpawnSeen> spawn;  // the piece on screen's search input, at its spawn
    std::deque<ClassWanted> wanted;  // locks classed by the reference, not yet by the cartridge
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
        // The grade (AI_DESIGN.md "The coach's grade"), as coach_ghost found it at the start of
        // this frame's idle time: its sprites show what the box held; its counts are the
        // harness's to the end of the frame before, with the classes the cartridge has counted
        // since taken from the locks the reference classed, in order. Then this frame's lock of
        // a piece with a plan is counted, and matched when it is where the ghost was; when the
        // full search had decided it, the reference grades it (the cartridge counts the class
        // at once when matched, else at the next piece's spawn search).
        if (on_screen && at_idle && g.grade_difference.empty()) {
            if (auto d = grade_sprites_differ(nes, at_idle->box)) g.grade_difference = "frame " + std::to_string(frame) + ": " + *d;
            unsigned cart_classed = 0;
            for (uint16_t n : at_idle->classes) cart_classed += n;
            while (cart_classed > g.classed && !wanted.empty()) {
                const ClassWanted w = wanted.front();
                wanted.pop_front();
                const uint8_t c = static_cast<uint8_t>(w.grade.lock_class);
                ++g.classes[c];
                ++g.classed;
                g.points = static_cast<uint16_t>(g.points + ai::kClassPoints[c]);
                g.misses.push_back(w.grade.miss);
            }
            const unsigned want_shown = g.classed ? ai::coach_accuracy(g.points, g.classed) + 1u : 0u;
            std::string cart_text, want_text;
            for (uint8_t c = 0; c < ai::kLockClasses; ++c) {
                cart_text += (c ? "/" : "") + std::to_string(at_idle->classes[c]);
                want_text += (c ? "/" : "") + std::to_string(g.classes[c]);
            }
            if (g.grade_difference.empty() &&
                (at_idle->total != g.graded || at_idle->matched != g.matched || at_idle->classes != g.classes ||
                 at_idle->points != g.points || at_idle->tenths != 10u * g.classed || at_idle->box.shown != want_shown))
                g.grade_difference = "frame " + std::to_string(frame) + ": the cartridge's grade is " +
                                     std::to_string(at_idle->matched) + " of " + std::to_string(at_idle->total) +
                                     ", classes (best to blunder) " + cart_text + ", " + std::to_string(at_idle->points) +
                                     " points in " + std::to_string(at_idle->tenths) + " tenths (shown " +
                                     std::to_string(at_idle->box.shown) + "); the harness's " + std::to_string(g.matched) +
                                     " of " + std::to_string(g.graded) + ", " + want_text + ", " + std::to_string(g.points) +
                                     " points in " + std::to_string(10u * g.classed) + " tenths (shown " +
                                     std::to_string(want_shown) + ")";
        }
        if (on_screen && play_state == tetris::PLAY_STATE_LOCK && at_idle && at_idle->gradable) {
            if (!g.pieces.empty() && g.pieces.back().graded && g.grade_difference.empty())
                g.grade_difference = "frame " + std::to_string(frame) + ": a piece graded twice";
            ++g.graded;
            const ai::Target person{nes.read_ram(tetris::currentPiece), nes.read_ram(tetris::tetriminoX),
                                    static_cast<int8_t>(nes.read_ram(tetris::tetriminoY))};
            g.matched += person.x == at_idle->x && static_cast<uint8_t>(person.landing_y) == at_idle->y &&
                         person.orientation == at_idle->orientation;
            if (!g.pieces.empty()) {
                g.pieces.back().graded = true;
                if (at_idle->decided && spawn)
                    if (const auto grade = ai::grade_lock(spawn->in, spawn->next_type, spawn->preview_shown, person))
                        wanted.push_back({frame, *grade});
            }
        }
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
            spawn = spawn_seen(nes, seen);
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
    // (the last lock's class may still wait for a spawn search the run did not reach)
    if (g.grade_difference.empty() && wanted.size() > 1)
        g.grade_difference = std::to_string(wanted.size()) + " locks the reference classed, the cartridge did not";
    g.lag_frames = nes.lag_frames() - lag_before;
    g.lines = lines_made(nes.read_ram(tetris::lines), nes.read_ram(tetris::lines + 1));
    return g;
}

}  // namespace nestris::game
