// The state's numbers and bytes: its BCD counters read as numbers (the lines past 999 as the
// game counts them), the lines a game makes to reach a level, the state as a fixed byte string
// and its hash, and the status' names. The frame step is game_model.cpp.
#include "ai-reference/model/game_model.hpp"

#include <stdexcept>
#include <string>

namespace nestris {

uint32_t bcd_to_int(const uint8_t* bytes, std::size_t count) {
    uint32_t value = 0;
    for (std::size_t i = count; i-- > 0;) {
        // Digits above 9 (the hundreds byte of lines passes 9 after 999 lines) keep their
        // place value, as the game's counter does when it keeps counting.
        value = value * 100 + (bytes[i] >> 4) * 10u + (bytes[i] & 0x0Fu);
    }
    return value;
}

// The low byte is BCD; the game increments the hundreds byte in binary (no decimal adjust), so
// $0A00 is 1 000 lines and $1000 is 1 600: the lines made, modulo 25 600.
uint32_t lines_made(uint8_t low, uint8_t hundreds) { return 100u * hundreds + bcd_to_int(&low, 1); }
uint32_t lines_count(const GameState& s) { return lines_made(s.lines[0], s.lines[1]); }
uint32_t score_value(const GameState& s) { return bcd_to_int(s.score.data(), 3); }
uint32_t piece_stat(const GameState& s, int type) {
    if (type < 0 || type >= kPieceTypeCount) return 0;
    return bcd_to_int(&s.statsByType[static_cast<std::size_t>(2 * type)], 2);
}

std::string to_string(GameStatus status) {
    switch (status) {
    case GameStatus::Playing: return "playing";
    case GameStatus::GameOver: return "game over";
    case GameStatus::Ending: return "ending";
    case GameStatus::BTypeGoal: return "b-type goal";
    case GameStatus::Reset: return "reset";
    }
    return "unknown";
}

std::array<uint8_t, kSerializedStateSize> serialize(const GameState& s) {
    std::array<uint8_t, kSerializedStateSize> out{};
    std::size_t n = 0;
    auto put = [&](uint8_t v) { out[n++] = v; };
    auto put16 = [&](uint16_t v) {
        put(static_cast<uint8_t>(v >> 8));
        put(static_cast<uint8_t>(v & 0xFF));
    };
    put(s.tetriminoX);
    put(s.tetriminoY);
    put(s.currentPiece);
    put(s.levelNumber);
    put(s.fallTimer);
    put(s.autorepeatX);
    put(s.startLevel);
    put(s.playState);
    put(s.vramRow);
    for (uint8_t v : s.completedRow) put(v);
    put(s.autorepeatY);
    put(s.holdDownPoints);
    for (uint8_t v : s.lines) put(v);
    put(s.rowY);
    for (uint8_t v : s.score) put(v);
    put(s.completedLines);
    put(s.lineIndex);
    put(s.curtainRow);
    put(s.startHeight);
    put(s.garbageHole);
    put16(s.rngSeed);
    put(s.spawnID);
    put(s.spawnCount);
    put16(s.frameCounter);
    put(s.nextPiece);
    put(s.gameType);
    put(s.gameModeState);
    put(s.renderMode);
    put(s.displayNextPiece);
    put(s.newlyPressedButtons);
    put(s.heldButtons);
    for (uint8_t v : s.statsByType) put(v);
    for (uint8_t v : s.lineClearStatsByType) put(v);
    put(static_cast<uint8_t>(s.status));
    n = 64;  // fixed offset of the page, whatever the count above
    for (uint8_t v : s.playfield) put(v);
    return out;
}

uint64_t hash_value(const GameState& s) {
    // FNV-1a over the serialized bytes, then a final mix so that low bits spread well.
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint8_t b : serialize(s)) {
        h ^= b;
        h *= 0x100000001b3ull;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
}

LinesAtLevel first_reaching(uint8_t start_level, unsigned levels_up) {
    LinesAtLevel at{{0, 0}, start_level, 0};
    unsigned up = 0;
    // Every start level levels up within 2 560 lines (the tens byte runs through all 256
    // values), so a level-up comes within 2 560 lines of the last one.
    for (uint32_t guard = 0; up < levels_up; ++guard) {
        if (guard > 2560u * (levels_up + 1u)) throw std::logic_error("first_reaching: no level-up");
        const uint8_t before = at.level;
        add_one_line_a_type(at.lines, at.level);
        ++at.count;
        if (at.level != before) ++up;
    }
    return at;
}

}  // namespace nestris
