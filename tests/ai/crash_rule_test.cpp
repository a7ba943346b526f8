// The AI's crash rule (ai_crash_rule.hpp) against the model's safety (frame_time.hpp).
#include "ai-reference/ai/ai_crash_rule.hpp"
#include "ai-reference/ai/ai_player.hpp"

#include <catch2/catch.hpp>

#include <optional>

using namespace nestris;
using namespace nestris::ai;

namespace {

bool safe_with(const LockSafety& s, bool hidden) { return hidden ? s.hidden : s.shown; }

}  // namespace

TEST_CASE("crash rule: every lock it leaves is safe with the preview it is made with and its level's soft drop, at every level") {
    const CrashRule& rule = crash_rule();
    for (int s = 0; s < 256; ++s) {
        const auto level = static_cast<uint8_t>(s);
        const bool hidden = preview_hidden_at(rule, level, kOrientationHidden);  // (a clear's: no piece)
        // (from level 128: below it the AI soft-drops and nothing crashes, MODEL.md "Time")
        const bool soft = in_soft_drop_range(rule, level);
        INFO("level " << s << (hidden ? " (hidden)" : " (shown)") << (soft ? ", soft drop" : ""));
        if (soft) CHECK_FALSE(hidden);  // Down held from the inputs' end: no frame for Select
        if (level != rule.preview_by_piece)  // (there by its piece: above)
            CHECK(safe_with(ai_lock_safety(level, 0, false, soft), hidden));  // no line: never barred
        for (uint8_t lines = 1; lines <= 4; ++lines)
            for (const bool tens : {false, true}) {
                INFO(int(lines) << " lines" << (tens ? ", the tens change" : ""));
                const uint8_t lines_lo = tens ? static_cast<uint8_t>(0x10 - lines) : 0x00;  // x(10-k) or x0
                REQUIRE(tens_digit_changes(lines_lo, lines) == tens);
                const bool made_hidden = lock_preview_hidden(rule, level, kOrientationHidden, lines, lines_lo);
                if (soft) CHECK_FALSE(made_hidden);
                if (!lock_barred(rule, level, lines, lines_lo, nestris::kSpawnX, kRows - 1))
                    CHECK(safe_with(ai_lock_safety(level, lines, tens, soft), made_hidden));
                // Short of the points (a lock high up at a soft-drop level): it may make them or not.
                if (soft && !lock_barred(rule, level, lines, lines_lo, nestris::kSpawnX, kHighRows)) {
                    CHECK(safe_with(ai_lock_safety(level, lines, tens, true), made_hidden));
                    CHECK(safe_with(ai_lock_safety(level, lines, tens, false), made_hidden));
                }
            }
    }
}

