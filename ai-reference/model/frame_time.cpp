#include "ai-reference/model/frame_time.hpp"

#include <cstdint>

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace nestris {

bool score_frame_may_crash(uint8_t level, uint8_t lines) {
    if (lines > 4) return false;
    const int64_t loop = static_cast<int64_t>(score_loop_work(level, lines, {0x99, 0x99, 0x99}).cycles);
    const CycleRange pre = ai_game_work(level).pre_loop[lines];
    const int64_t pre_first = static_cast<int64_t>(pre.first) - kPreLoopMargin;
    const int64_t pre_last = static_cast<int64_t>(pre.last) + kPreLoopMargin;
    // The NMI's landing after the loop's end, at its earliest and latest.
    const int64_t earliest = static_cast<int64_t>(kNextNmiAfterNmi.first) - pre_last - loop;
    const int64_t latest = static_cast<int64_t>(kNextNmiAfterNmi.last) - pre_first - loop;
    return earliest <= static_cast<int64_t>(kDispatchWindowsAfterLoop.last) &&
           latest >= static_cast<int64_t>(kDispatchWindowsAfterLoop.first);
}

std::optional<CycleRange> ai_pre_loop(const AiScoringKind& kind) {
    // [lines][tens][level_up]: 46 522 scoring frames at levels 128-255 of AI games from model-made
    // states (measure-lock tetris.nes --ai-game 30000 --from-level L --title-wait T, L = 128-255:
    // MODEL.md "Time"), row 5 empty and the music unchanged, not after a lag; {0, 0}: never (a
    // level-up needs the tens digit to change; no line changes nothing). The hundreds digit's
    // change adds about 10 cycles inside its kind's range. Tetrises widened by 40 AI games from
    // level 19 (measure-lock tetris.nes --ai-game 600000 --ai-games 40 --title-wait 0, session 30):
    // 23 of 41 930 frames outside, all tetrises, up to 11 cycles past the ranges above them.
    // Doubles changing the tens widened by 2 and 1 cycles (6 536 at level 189: measure-lock
    // tetris.nes --ai-game 2000000 --ai-games 10 --title-wait 40, session 32; with a level-up 6 552
    // at level 255: --ai-game 1300 --from-level 254 --first-seed 39 --title-wait 38). Tetrises
    // changing the tens widened by 2 and 1 cycles (6 804 at level 143 and 6 825 at 189: the 40
    // games of measure-lock tetris.nes --ai-game 2000000 --ai-games 40 --title-wait 0, build
    // 574D0D87, 4 of 145 801 frames outside; the crash rule the same either way). Singles and
    // doubles changing the tens widened by 2 and 1 cycles (6 411 at level 235; 6 535 at 143, and
    // 6 547 with the hundreds at 189: the same 40 games, build E4AB7AAB, 3 of 133 985 frames
    // outside; the crash rule the same either way).
    static constexpr CycleRange kSeen[5][2][2] = {{{{6946, 6951}, {0, 0}}, {{0, 0}, {0, 0}}},
                                                  {{{6332, 6350}, {0, 0}}, {{6411, 6430}, {6429, 6448}}},
                                                  {{{6455, 6475}, {0, 0}}, {{6535, 6555}, {6552, 6583}}},
                                                  {{{6583, 6600}, {0, 0}}, {{6663, 6679}, {6681, 6697}}},
                                                  {{{6725, 6746}, {0, 0}}, {{6804, 6825}, {6822, 6843}}}};
    if (kind.lines > 4 || (kind.level_up && !kind.tens) || (kind.hundreds && !kind.tens)) return std::nullopt;
    const CycleRange r = kSeen[kind.lines][kind.tens][kind.level_up];
    if (r.last == 0) return std::nullopt;
    // The hundreds byte's increment: 12 cycles more (traced: a single at level 146 from $0D99
    // lines, a level-up, took 6 459 against 6 429-6 448 without it).
    constexpr uint32_t kHundreds = 12;
    const uint32_t hundreds = kind.hundreds ? kHundreds : 0;
    const uint32_t first = r.first + hundreds - row5_scan_sooner(kind.row5_first);
    const uint32_t last = r.last + hundreds - row5_scan_sooner(kind.row5_first);
    if (kind.soft_drop) return CycleRange{first + kSoftDropCycles.first, last + kSoftDropCycles.last};
    return CycleRange{first, last};
}

NmiLanding ai_scoring_nmi_landing(uint8_t level, const AiScoringKind& kind, bool preview_shown, uint32_t margin) {
    NmiLanding out;
    const std::optional<CycleRange> pre = ai_pre_loop(kind);
    const int64_t loop = static_cast<int64_t>(
        score_loop_work(level, kind.lines, kind.soft_drop ? kSoftDropScore : std::array<uint8_t, 3>{0x99, 0x99, 0x99})
            .cycles);
    if (!pre) {  // a kind never traced: anywhere
        out.earliest = INT64_MIN / 2;
        out.latest = INT64_MAX / 2;
        out.crash = Maybe::May;
        return out;
    }
    out.earliest = static_cast<int64_t>(kAiNextNmi.first) - pre->last - loop - margin;
    out.latest = static_cast<int64_t>(kAiNextNmi.last) - pre->first - loop + margin;
    const int64_t shift = preview_shown ? 0 : kPreviewStagingCycles;
    // The locked piece's orientation (a lock without a line): its windows that much sooner, or
    // for any piece from the soonest to the latest.
    const bool any = kind.lines == 0 && kind.piece_sooner == kAnyPiece;
    const int64_t sooner = kind.lines == 0 && !any ? kind.piece_sooner : 0;
    const int64_t widen = any ? kLockedPieceStagingSpread : 0;
    for (const CycleRange& w : kDispatchWindows) {
        const int64_t first = static_cast<int64_t>(w.first) - shift - sooner - widen,
                      last = static_cast<int64_t>(w.last) - shift - sooner;
        if (out.earliest <= last && out.latest >= first) out.crash = Maybe::May;
    }
    return out;
}

LockSafety ai_lock_safety(uint8_t spawn_level, uint8_t lines, bool tens, bool soft_drop, uint8_t piece_sooner,
                          uint8_t row5_first) {
    LockSafety out;
    for (const bool up : {false, true})
        for (const bool hundreds : {false, true}) {
            if (!tens && (up || hundreds)) continue;  // both need the tens digit to change
            const int loop = spawn_level + up;
            if (loop > 255 || loop < hooks::AI_POLL_PAUSE_LEVEL) continue;
            const AiScoringKind kind{lines, tens, up, hundreds, soft_drop, piece_sooner, row5_first};
            const auto level = static_cast<uint8_t>(loop);
            out.shown = out.shown && ai_scoring_nmi_landing(level, kind, true, kAiRuleMargin).crash == Maybe::No;
            out.hidden = out.hidden && ai_scoring_nmi_landing(level, kind, false, kAiRuleMargin).crash == Maybe::No;
        }
    return out;
}

const char* to_string(Maybe m) {
    switch (m) {
    case Maybe::No: return "no";
    case Maybe::May: return "may";
    case Maybe::Yes: return "yes";
    }
    return "?";
}

FrameTimeForecast forecast_frame_time(const GameState& before, const FrameWork& work) {
    FrameTimeForecast f;
    const std::optional<ScoreLoopInput> in = score_loop_input(before);
    if (!in) return f;
    f.scoring = true;
    f.lines = in->lines;
    f.loop_cycles = score_loop_work(in->level, in->lines, in->score).cycles;
    const size_t k = in->lines < 5 ? in->lines : 0;
    const CycleRange pre = work.pre_loop[k], besides = work.besides_loop[k];
    const int64_t loop = static_cast<int64_t>(f.loop_cycles);
    const int64_t pre_first = static_cast<int64_t>(pre.first) - kPreLoopMargin;
    const int64_t pre_last = static_cast<int64_t>(pre.last) + kPreLoopMargin;
    // Where the main loop reaches its wait, in cycles after the scoring frame's NMI entry.
    const int64_t end_first = loop + besides.first, end_last = loop + besides.last;
    const int64_t nmi_first = kNextNmiAfterNmi.first, nmi_last = kNextNmiAfterNmi.last;
    f.lag = end_first > nmi_last ? Maybe::Yes : end_last < nmi_first ? Maybe::No : Maybe::May;
    // The next NMI's landing after the loop's end.
    const int64_t land_first = nmi_first - pre_last - loop, land_last = nmi_last - pre_first - loop;
    if (land_first <= static_cast<int64_t>(kDispatchWindowsAfterLoop.last) &&
        land_last >= static_cast<int64_t>(kDispatchWindowsAfterLoop.first))
        f.crash = Maybe::May;
    return f;
}


uint8_t row5_first_block(const uint8_t* playfield) {
    for (uint8_t col = 0; col < kRow5Empty; ++col)
        if (playfield[5 * kPlayfieldWidth + col] != kTileEmpty) return col;
    return kRow5Empty;
}

namespace {
// The first block of row 5 that the scoring frame's music test finds, when the test leaves the
// music as it is (the kinds' condition, ai_pre_loop); nullopt when it may change the tune. Without
// a line the board is the lock's: its frame ran the same test and set the tune from it. After a
// clear the test scans the board after it, while the lock's frame scanned it before, with the
// piece: rows 0 to 5 + cleared empty before mean row 5 was empty then (its cells would have moved
// down by at most the lines cleared below it) and is now, but for a full row 5 over an empty row 6
// (cells left floating by earlier clears), which this does not see.
std::optional<uint8_t> row5_first_if_music_unchanged(const GameState& before, uint8_t cleared) {
    if (cleared == 0) return row5_first_block(before.playfield.data());
    const int rows = 6 + cleared;
    for (int i = 0; i < rows * kPlayfieldWidth; ++i)
        if (before.playfield[static_cast<std::size_t>(i)] != kTileEmpty) return std::nullopt;
    return kRow5Empty;
}
}  // namespace

FrameTimeForecast forecast_ai_frame_time(const GameState& before) {
    FrameTimeForecast f = forecast_frame_time(before, ai_game_work(before.levelNumber));
    if (!f.scoring || before.levelNumber < hooks::AI_POLL_PAUSE_LEVEL) return f;
    const std::optional<ScoreLoopInput> in = score_loop_input(before);
    const std::optional<uint8_t> row5_first = row5_first_if_music_unchanged(before, in->lines);
    if (!row5_first) return f;
    AiScoringKind kind = scoring_kind(before.lines[0], in->lines, in->level != before.levelNumber);
    kind.row5_first = *row5_first;
    // (the soft drop's points: p 2-17 leave kSoftDropScore, taken by the kind; more cannot be made
    // in 20 rows at one row a frame)
    kind.soft_drop = before.holdDownPoints >= 2;
    kind.piece_sooner = locked_piece_sooner(before.currentPiece);  // ($13 after a clear: 0, unused)
    if (kind.soft_drop && in->score != kSoftDropScore) return f;
    if (!ai_pre_loop(kind)) return f;
    f.crash = ai_scoring_nmi_landing(in->level, kind, before.displayNextPiece == 0, kAiRuleMargin).crash;
    return f;
}

void LagForecastTally::add(const FrameTimeForecast& f, bool lagged, const std::string& where) {
    ++counts[static_cast<size_t>(f.lag)][lagged];
    if ((f.lag == Maybe::Yes && !lagged) || (f.lag == Maybe::No && lagged)) {
        if (wrong++ == 0)
            first_wrong = where + ": forecast " + to_string(f.lag) + " (loop " + std::to_string(f.loop_cycles) +
                          " cycles), the frame " + (lagged ? "lagged" : "did not lag");
    }
}

void LagForecastTally::merge(const LagForecastTally& other) {
    for (size_t m = 0; m < 3; ++m)
        for (size_t l = 0; l < 2; ++l) counts[m][l] += other.counts[m][l];
    if (wrong == 0 && other.wrong != 0) first_wrong = other.first_wrong;
    wrong += other.wrong;
}

std::string LagForecastTally::summary() const {
    std::string out = "lag forecast:";
    for (Maybe m : {Maybe::Yes, Maybe::May, Maybe::No}) {
        out += std::string(m == Maybe::Yes ? " " : ", ") + to_string(m) + " " +
               std::to_string(count(m, false) + count(m, true)) + " (lagged " + std::to_string(count(m, true)) + ")";
    }
    out += "; wrong " + std::to_string(wrong);
    if (wrong) out += " (first: " + first_wrong + ")";
    return out;
}


void FrameWorkSeen::add(uint8_t lines, uint64_t cycles) {
    const size_t k = lines < 5 ? lines : 0;
    const uint32_t c = static_cast<uint32_t>(cycles);
    range[k] = frames[k]++ == 0 ? CycleRange{c, c} : CycleRange{std::min(range[k].first, c), std::max(range[k].last, c)};
}

void FrameWorkSeen::merge(const FrameWorkSeen& other) {
    for (size_t k = 0; k < 5; ++k) {
        if (!other.frames[k]) continue;
        range[k] = frames[k] ? CycleRange{std::min(range[k].first, other.range[k].first), std::max(range[k].last, other.range[k].last)}
                             : other.range[k];
        frames[k] += other.frames[k];
    }
}

std::string FrameWorkSeen::summary() const {
    std::string out = "scoring frames without lag, their work besides the loop, by lines:";
    for (size_t k = 0; k < 5; ++k)
        if (frames[k])
            out += " " + std::to_string(k) + ": " + std::to_string(range[k].first) + "-" + std::to_string(range[k].last) +
                   " (" + std::to_string(frames[k]) + ")";
    return out;
}

}  // namespace nestris
