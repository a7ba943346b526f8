#include "ai-reference/model/random_movie.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <limits>

namespace nestris {
namespace {

// splitmix64: small, fast and good enough to draw plans from.
class Random {
public:
    explicit Random(uint64_t seed) : state_(seed) {}
    uint64_t next() {
        uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    int below(int n) { return static_cast<int>(next() % static_cast<uint64_t>(n)); }
    bool chance(int percent) { return below(100) < percent; }

private:
    uint64_t state_;
};

// One way of playing a piece; buttons() decides each frame from the piece's state, so a plan
// that meets a wall or a blocked turn keeps trying like a person would.
struct Plan {
    uint8_t target_orientation = 0;
    bool turn_with_b = false;
    int target_x = 5;
    int tap_period = 2;      // frames between new presses (2 = as fast as the game allows)
    bool charge_das = false; // hold the direction instead of tapping
    bool soft_drop = false;
    int drop_delay = 0;      // frames before Down once in place
    int noise_percent = 0;   // chance of a stray button each frame
    uint64_t noise_seed = 0;

    uint8_t buttons(const GameState& s, int frame, Random& noise) const {
        uint8_t held = 0;
        const uint8_t last = s.heldButtons;
        const bool new_press_frame = frame % tap_period == 0;
        const bool turned = s.currentPiece == target_orientation;
        if (!turned && new_press_frame && !(last & (tetris::BUTTON_A | tetris::BUTTON_B)))
            held |= turn_with_b ? tetris::BUTTON_B : tetris::BUTTON_A;
        const int x = s.tetriminoX;
        if (x != target_x) {
            const uint8_t dir = x < target_x ? tetris::BUTTON_RIGHT : tetris::BUTTON_LEFT;
            if (charge_das ? true : (new_press_frame && !(last & dir))) held |= dir;
        } else if (turned && soft_drop && frame >= drop_delay) {
            // A Down held through the spawn does not count: let go for a frame first.
            if (!(s.autorepeatY == 0 && (last & tetris::BUTTON_DOWN))) held |= tetris::BUTTON_DOWN;
        }
        if (noise_percent > 0 && noise.chance(noise_percent)) {
            constexpr std::array<uint8_t, 5> stray{tetris::BUTTON_UP, tetris::BUTTON_A, tetris::BUTTON_B, tetris::BUTTON_DOWN,
                                                   tetris::BUTTON_LEFT};
            held = static_cast<uint8_t>(held ^ stray[static_cast<std::size_t>(noise.below(5))]);
        }
        // Never the reset combination, never Start/Select inside a plan.
        return static_cast<uint8_t>(held & ~(tetris::BUTTON_START | tetris::BUTTON_SELECT));
    }
};

// A plan for a given target, with a random way of getting there.
Plan draw_plan(Random& r, uint8_t orientation, int target_x, int soft_drop_percent) {
    Plan p;
    p.target_orientation = orientation;
    p.turn_with_b = r.chance(40);
    p.target_x = target_x;
    p.tap_period = 2 + (r.chance(70) ? 0 : r.below(4));
    p.charge_das = r.chance(25);
    p.soft_drop = r.chance(soft_drop_percent);
    p.drop_delay = r.chance(50) ? 0 : r.below(30);
    p.noise_percent = r.chance(30) ? 1 + r.below(4) : 0;
    p.noise_seed = r.next();
    return p;
}

// Every orientation and column of the piece once, plus `extra` fully random targets.
std::vector<Plan> draw_plans(Random& r, const GameState& s, int extra) {
    std::vector<Plan> plans;
    // Slow levels take ages without soft drop; fast ones do not need it.
    const int soft_drop_percent = s.levelNumber < 13 ? 90 : 50;
    const uint8_t spawn = spawn_orientation_of(s.currentPiece);
    uint8_t o = spawn;
    do {
        for (int x = 0; x < kPlayfieldWidth; ++x) plans.push_back(draw_plan(r, o, x, soft_drop_percent));
        o = kRotateClockwise[o];
    } while (o != spawn);
    for (int i = 0; i < extra; ++i) {
        uint8_t target = spawn;
        for (int turns = r.below(4); turns > 0; --turns) target = kRotateClockwise[target];
        plans.push_back(draw_plan(r, target, r.below(kPlayfieldWidth), soft_drop_percent));
    }
    return plans;
}

long evaluate(const GameState& before, const GameState& after) {
    if (is_topped_out(after)) return std::numeric_limits<long>::min() / 2;
    std::array<int, kPlayfieldWidth> height{};
    int holes = 0;
    for (int c = 0; c < kPlayfieldWidth; ++c) {
        bool seen = false;
        for (int r = 0; r < kPlayfieldHeight; ++r) {
            const bool filled = is_filled_tile(tile_at(after, c, r));
            if (filled && !seen) {
                seen = true;
                height[static_cast<std::size_t>(c)] = kPlayfieldHeight - r;
            } else if (!filled && seen) {
                ++holes;
            }
        }
    }
    long bump = 0, total = 0;
    int top = 0;
    for (int c = 0; c < kPlayfieldWidth; ++c) {
        total += height[static_cast<std::size_t>(c)];
        top = std::max(top, height[static_cast<std::size_t>(c)]);
        if (c + 1 < kPlayfieldWidth)
            bump += std::abs(height[static_cast<std::size_t>(c)] - height[static_cast<std::size_t>(c) + 1]);
    }
    const long lines = static_cast<long>(lines_count(after)) - static_cast<long>(lines_count(before));
    const long b_type_lines = before.gameType != 0
        ? static_cast<long>(lines_count(before)) - static_cast<long>(lines_count(after)) : 0;
    return 700 * std::max(lines, b_type_lines) - 400 * holes - 20 * total - 30 * bump -
           (top > 14 ? 300 * (top - 14) : 0);
}

// Plays a plan from the piece's first controllable frame until the game is ready for the next
// piece (or the game ends), appending the buttons if `out` is given.
GameState play_plan(GameState s, const Plan& plan, std::vector<uint8_t>* out, std::size_t limit) {
    Random noise(plan.noise_seed);
    int frame = 0;
    while (s.status == GameStatus::Playing && has_active_piece(s) && (!out || out->size() < limit)) {
        const uint8_t held = plan.buttons(s, frame++, noise);
        if (out) out->push_back(held);
        step(s, held);
        if (frame > 5000) break;  // cannot happen with gravity; keeps the loop finite
    }
    if (out) return s;
    // For the evaluation: let the lock and the line check finish, pressing nothing.
    for (int i = 0; i < 200 && s.status == GameStatus::Playing && !has_active_piece(s) &&
                    !is_topped_out(s);
         ++i)
        step(s, 0);
    return s;
}

uint8_t between_pieces_buttons(Random& r, uint8_t last) {
    if (r.chance(60)) return last & ~(tetris::BUTTON_START | tetris::BUTTON_SELECT);  // keep holding
    constexpr std::array<uint8_t, 8> options{0,         tetris::BUTTON_DOWN, tetris::BUTTON_LEFT, tetris::BUTTON_RIGHT,
                                             tetris::BUTTON_A, tetris::BUTTON_B,    tetris::BUTTON_DOWN | tetris::BUTTON_LEFT,
                                             0};
    return options[static_cast<std::size_t>(r.below(8))];
}

}  // namespace

RandomMovie make_random_movie(const GameState& start, uint64_t seed, std::size_t frames,
                              const RandomMovieOptions& options) {
    Random r(seed ^ 0x6E65737472697321ull);
    RandomMovie result;
    std::vector<uint8_t>& out = result.movie.frames;
    GameState s = start;
    auto press = [&](uint8_t held) {
        out.push_back(held);
        step(s, held);
    };
    while (out.size() < frames && s.status == GameStatus::Playing) {
        if (has_active_piece(s)) {
            Plan best;
            long best_value = std::numeric_limits<long>::min();
            for (const Plan& plan : draw_plans(r, s, std::max(0, options.candidates))) {
                const long value = evaluate(s, play_plan(s, plan, nullptr, 0));
                if (value > best_value) {
                    best_value = value;
                    best = plan;
                }
            }
            s = play_plan(s, best, &out, frames);
            continue;
        }
        if (is_paused(s)) {
            // Stay paused for a while, then a new press of Start alone.
            const uint8_t held = r.chance(8) ? (s.heldButtons & tetris::BUTTON_START ? 0 : tetris::BUTTON_START)
                                             : static_cast<uint8_t>(r.chance(20) ? tetris::BUTTON_A : 0);
            press(held);
            continue;
        }
        if (s.playState == tetris::PLAY_STATE_CURTAIN) {
            press(r.chance(3) && !(s.heldButtons & tetris::BUTTON_START) ? tetris::BUTTON_START : 0);
            continue;
        }
        // Entry delay and line clears: stray buttons, and now and then a game feature.
        const int roll = r.below(1000);
        if (options.pauses && roll < 6 && !(s.heldButtons & tetris::BUTTON_START)) {
            press(tetris::BUTTON_START);
        } else if (options.quirks && roll < 10 && !(s.heldButtons & tetris::BUTTON_SELECT)) {
            press(tetris::BUTTON_SELECT);
        } else if (options.quirks && roll < 16) {
            press(tetris::BUTTON_RIGHT | tetris::BUTTON_LEFT | tetris::BUTTON_DOWN);
        } else {
            press(between_pieces_buttons(r, s.heldButtons));
        }
    }
    if (out.size() > frames) out.resize(frames);
    result.end = s;
    return result;
}

}  // namespace nestris