// The soft drop and the preview by piece are where the rule needs them: at 160 a single that
// does not change the tens digit may crash with either preview, but with neither after the soft
// drop's points, and at 172-173 the points free triples and doubles; at level 253 a lock without a line may crash with either preview (the locked
// piece's orientation moves the windows: kLockedPieceStagingSpread), but not with the preview
// hidden for orientations 0-8 and shown for 9-18.
TEST_CASE("crash rule: the soft drop where singles need it, the preview by the piece where a lock without a line needs it") {
    const CrashRule& rule = crash_rule();
    const LockSafety single_160 = ai_lock_safety(160, 1, false);
    CHECK_FALSE(single_160.shown);
    CHECK_FALSE(single_160.hidden);
    CHECK(ai_lock_safety(160, 1, false, true).shown);
    CHECK(soft_drop_levels(rule) == std::vector<uint8_t>{160, 172, 173});
    CHECK(soft_drop_at(rule, 160));
    CHECK_FALSE(soft_drop_at(rule, 200));
    // below level 128 the AI always soft-drops, and no level there is in the rule's ranges
    CHECK(soft_drop_at(rule, 19));
    CHECK_FALSE(in_soft_drop_range(rule, 19));
    CHECK(in_soft_drop_range(rule, 172));
    // At 172-173 the soft drop frees triples and doubles: no clear it bars is safe without it.
    CHECK_FALSE(ai_lock_safety(172, 3, false).shown);
    CHECK(ai_lock_safety(172, 3, false, true).shown);
    CHECK_FALSE(ai_lock_safety(173, 2, false).shown);
    CHECK(ai_lock_safety(173, 2, false, true).shown);
    CHECK(rule.barred[crash_class(3, false)].contains(171));
    CHECK_FALSE(rule.barred[crash_class(3, false)].contains(172));
    CHECK_FALSE(rule.barred[crash_class(2, false)].contains(173));
    CHECK(soft_drop_at(rule, 127));  // below 128 the AI always soft-drops
    CHECK(rule.barred[crash_class(1, false)].count == 0);
    const LockSafety no_line_253 = ai_lock_safety(253, 0, false);
    CHECK_FALSE(no_line_253.shown);
    CHECK_FALSE(no_line_253.hidden);
    CHECK(rule.preview_by_piece == 253);
    for (uint8_t o = 0; o < kOrientations; ++o) {
        INFO("orientation " << int(o));
        const bool hidden = preview_hidden_at(rule, 253, o);
        CHECK(hidden == (o < kHiddenOrientations));
        const LockSafety safe = ai_lock_safety(253, 0, false, false, locked_piece_sooner(o));
        CHECK((hidden ? safe.hidden : safe.shown));
    }
    // A clear at the soft-drop level must fall long enough: from the spawn column's row 7, from
    // column 0's row 13.
    CHECK(soft_drop_lowest_row(nestris::kSpawnX) == 7);
    CHECK(soft_drop_lowest_row(0) == 13);
    CHECK(soft_drop_lowest_row(9) == 11);
    CHECK(lock_barred(rule, 160, 1, 0x00, 0, 12));
    CHECK_FALSE(lock_barred(rule, 160, 1, 0x00, 0, 13));
    CHECK_FALSE(lock_barred(rule, 161, 1, 0x00, 0, 12));
    CHECK_FALSE(lock_barred(rule, 160, 0, 0x00, 0, 2));  // a lock without a line: safe both ways
    // Short of the points, only the classes that need them are barred: at 172 a single or a
    // tetris may lock high, a triple may not.
    CHECK_FALSE(lock_barred(rule, 172, 1, 0x00, 0, 6));
    CHECK_FALSE(lock_barred(rule, 172, 4, 0x00, 0, 6));
    CHECK(lock_barred(rule, 172, 3, 0x00, 0, 6));
    CHECK_FALSE(lock_barred(rule, 172, 3, 0x00, 0, 13));
    CHECK(rule.barred_short[crash_class(1, false)].contains(160));
    CHECK_FALSE(rule.barred_short[crash_class(1, false)].contains(172));
}

// A clear that may crash with its level's preview but not with the other is made with the other:
// a tetris at 170 with the preview shown (the level's is hidden), a single that changes the tens
// at 159 with it hidden; the Select comes on the piece's frames without other buttons.
TEST_CASE("crash rule: a clear whose class needs the other preview is made with it") {
    const CrashRule& rule = crash_rule();
    CHECK(preview_hidden_at(rule, 170, 0));
    CHECK_FALSE(ai_lock_safety(170, 4, false).hidden);
    CHECK(ai_lock_safety(170, 4, false).shown);
    CHECK(rule.flipped[crash_class(4, false)].contains(170));
    CHECK_FALSE(lock_barred(rule, 170, 4, 0x00, 9, 16));
    CHECK_FALSE(lock_preview_hidden(rule, 170, 17, 4, 0x00));
    CHECK(lock_preview_hidden(rule, 170, 17, 1, 0x00));  // a single there: the level's
    CHECK(lock_preview_hidden(rule, 170, 17, 0, 0x00));  // no line: the level's
    CHECK(lock_preview_hidden(rule, 159, 2, 1, 0x09));   // a single from x9 at 159: hidden
    CHECK_FALSE(lock_preview_hidden(rule, 159, 2, 1, 0x08));
    CHECK_FALSE(lock_barred(rule, 159, 1, 0x09, 5, 18));
    CHECK(lock_barred(rule, 158, 1, 0x09, 5, 18));  // both previews may crash there
    PlayerView view;
    view.levelNumber = 170;
    view.lines_bcd = {0x00, 0x16};
    view.active = true;
    view.currentPiece = 17;  // an I, upright
    view.tetriminoX = 9;
    view.nextPiece = kOrientationHidden;  // hidden, as the level wants
    for (int r = 16; r < kRows; ++r) view.rows[static_cast<std::size_t>(r)] = 0x1FF;  // 4 rows but column 9
    AiPlayer ai;
    uint8_t pressed = 0;
    for (int frame = 0; frame < 8; ++frame) pressed |= ai.buttons(view);
    REQUIRE(ai.last_decision());
    REQUIRE(ai.last_decision()->search.candidates[*ai.last_decision()->chosen].lines == 4);
    CHECK((pressed & tetris::BUTTON_SELECT) != 0);  // shown for the tetris
}

