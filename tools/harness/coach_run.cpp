// The coach game of coach_run.hpp.
#include "tools/harness/coach_run.hpp"
#include "tools/harness/game_driver.hpp"
#include "tools/harness/identity.hpp"

#include "ai-reference/ai/ai_coach.hpp"
#include "ai-reference/ai/ai_hate.hpp"
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
        grade_matched, grade_shown, class_lo, class_hi, class_shown, class_timer, grade_points, grade_tenths, hate_on,
        hate_for;
    explicit CoachLabels(const CartImage& cart)
        : ai_mode(ai_mode_address()), cur_id(cart.require("cur_id")), ghost_x(cart.require("ghost_x")),
          ghost_y(cart.require("ghost_y")), ghost_o(cart.require("ghost_o")),
          published(cart.require("ai_task_main::published")), coach_ghost(cart.require("coach_ghost")),
          plan_ok(cart.require("plan_ok")),
          plan_id(cart.require("plan_id")), grade_total(cart.require("grade_total")),
          grade_matched(cart.require("grade_matched")), grade_shown(cart.require("grade_shown")),
          class_lo(cart.require("class_lo")), class_hi(cart.require("class_hi")),
          class_shown(cart.require("class_shown")), class_timer(cart.require("class_timer")),
          grade_points(cart.require("grade_points")), grade_tenths(cart.require("grade_tenths")),
          hate_on(cart.require("hate_on")), hate_for(cart.require("hate_for")) {}
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

namespace {

// What the harness's count of the grade shows against the cartridge's, said (the frame, both
// counts, both classes best to blunder, both points and what each box shows).
std::string grade_counts_differ(uint64_t frame, const GhostSeen& cart, const CoachGame& g, unsigned want_shown) {
    std::string cart_text, want_text;
    for (uint8_t c = 0; c < ai::kLockClasses; ++c) {
        cart_text += (c ? "/" : "") + std::to_string(cart.classes[c]);
        want_text += (c ? "/" : "") + std::to_string(g.classes[c]);
    }
    return "frame " + std::to_string(frame) + ": the cartridge's grade is " + std::to_string(cart.matched) + " of " +
           std::to_string(cart.total) + ", classes (best to blunder) " + cart_text + ", " + std::to_string(cart.points) +
           " points in " + std::to_string(cart.tenths) + " tenths (shown " + std::to_string(cart.box.shown) +
           "); the harness's " + std::to_string(g.matched) + " of " + std::to_string(g.graded) + ", " + want_text + ", " +
           std::to_string(g.points) + " points in " + std::to_string(10u * g.classed) + " tenths (shown " +
           std::to_string(want_shown) + ")";
}

// A coach game under way: the patched game, what the instruction hook saw of the coach's task,
// and the harness's own account of the game (CoachGame), frame by frame.
class CoachRun {
public:
    CoachRun(const GameRoms& roms, const CartImage& cart, const MenuWalk& walk) : at_(cart), nes_(roms.patched) {
        nes_.run_input(menu_walk_input(walk));
        if (nes_.read_ram(at_.ai_mode) != hooks::AI_MODE_COACH)
            throw std::runtime_error("the menu walk did not start a coach game (ai_mode " +
                                     std::to_string(nes_.read_ram(at_.ai_mode)) + ")");
        nes_.set_instruction_hook([this](const emu::Nes& n) { watch_the_task(n); });
    }
    CoachRun(const CoachRun&) = delete;  // the hook holds `this`
    CoachRun& operator=(const CoachRun&) = delete;

