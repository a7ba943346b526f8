// The strength protocols of the AI, on the frame-accurate game model: a seeded game (the game's
// own piece sequence, see power_on.hpp) played by the reference AI until a line target, a frame
// limit or a top-out. Shared by the tuner and the strength benchmark.
#pragma once

#include "ai-reference/ai/ai_eval.hpp"

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace nestris::tools {

struct ProtocolSpec {
    uint8_t start_level = 19;
    uint32_t line_target = 230;   // stop once this many lines are cleared (0: no target)
    uint32_t frame_limit = 2'000'000;
};

struct GameResult {
    uint32_t seed = 0;
    uint32_t lines = 0;
    uint32_t score = 0;             // the game's: soft-drop points included, capped at 999 999
    uint32_t line_score = 0;        // seed 004's count: line clears only, no cap
    uint8_t level = 0;
    uint32_t pieces = 0;
    uint32_t tetrises = 0;
    uint32_t frames = 0;
    bool topped_out = false;        // the curtain, or a lock that may crash the real game
    bool may_crash = false;         // ended at a lock whose frame may crash the real game (MODEL.md "Time")
    bool reached_target = false;
    uint32_t level_29_lines = 0;   // lines counter when level 29 was first reached (0 if never)
    bool topped_before_29 = false;
    uint64_t evaluations = 0;
    uint32_t max_evaluations = 0;  // the most in one decision
};

GameResult play_protocol(uint32_t seed, const ProtocolSpec& spec, const ai::EvalTables& tables);

// Runs games for every seed on `threads` threads; results in seed order. progress(done) is called
// from the worker threads after each game (may be empty).
std::vector<GameResult> play_many(const std::vector<uint32_t>& seeds, const ProtocolSpec& spec,
                                  const ai::EvalTables& tables, unsigned threads,
                                  const std::function<void(size_t)>& progress = {});

// The tuner's fitness of a batch of games of one protocol (higher is better); kind as
// nestris-tune's --fitness:
//   "capped": the mean of min(score, 999 999), the score as the game caps it;
//   "survival": that + 600 000 x lines / 230 (survival first);
//   "best-third": seed 004's, the mean of the best third of the line-clear scores (no cap);
//   "goal": the shares of games that max out minus the share that top out, in percentage points
//     (the strength targets), ties broken by the capped mean / 10 000 000 (less than a game's
//     weight up to 1 000 games);
//   "safe": as "goal", but each top-out counts kSafeTopOutWeight times (the top-out target,
//     3 %, is the one furthest away; the max-out target has room to give);
//   "lines": the mean lines (the level-29 protocol).
// Throws std::invalid_argument for another kind or no games.
inline constexpr double kSafeTopOutWeight = 4.0;
double fitness_of(std::string_view kind, const std::vector<GameResult>& results);

}  // namespace nestris::tools