TEST_CASE("crash rule: it bars only locks that may crash with their level's preview, and few of them") {
    const CrashRule& rule = crash_rule();
    int barred = 0;
    for (uint8_t lines = 1; lines <= 4; ++lines)
        for (const bool tens : {false, true}) {
            const LevelRange r = rule.barred[crash_class(lines, tens)];
            CHECK(r.count <= 3);  // against 14 spawn levels a count of lines before the kinds
            barred += r.count;
            for (int s = r.first; s < r.first + r.count; ++s) {
                const auto level = static_cast<uint8_t>(s);
                const LockSafety safe = ai_lock_safety(level, lines, tens, soft_drop_at(rule, level));
                CHECK_FALSE(safe_with(safe, preview_hidden_at(rule, level, kOrientationHidden)));
                // (and the other preview could not save it, or cannot be given: Down held)
                if (!in_soft_drop_range(rule, level)) CHECK_FALSE(safe_with(safe, !preview_hidden_at(rule, level, kOrientationHidden)));
            }
        }
    CHECK(barred > 0);
    // Nothing below level 128: the AI's frames there are not the measured kinds, and nothing
    // crashes (MODEL.md "Time").
    for (const LevelRange& r : rule.barred) CHECK((r.count == 0 || r.first >= 128));
    for (const LevelRange& r : rule.hidden) CHECK((r.count == 0 || r.first >= 128));
}

TEST_CASE("crash rule: the AI presses Select on a frame without other buttons to hold its level's preview, and shows it again after the scoring frame") {
    AiPlayer player;
    const LevelRange hidden = crash_rule().hidden[0];
    REQUIRE(hidden.count > 0);
    PlayerView v;
    v.levelNumber = hidden.first;
    v.playState = 1;
    v.active = true;
    v.currentPiece = 2;  // T (its spawn orientation)
    v.nextPiece = 2;     // shown
    // Frame 1 of an empty board's T: its plan may press a shift or a rotation; the first frame with
    // nothing planned presses Select, once: the game then hides the preview.
    int selects = 0;
    for (int frame = 0; frame < 6; ++frame) {
        const uint8_t b = player.buttons(v);
        if (b == tetris::BUTTON_SELECT) {
            ++selects;
            v.nextPiece = kOrientationHidden;
        } else {
            CHECK((b & tetris::BUTTON_SELECT) == 0);
        }
    }
    CHECK(selects == 1);
    // The lock, its line clear, its scoring frame: nothing. After it: Select, the preview back.
    v.active = false;
    v.currentPiece = kOrientationHidden;
    for (uint8_t state = 2; state <= tetris::PLAY_STATE_UPDATE_LINES; ++state) {
        v.playState = state;
        CHECK(player.buttons(v) == 0);
    }
    v.playState = tetris::PLAY_STATE_UPDATE_LINES + 1;
    CHECK(player.buttons(v) == tetris::BUTTON_SELECT);
    v.nextPiece = 2;
    CHECK(player.buttons(v) == 0);
    // At a level where it is shown, a piece's idle frames press nothing.
    v.levelNumber = static_cast<uint8_t>(hidden.first - 1);
    v.playState = 1;
    v.active = true;
    v.currentPiece = 2;
    for (int frame = 0; frame < 6; ++frame) CHECK((player.buttons(v) & tetris::BUTTON_SELECT) == 0);
}

