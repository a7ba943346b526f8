#include "ai-reference/model/simulator.hpp"

#include "ai-reference/model/frame_time.hpp"

#include "base/tally.hpp"

#include "ai-reference/model/power_on.hpp"
#include "base/worker_pool.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <ostream>
#include <stdexcept>

namespace nestris {

std::string to_string(GameEnd end) {
    switch (end) {
    case GameEnd::ToppedOut: return "topped-out";
    case GameEnd::LineLimit: return "line-limit";
    case GameEnd::FrameLimit: return "frame-limit";
    case GameEnd::BTypeGoal: return "b-type-goal";
    case GameEnd::LeftGame: return "left-game";
    case GameEnd::MayCrash: return "may-crash";
    }
    return "unknown";
}

// The lines an A-Type game has made: every line it cleared. The game's counter (lines_count)
// keeps its hundreds in a byte and wraps to 0 at 25 600, which the longest AI games pass.
uint32_t lines_cleared(const GameResult& r) {
    uint32_t lines = 0;
    for (unsigned k = 0; k < 4; ++k) lines += (k + 1u) * r.clears[k];
    return lines;
}

GameResult play_game(const SimulationConfig& config, uint32_t seed) {
    if (!config.make_player) throw std::invalid_argument("simulation without a player");
    GameResult r;
    r.seed = seed;
    r.start_level = config.start_level;
    GameState s = seeded_game(seed, config.start_level, config.game_type, config.start_height);
    const std::unique_ptr<Player> player = config.make_player(seed);
    r.pieces = 1;  // the first piece is dealt by the game's setup
    for (;;) {
        if (s.status == GameStatus::BTypeGoal) {
            r.end = GameEnd::BTypeGoal;
            break;
        }
        if (s.status != GameStatus::Playing) {
            r.end = GameEnd::LeftGame;
            break;
        }
        if (s.playState == tetris::PLAY_STATE_CURTAIN) {
            r.end = GameEnd::ToppedOut;
            break;
        }
        if (config.max_lines && lines_count(s) >= config.max_lines && config.game_type == 0) {
            r.end = GameEnd::LineLimit;
            break;
        }
        if (config.max_frames && r.frames >= config.max_frames) {
            r.end = GameEnd::FrameLimit;
            break;
        }
        const uint8_t before = s.playState;
        // The frame's time: a lock's score frame (its loop reads the level after its level-up and
        // the score as it is) may lag, or crash the real game: the game ends there.
        const FrameTimeForecast time = forecast_ai_frame_time(s);
        r.lag_sure += time.lag == Maybe::Yes;
        r.lag_may += time.lag == Maybe::May;
        step_choosing_next(s, player->buttons(view_of(s)), config.choose_next);
        ++r.frames;
        if (time.crash == Maybe::May) {
            r.end = GameEnd::MayCrash;
            break;
        }
        if (before == tetris::PLAY_STATE_CHECK_ROWS && s.playState == tetris::PLAY_STATE_LINE_CLEAR &&
            s.completedLines >= 1 && s.completedLines <= 4)
            ++r.clears[s.completedLines - 1u];
        if (before == tetris::PLAY_STATE_SPAWN && s.playState == tetris::PLAY_STATE_ACTIVE) ++r.pieces;
        if (score_value(s) >= kMaxScore) r.maxed_out = true;
    }
    r.lines = config.game_type == 0 ? lines_cleared(r) : lines_count(s);
    r.score = score_value(s);
    r.level = s.levelNumber;
    if (config.on_game_end) config.on_game_end(r, s, *player);
    return r;
}

std::vector<GameResult> simulate(const SimulationConfig& config,
                                 const std::function<void(std::size_t)>& progress) {
    std::vector<GameResult> results(config.seeds.size());
    PoolOptions options;
    options.progress = progress;
    options.interval = std::chrono::milliseconds(100);
    parallel_for(
        config.seeds.size(), config.threads,
        [&](std::size_t i) { results[i] = play_game(config, config.seeds[i]); }, options);
    return results;
}

Distribution distribution(const std::vector<double>& v) {
    Distribution d;
    if (v.empty()) return d;
    Tally<double> t(true);
    for (double x : v) t.add(x);
    d.mean = t.mean();
    d.median = t.median();
    d.p10 = t.percentile(0.1);
    d.p25 = t.percentile(0.25);
    d.p75 = t.percentile(0.75);
    d.p90 = t.percentile(0.9);
    d.min = t.min();
    d.max = t.max();
    return d;
}

SimulationSummary summarize(const std::vector<GameResult>& results) {
    SimulationSummary s;
    s.games = results.size();
    std::vector<double> lines, score, level, pieces, frames;
    uint64_t maxed = 0, topped = 0, may_crash = 0, tetris_lines = 0, cleared_lines = 0;
    for (const GameResult& r : results) {
        lines.push_back(r.lines);
        score.push_back(r.score);
        level.push_back(r.level);
        pieces.push_back(r.pieces);
        frames.push_back(static_cast<double>(r.frames));
        maxed += r.maxed_out;
        topped += r.end == GameEnd::ToppedOut;
        may_crash += r.end == GameEnd::MayCrash;
        for (unsigned k = 0; k < 4; ++k) cleared_lines += (k + 1u) * r.clears[k];
        tetris_lines += 4u * r.clears[3];
        s.total_pieces += r.pieces;
        s.total_frames += r.frames;
        s.lag_sure += r.lag_sure;
        s.lag_may += r.lag_may;
    }
    s.total_lines = cleared_lines;
    s.lines = distribution(lines);
    s.score = distribution(score);
    s.level = distribution(level);
    s.pieces = distribution(pieces);
    s.frames = distribution(frames);
    if (s.games) {
        s.max_out_rate = static_cast<double>(maxed) / static_cast<double>(s.games);
        s.top_out_rate = static_cast<double>(topped) / static_cast<double>(s.games);
        s.may_crash_rate = static_cast<double>(may_crash) / static_cast<double>(s.games);
    }
    if (cleared_lines) s.tetris_rate = static_cast<double>(tetris_lines) / static_cast<double>(cleared_lines);
    return s;
}

namespace {

void json_distribution(std::ostream& out, const char* name, const Distribution& d, bool last = false) {
    out << "    \"" << name << "\": {\"mean\": " << d.mean << ", \"median\": " << d.median
        << ", \"p10\": " << d.p10 << ", \"p25\": " << d.p25 << ", \"p75\": " << d.p75 << ", \"p90\": " << d.p90
        << ", \"min\": " << d.min << ", \"max\": " << d.max << "}" << (last ? "\n" : ",\n");
}

std::string json_escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (static_cast<unsigned char>(c) < 0x20) continue;
        out += c;
    }
    return out;
}

}  // namespace

