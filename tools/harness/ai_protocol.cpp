#include "tools/harness/ai_protocol.hpp"

#include "ai-reference/ai/ai_player.hpp"
#include "ai-reference/model/frame_time.hpp"
#include "ai-reference/model/game_model.hpp"
#include "ai-reference/model/power_on.hpp"
#include "base/worker_pool.hpp"

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <string>

namespace nestris::tools {

GameResult play_protocol(uint32_t seed, const ProtocolSpec& spec, const ai::EvalTables& tables) {
    GameResult r;
    r.seed = seed;
    GameState s = seeded_game(seed, spec.start_level);
    ai::AiPlayer player(tables);
    uint8_t last_state = s.playState;
    static constexpr uint32_t kLinePoints[5] = {0, 40, 100, 300, 1200};
    uint32_t lines_before = lines_count(s);
    while (s.status == GameStatus::Playing && !is_topped_out(s) && r.frames < spec.frame_limit) {
        // A lock whose frame may crash the real game ends the game there (a top-out).
        const bool may_crash = forecast_ai_frame_time(s).crash == Maybe::May;
        step(s, player.buttons(view_of(s)));
        ++r.frames;
        if (may_crash) {
            r.may_crash = true;
            break;
        }
        // The game scores a clear at the level it reaches with those lines.
        if (const uint32_t lines = lines_count(s); lines != lines_before) {
            r.line_score += kLinePoints[std::min<uint32_t>(lines - lines_before, 4)] * (s.levelNumber + 1u);
            lines_before = lines;
        }
        if (last_state != tetris::PLAY_STATE_SPAWN && s.playState == tetris::PLAY_STATE_SPAWN) ++r.pieces;
        last_state = s.playState;
        if (s.levelNumber >= 29 && r.level_29_lines == 0) r.level_29_lines = lines_count(s);
        if (spec.line_target && lines_count(s) >= spec.line_target) {
            r.reached_target = true;
            break;
        }
    }
    r.lines = lines_count(s);
    r.score = score_value(s);
    r.level = s.levelNumber;
    r.tetrises = bcd_to_int(s.lineClearStatsByType.data() + 3, 1);
    r.topped_out = is_topped_out(s) || s.status != GameStatus::Playing || r.may_crash;
    r.topped_before_29 = r.topped_out && r.level_29_lines == 0;
    r.evaluations = player.stats().evaluations;
    r.max_evaluations = player.max_evaluations();
    return r;
}

std::vector<GameResult> play_many(const std::vector<uint32_t>& seeds, const ProtocolSpec& spec,
                                  const ai::EvalTables& tables, unsigned threads,
                                  const std::function<void(size_t)>& progress) {
    std::vector<GameResult> results(seeds.size());
    std::atomic<size_t> done{0};
    parallel_for(seeds.size(), std::max(1u, threads), [&](std::size_t i) {
        results[i] = play_protocol(seeds[i], spec, tables);
        const size_t d = ++done;
        if (progress) progress(d);
    });
    return results;
}

double fitness_of(std::string_view kind, const std::vector<GameResult>& results) {
    if (results.empty()) throw std::invalid_argument("fitness of no games");
    const double n = static_cast<double>(results.size());
    auto mean = [&](auto value) {
        double sum = 0;
        for (const GameResult& r : results) sum += value(r);
        return sum / n;
    };
    auto capped = [](const GameResult& r) { return std::min<double>(r.score, 999999); };
    if (kind == "capped") return mean(capped);
    if (kind == "survival")
        return mean([&](const GameResult& r) { return capped(r) + 600000.0 * std::min<uint32_t>(r.lines, 230) / 230; });
    if (kind == "lines") return mean([](const GameResult& r) { return double(r.lines); });
    if (kind == "goal" || kind == "safe") {
        const double topout_weight = kind == "safe" ? kSafeTopOutWeight : 1.0;
        return mean([&](const GameResult& r) {
            return 100.0 * ((r.score >= 999999) - topout_weight * r.topped_out) + capped(r) / 10'000'000.0;
        });
    }
    if (kind == "best-third") {
        std::vector<double> scores;
        for (const GameResult& r : results) scores.push_back(r.line_score);
        std::sort(scores.begin(), scores.end(), std::greater<>());
        scores.resize((scores.size() + 2) / 3);
        double sum = 0;
        for (double v : scores) sum += v;
        return sum / static_cast<double>(scores.size());
    }
    throw std::invalid_argument("no fitness '" + std::string(kind) + "'");
}

}  // namespace nestris::tools