    CoachGame play(Player& player, uint64_t frames) {
        const uint64_t lag_before = nes_.lag_frames();
        for (; frame_ < frames; ++frame_) {
            at_idle_.reset();
            nes_.set_buttons(pad_of(player));
            const uint8_t spawns_before = nes_.read_ram(tetris::spawnCount), hate_for = nes_.read_ram(at_.hate_for);
            nes_.run_frame();
            if (nes_.read_ram(at_.hate_on) && nes_.read_ram(tetris::spawnCount) != spawns_before)
                count_hate_spawn(hate_for);
            ++g_.frames;
            const uint8_t play_state = nes_.read_ram(tetris::playState);
            const bool on_screen = nes_.read_ram(tetris::renderMode) == tetris::RENDER_MODE_PLAY;
            if (on_screen && at_idle_ && g_.grade_difference.empty()) compare_grade();
            if (on_screen && play_state == tetris::PLAY_STATE_LOCK && at_idle_ && at_idle_->gradable) count_lock();
            if (play_state == tetris::PLAY_STATE_CURTAIN) {
                g_.topped_out = true;
                break;
            }
            const uint8_t id = nes_.read_ram(tetris::spawnCount);
            const bool now_active = play_state == tetris::PLAY_STATE_ACTIVE &&
                                    nes_.read_ram(tetris::currentPiece) < tetris::PIECE_NONE;
            if (now_active && (!active_ || id != piece_id_)) take_spawn(id);  // a piece spawned this frame
            if (now_active && !g_.pieces.empty()) follow_piece();
            if (active_ && !now_active && !g_.pieces.empty()) note_lock();  // it locked (or the game left play)
            active_ = now_active;
        }
        // (the last lock's class may still wait for a spawn search the run did not reach)
        if (g_.grade_difference.empty() && wanted_.size() > 1)
            g_.grade_difference = std::to_string(wanted_.size()) + " locks the reference classed, the cartridge did not";
        g_.lag_frames = nes_.lag_frames() - lag_before;
        g_.lines = lines_made(nes_.read_ram(tetris::lines), nes_.read_ram(tetris::lines + 1));
        return g_;
    }

private:
    // The task reaching ai_task_main::published for the piece on screen: its decision is out.
    // coach_ghost's entry, the start of the coach's idle time: the ghost it reads, and whether the
    // decision for the piece came before (it may come in the frame the piece locks, before the
    // game's work: the task runs on after the NMI to its next yield).
    void watch_the_task(const emu::Nes& n) {
        if (n.cpu().pc() == at_.published && n.read_ram(at_.cur_id) == n.read_ram(tetris::spawnCount)) {
            published_frame_ = static_cast<int64_t>(frame_);
            published_id_ = n.read_ram(at_.cur_id);
        }
        if (n.cpu().pc() == at_.coach_ghost) {
            at_idle_ = ghost_seen(n, at_);
            at_idle_->decided = published_id_ == n.read_ram(tetris::spawnCount);
        }
    }

    // The player sees the frames the model can read (play); between them (the game's own
    // screens: the start of a game, line clears' busy frames) it holds nothing, as the
    // harness's driver does.
    uint8_t pad_of(Player& player) {
        try {
            return pad_from_game(player.buttons(view_of(from_ram(std::span<const uint8_t, kCpuRamSize>(nes_.ram().data(), kCpuRamSize)))));
        } catch (const std::exception&) {
            return 0;
        }
    }

    // The grade (AI_DESIGN.md "The coach's grade"), as coach_ghost found it at the start of this
    // frame's idle time: its sprites show what the box held; its counts are the harness's to the
    // end of the frame before, with the classes the cartridge has counted since taken from the
    // locks the reference classed, in order.
    void compare_grade() {
        if (auto d = grade_sprites_differ(nes_, at_idle_->box)) g_.grade_difference = "frame " + std::to_string(frame_) + ": " + *d;
        unsigned cart_classed = 0;
        for (uint16_t n : at_idle_->classes) cart_classed += n;
        while (cart_classed > g_.classed && !wanted_.empty()) {
            const ClassWanted w = wanted_.front();
            wanted_.pop_front();
            const uint8_t c = static_cast<uint8_t>(w.grade.lock_class);
            ++g_.classes[c];
            ++g_.classed;
            g_.points = static_cast<uint16_t>(g_.points + ai::kClassPoints[c]);
            g_.misses.push_back(w.grade.miss);
        }
        const unsigned want_shown = g_.classed ? ai::coach_accuracy(g_.points, g_.classed) + 1u : 0u;
        const GhostSeen& cart = *at_idle_;
        if (g_.grade_difference.empty() &&
            (cart.total != g_.graded || cart.matched != g_.matched || cart.classes != g_.classes ||
             cart.points != g_.points || cart.tenths != 10u * g_.classed || cart.box.shown != want_shown))
            g_.grade_difference = grade_counts_differ(frame_, cart, g_, want_shown);
    }

    // This frame's lock of a piece with a plan is counted, and matched when it is where the ghost
    // was; when the full search had decided it, the reference grades it (the cartridge counts the
    // class at once when matched, else at the next piece's spawn search).
    void count_lock() {
        if (!g_.pieces.empty() && g_.pieces.back().graded && g_.grade_difference.empty())
            g_.grade_difference = "frame " + std::to_string(frame_) + ": a piece graded twice";
        ++g_.graded;
        const ai::Target person{nes_.read_ram(tetris::currentPiece), nes_.read_ram(tetris::tetriminoX),
                                static_cast<int8_t>(nes_.read_ram(tetris::tetriminoY))};
        g_.matched += person.x == at_idle_->x && static_cast<uint8_t>(person.landing_y) == at_idle_->y &&
                      person.orientation == at_idle_->orientation;
        if (!g_.pieces.empty()) {
            g_.pieces.back().graded = true;
            if (at_idle_->decided && spawn_)
                if (const auto grade = ai::grade_lock(spawn_->in, spawn_->next_type, spawn_->preview_shown, person))
                    wanted_.push_back({frame_, *grade});
        }
    }