// After a lock with a block in row 5 (the AI has lost), the music's scan ends sooner by the
// block's column (row5_scan_sooner): the rule sets the preview by that column from the level
// where the level's own preview may crash such a lock. Below 254 every column and piece is then
// safe; at 254 and 255 no preview is safe for every one, and the rule's leaves fewer that may
// crash than either preview for every column.
TEST_CASE("crash rule: after a lock with a block in row 5 the preview goes by its column, safe below 254, the fewest crashes at 254-255") {
    const CrashRule& rule = crash_rule();
    REQUIRE(rule.row5_level >= hooks::AI_POLL_PAUSE_LEVEL);
    CHECK(256 - rule.row5_level <= static_cast<int>(kRow5Levels));
    for (int s = hooks::AI_POLL_PAUSE_LEVEL; s < 256; ++s) {
        const auto level = static_cast<uint8_t>(s);
        int unsafe = 0, unsafe_shown = 0, unsafe_hidden = 0;
        for (uint8_t c = 0; c < kRow5Empty; ++c)
            for (uint8_t o = 0; o < kOrientationHidden; ++o) {
                const LockSafety safe = ai_lock_safety(level, 0, false, false, locked_piece_sooner(o), c);
                const std::optional<bool> wanted = row5_preview_hidden(rule, level, c);
                CHECK(wanted.has_value() == (s >= rule.row5_level));
                unsafe += !safe_with(safe, wanted.value_or(preview_hidden_at(rule, level, o)));
                unsafe_shown += !safe.shown;
                unsafe_hidden += !safe.hidden;
            }
        INFO("level " << s << ": " << unsafe << " of the 190 columns and orientations may crash");
        if (s < 254) {
            CHECK(unsafe == 0);
        } else {
            CHECK(unsafe < unsafe_shown);
            CHECK(unsafe < unsafe_hidden);
        }
        // (where the level's own preview is safe for every column, the rule does not start)
        if (s == rule.row5_level - 1) {
            int own = 0;
            for (uint8_t c = 0; c < kRow5Empty; ++c)
                for (uint8_t o = 0; o < kOrientationHidden; ++o)
                    own += !safe_with(ai_lock_safety(level, 0, false, false, locked_piece_sooner(o), c),
                                      preview_hidden_at(rule, level, o));
            CHECK(own == 0);
        }
    }
    CHECK_FALSE(row5_preview_hidden(rule, 253, kRow5Empty));  // row 5 empty: as it is
}

TEST_CASE("crash rule: between a lock with a block in row 5 and its scoring frame the AI presses Select for the preview its column wants") {
    const CrashRule& rule = crash_rule();
    AiPlayer player;
    PlayerView v;
    v.levelNumber = 253;  // hidden for every column
    REQUIRE(row5_preview_hidden(rule, 253, 3) == std::optional<bool>{true});
    v.active = false;
    v.currentPiece = 18;  // a vertical I, locked
    v.nextPiece = 2;      // shown
    v.rows[5] = 1u << 3;  // its cell at column 3
    for (const uint8_t state : {tetris::PLAY_STATE_CHECK_ROWS, tetris::PLAY_STATE_LINE_CLEAR}) {
        v.playState = state;
        v.nextPiece = 2;
        CHECK(player.buttons(v) == tetris::BUTTON_SELECT);
        v.nextPiece = kOrientationHidden;
        CHECK(player.buttons(v) == 0);
    }
    // The lock's frame and the scoring frame: nothing (the lock's row 5 is not final before; the
    // AI's polls pause in the scoring frame).
    v.nextPiece = 2;
    for (const uint8_t state : {tetris::PLAY_STATE_LOCK, tetris::PLAY_STATE_UPDATE_LINES}) {
        v.playState = state;
        CHECK(player.buttons(v) == 0);
    }
    // Row 5 empty, or a level below the rule's: nothing.
    v.playState = tetris::PLAY_STATE_CHECK_ROWS;
    v.rows[5] = 0;
    CHECK(player.buttons(v) == 0);
    v.rows[5] = 1u << 3;
    v.levelNumber = static_cast<uint8_t>(rule.row5_level - 1);
    CHECK(player.buttons(v) == 0);
}