void write_summary_json(std::ostream& out, const SimulationSummary& s, const SimulationConfig& config,
                        const std::string& player, double seconds,
                        const std::vector<std::pair<std::string, double>>& extra) {
    const auto flags = out.flags();
    out << std::setprecision(6);
    out << "{\n";
    out << "  \"player\": \"" << json_escape(player) << "\",\n";
    out << "  \"start_level\": " << int(config.start_level) << ",\n";
    out << "  \"game_type\": \"" << (config.game_type ? "B" : "A") << "\",\n";
    out << "  \"max_frames\": " << config.max_frames << ",\n";
    out << "  \"max_lines\": " << config.max_lines << ",\n";
    out << "  \"games\": " << s.games << ",\n";
    out << "  \"seconds\": " << seconds << ",\n";
    out << "  \"max_out_rate\": " << s.max_out_rate << ",\n";
    out << "  \"top_out_rate\": " << s.top_out_rate << ",\n";
    out << "  \"may_crash_rate\": " << s.may_crash_rate << ",\n";
    out << "  \"lag_frames_sure\": " << s.lag_sure << ",\n";
    out << "  \"lag_frames_may\": " << s.lag_may << ",\n";
    out << "  \"tetris_rate\": " << s.tetris_rate << ",\n";
    out << "  \"total_lines\": " << s.total_lines << ",\n";
    out << "  \"total_pieces\": " << s.total_pieces << ",\n";
    out << "  \"total_frames\": " << s.total_frames << ",\n";
    for (const auto& [key, value] : extra) out << "  \"" << json_escape(key) << "\": " << value << ",\n";
    out << "  \"stats\": {\n";
    json_distribution(out, "lines", s.lines);
    json_distribution(out, "score", s.score);
    json_distribution(out, "level", s.level);
    json_distribution(out, "pieces", s.pieces);
    json_distribution(out, "frames", s.frames, true);
    out << "  }\n}\n";
    out.flags(flags);
}

void write_results_csv(std::ostream& out, const std::vector<GameResult>& results) {
    out << "seed,start_level,lines,score,level,pieces,singles,doubles,triples,tetrises,frames,maxed_out,end\n";
    for (const GameResult& r : results)
        out << r.seed << ',' << r.start_level << ',' << r.lines << ',' << r.score << ',' << r.level << ','
            << r.pieces << ',' << r.clears[0] << ',' << r.clears[1] << ',' << r.clears[2] << ',' << r.clears[3]
            << ',' << r.frames << ',' << (r.maxed_out ? 1 : 0) << ',' << to_string(r.end) << '\n';
}

}  // namespace nestris