    // A piece spawned: the reference's decision for it, and its search input for the grade.
    // A spawn in hate mode: dealt when the cartridge's choice was for it, and then the reference's
    // choice on the board the game shows (the person's, after the last lock).
    void count_hate_spawn(uint8_t hate_for) {
        const uint8_t id = nes_.read_ram(tetris::spawnCount);
        if (hate_for != id) {
            ++g_.hate_kept;
            return;
        }
        ++g_.hate_dealt;
        const GameState s = from_ram(std::span<const uint8_t, kCpuRamSize>(nes_.ram().data(), kCpuRamSize));
        g_.hate_reference += kTypeOfOrientation.at(s.nextPiece) == ai::hate_choice_at(s).type;
    }

    void take_spawn(uint8_t id) {
        piece_id_ = id;
        spawn_frame_ = frame_;
        published_frame_ = published_frame_ >= 0 && nes_.read_ram(at_.cur_id) == id ? published_frame_ : -1;
        const PlayerView seen = view_of(from_ram(std::span<const uint8_t, kCpuRamSize>(nes_.ram().data(), kCpuRamSize)));
        // (a frame with a piece under control is one from_ram reads: it throws only on a bad state)
        const ai::Decision d = ai::decide(seen, (seen.autorepeatY & 0x80) != 0, nes_.read_ram(tetris::gameType) != 0,
                                          ai::default_tables());
        spawn_ = spawn_seen(nes_, seen);
        reference_found_ = d.chosen.has_value();
        reference_ = d.target();
        CoachPiece p;
        p.level = nes_.read_ram(tetris::levelNumber);
        g_.pieces.push_back(p);
    }

    // The piece under control: when its ghost first shows, when the full search's decision is
    // out and whether it is the reference's, when the full search's ghost shows.
    void follow_piece() {
        CoachPiece& p = g_.pieces.back();
        const int since = static_cast<int>(frame_ - spawn_frame_);
        const bool shown = ghost_slots_used(nes_);  // (coach_ghost stages only a plan for the piece on screen)
        if (shown && p.first_ghost < 0) p.first_ghost = since;
        if (published_frame_ >= static_cast<int64_t>(spawn_frame_) && !p.searched) {
            p.searched = true;
            p.full_published = static_cast<int>(published_frame_ - static_cast<int64_t>(spawn_frame_));
            p.equals_reference = reference_found_ && nes_.read_ram(at_.ghost_o) == reference_.orientation &&
                                 nes_.read_ram(at_.ghost_x) == reference_.x &&
                                 static_cast<int8_t>(nes_.read_ram(at_.ghost_y)) == reference_.landing_y;
            if (!p.equals_reference && g_.first_difference.empty())
                g_.first_difference =
                    "piece " + std::to_string(g_.pieces.size()) + " (level " + std::to_string(p.level) +
                    "): the ghost is orientation " + std::to_string(nes_.read_ram(at_.ghost_o)) + ", column " +
                    std::to_string(nes_.read_ram(at_.ghost_x)) + ", row " +
                    std::to_string(static_cast<int8_t>(nes_.read_ram(at_.ghost_y))) + "; the reference's " +
                    (reference_found_ ? "orientation " + std::to_string(reference_.orientation) + ", column " +
                                            std::to_string(reference_.x) + ", row " + std::to_string(reference_.landing_y)
                                      : std::string("none (nothing reachable)"));
        }
        if (p.searched && shown && p.full_ghost < 0) p.full_ghost = since;
    }

    // The piece left control: whether the player locked it where the ghost was.
    void note_lock() {
        CoachPiece& p = g_.pieces.back();
        p.followed = p.searched && at_idle_ && nes_.read_ram(tetris::currentPiece) == at_idle_->orientation &&
                     nes_.read_ram(tetris::tetriminoX) == at_idle_->x && nes_.read_ram(tetris::tetriminoY) == at_idle_->y;
    }

    const CoachLabels at_;
    emu::Nes nes_;
    uint64_t frame_ = 0;
    int64_t published_frame_ = -1;
    int published_id_ = -1;
    std::optional<GhostSeen> at_idle_;
    CoachGame g_;
    std::optional<SpawnSeen> spawn_;  // the piece on screen's search input, at its spawn
    std::deque<ClassWanted> wanted_;  // locks classed by the reference, not yet by the cartridge
    bool active_ = false;
    uint8_t piece_id_ = 0;
    uint64_t spawn_frame_ = 0;
    ai::Target reference_{};
    bool reference_found_ = false;
};

}  // namespace

CoachGame run_coach_game(const GameRoms& roms, const CartImage& cart, const MenuWalk& walk, Player& player,
                         uint64_t frames) {
    if (!walk.coach || walk.ai) throw std::invalid_argument("run_coach_game: the walk must start a coach game");
    CoachRun run(roms, cart, walk);
    return run.play(player, frames);
}

}  // namespace nestris::game
