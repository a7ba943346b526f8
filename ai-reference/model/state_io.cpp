#include "ai-reference/model/state_io.hpp"
#include "base/hex.hpp"

#include "base/file_io.hpp"

#include <charconv>
#include <fstream>
#include <map>
#include <set>
#include <span>
#include <sstream>
#include <stdexcept>

namespace nestris {
namespace {
// A state file is a few hundred bytes of text; anything this big is the wrong file.
constexpr uint64_t kMaxStateFile = 1u << 20;
}  // namespace
namespace {

bool bcd_byte_ok(uint8_t v) { return (v & 0x0F) <= 9 && (v >> 4) <= 9; }

// ---- validation ---------------------------------------------------------------------------

void check_playfield(const GameState& s, std::vector<std::string>& out) {
    for (std::size_t i = 0; i < kPlayfieldPageSize; ++i) {
        const uint8_t t = s.playfield[i];
        const bool block = t == kTileBlockA || t == kTileBlockB || t == kTileBlockC;
        const bool ok = t == kTileEmpty || block || t == kTileCurtain;
        if (!ok) {
            out.push_back("playfield byte " + std::to_string(i) + " holds tile " + ("0x" + hex_digits(t, 2)) +
                          ", which a 1-player game never writes");
            return;  // one is enough to make the point
        }
    }
}

void check_piece(const GameState& s, std::vector<std::string>& out) {
    if (s.currentPiece > kOrientationHidden) {
        out.push_back("currentPiece " + std::to_string(s.currentPiece) +
                      " is not an orientation id (0-18) or 19 (none)");
        return;
    }
    const bool in_control = s.playState == tetris::PLAY_STATE_ACTIVE || s.playState == tetris::PLAY_STATE_LOCK;
    if (!in_control) return;
    if (s.currentPiece == kOrientationHidden) {
        out.push_back("play state " + std::to_string(s.playState) + " needs a piece, currentPiece is 19");
        return;
    }
    if (s.tetriminoX > 9 || s.tetriminoY > 19) {
        out.push_back("piece position (" + std::to_string(s.tetriminoX) + ", " +
                      std::to_string(s.tetriminoY) + ") is outside the playfield");
        return;
    }
    if (!is_position_valid(s, s.tetriminoX, s.tetriminoY, s.currentPiece)) {
        // The one legal overlap: a piece that has just spawned into the stack (the game tops
        // out when it tries to lock it).
        const bool at_spawn = s.tetriminoX == kSpawnX && s.tetriminoY == kSpawnY &&
                              is_spawn_orientation(s.currentPiece);
        if (!at_spawn)
            out.push_back("the " + std::string(kOrientationNames[s.currentPiece]) + " piece at (" +
                          std::to_string(s.tetriminoX) + ", " + std::to_string(s.tetriminoY) +
                          ") overlaps the stack or a wall");
    }
}

}  // namespace

std::vector<std::string> validate(const GameState& s) {
    std::vector<std::string> out;
    auto range = [&](const char* name, unsigned v, unsigned lo, unsigned hi) {
        if (v < lo || v > hi)
            out.push_back(std::string(name) + " " + std::to_string(v) + " is outside " +
                          std::to_string(lo) + "-" + std::to_string(hi));
    };
    if (s.status != GameStatus::Playing) out.push_back("status is " + to_string(s.status) + ", not playing");
    range("playState", s.playState, 0, 11);
    range("gameType", s.gameType, 0, 1);
    if (s.gameModeState != 2 && s.gameModeState != 7)
        out.push_back("gameModeState " + std::to_string(s.gameModeState) +
                      " is not a frame boundary (2, or 7 in pause and after Right+Left+Down)");
    if (s.renderMode != tetris::RENDER_MODE_PLAY && s.renderMode != tetris::RENDER_MODE_LEGAL)
        out.push_back("renderMode " + std::to_string(s.renderMode) + " is not 3 (play) or 0 (pause)");
    if (s.renderMode == tetris::RENDER_MODE_LEGAL && s.gameModeState != 7) out.push_back("paused (renderMode 0) but gameModeState is not 7");
    check_piece(s, out);
    if (!is_spawn_orientation(s.nextPiece))
        out.push_back("nextPiece " + std::to_string(s.nextPiece) + " is not a spawn orientation");
    if (s.spawnID != 0 && !is_spawn_orientation(s.spawnID))
        out.push_back("spawnID " + std::to_string(s.spawnID) + " is neither 0 nor a spawn orientation");
    if (s.rngSeed == 0) out.push_back("rngSeed 0 is not reachable (the generator would stay 0)");
    if (s.vramRow > 20 && s.vramRow != kVramRowDone)
        out.push_back("vramRow " + std::to_string(s.vramRow) + " is neither 0-20 nor 32 (done)");
    range("autorepeatX", s.autorepeatX, 0, 16);
    if (s.autorepeatY > 2 && s.autorepeatY < 0xA0)
        out.push_back("autorepeatY " + std::to_string(s.autorepeatY) +
                      " is neither 0-2 nor the first piece's hold (160-255)");
    range("completedLines", s.completedLines, 0, 4);
    range("lineIndex", s.lineIndex, 0, 4);
    range("rowY", s.rowY, 0, 5);
    for (uint8_t r : s.completedRow) range("completedRow", r, 0, 20);
    if (s.curtainRow > 20 && s.curtainRow < 0xF0)
        out.push_back("curtainRow " + std::to_string(s.curtainRow) + " is neither 240-255 nor 0-20");
    range("startHeight", s.startHeight, 0, 5);
    range("garbageHole", s.garbageHole, 0, 9);
    range("displayNextPiece", s.displayNextPiece, 0, 1);
    if ((s.newlyPressedButtons & ~s.heldButtons) != 0)
        out.push_back("newlyPressedButtons has buttons that are not held");
    for (uint8_t b : s.score)
        if (!bcd_byte_ok(b)) {
            out.push_back("score is not BCD (" + ("0x" + hex_digits(s.score[2], 2)) + hex_digits(s.score[1], 2) +
                          hex_digits(s.score[0], 2) + ")");
            break;
        }
    // Only the low byte is BCD: the game increments the hundreds byte without a decimal
    // adjust, so after 999 lines it reads $0A, $0B, ... and every byte value is reachable.
    if (!bcd_byte_ok(s.lines[0])) out.push_back("lines is not BCD (low byte " + ("0x" + hex_digits(s.lines[0], 2)) + ")");
    for (std::size_t i = 0; i < s.statsByType.size(); i += 2)
        if (!bcd_byte_ok(s.statsByType[i])) {
            out.push_back("statsByType is not BCD");
            break;
        }
    for (uint8_t b : s.lineClearStatsByType)
        if ((b & 0x0F) > 9) {
            out.push_back("lineClearStatsByType is not BCD");
            break;
        }
    check_playfield(s, out);
    return out;
}

std::string join_problems(const std::vector<std::string>& problems) {
    std::string all;
    for (const std::string& p : problems) {
        if (!all.empty()) all += "; ";
        all += p;
    }
    return all;
}

// ---- text format --------------------------------------------------------------------------
namespace {

struct ByteField {
    const char* name;
    std::span<uint8_t> bytes;
};

std::vector<ByteField> byte_fields(GameState& s) {
    return {
        {"tetriminoX", {&s.tetriminoX, 1}},
        {"tetriminoY", {&s.tetriminoY, 1}},
        {"currentPiece", {&s.currentPiece, 1}},
        {"levelNumber", {&s.levelNumber, 1}},
        {"fallTimer", {&s.fallTimer, 1}},
        {"autorepeatX", {&s.autorepeatX, 1}},
        {"startLevel", {&s.startLevel, 1}},
        {"playState", {&s.playState, 1}},
        {"vramRow", {&s.vramRow, 1}},
        {"completedRow", s.completedRow},
        {"autorepeatY", {&s.autorepeatY, 1}},
        {"holdDownPoints", {&s.holdDownPoints, 1}},
        {"lines", s.lines},
        {"rowY", {&s.rowY, 1}},
        {"score", s.score},
        {"completedLines", {&s.completedLines, 1}},
        {"lineIndex", {&s.lineIndex, 1}},
        {"curtainRow", {&s.curtainRow, 1}},
        {"startHeight", {&s.startHeight, 1}},
        {"garbageHole", {&s.garbageHole, 1}},
        {"spawnID", {&s.spawnID, 1}},
        {"spawnCount", {&s.spawnCount, 1}},
        {"nextPiece", {&s.nextPiece, 1}},
        {"gameType", {&s.gameType, 1}},
        {"gameModeState", {&s.gameModeState, 1}},
        {"renderMode", {&s.renderMode, 1}},
        {"displayNextPiece", {&s.displayNextPiece, 1}},
        {"newlyPressedButtons", {&s.newlyPressedButtons, 1}},
        {"heldButtons", {&s.heldButtons, 1}},
        {"statsByType", s.statsByType},
        {"lineClearStatsByType", s.lineClearStatsByType},
    };
}

constexpr int kFirstRow = -2;
constexpr std::size_t kExtraFirst = 200, kExtraCount = 36;

std::size_t row_index(int row, int column) {
    return static_cast<uint8_t>(row * 10 + column);
}

[[noreturn]] void fail(int line, const std::string& what) {
    throw std::runtime_error("state line " + std::to_string(line) + ": " + what);
}

unsigned long parse_number(const std::string& token, unsigned long max, int line, const std::string& name) {
    unsigned long v = 0;
    const char* first = token.data();
    const char* last = token.data() + token.size();
    int base = 10;
    if (token.size() > 2 && token[0] == '0' && (token[1] == 'x' || token[1] == 'X')) {
        first += 2;
        base = 16;
    }
    const auto [ptr, ec] = std::from_chars(first, last, v, base);
    if (ec == std::errc::result_out_of_range || (ec == std::errc() && ptr == last && v > max))
        fail(line, name + ": " + token + " is out of range 0-" + std::to_string(max));
    if (ec != std::errc() || ptr != last || first == last) fail(line, name + ": '" + token + "' is not a number");
    return v;
}

GameStatus parse_status(const std::string& token, int line) {
    for (GameStatus st : {GameStatus::Playing, GameStatus::GameOver, GameStatus::Ending,
                          GameStatus::BTypeGoal, GameStatus::Reset}) {
        std::string name = to_string(st);
        for (char& c : name)
            if (c == ' ') c = '-';
        if (name == token) return st;
    }
    fail(line, "status: unknown '" + token + "'");
}

}  // namespace

void write_state(std::ostream& out, const GameState& state) {
    GameState s = state;  // byte_fields wants mutable spans
    out << "nestris-state 1\n";
    for (const ByteField& f : byte_fields(s)) {
        out << f.name;
        for (uint8_t b : f.bytes) out << ' ' << "0x" << hex_digits(b, 2);
        out << '\n';
    }
    out << "rngSeed 0x" << hex_digits(s.rngSeed, 4) << '\n';
    out << "frameCounter 0x" << hex_digits(s.frameCounter, 4) << '\n';
    std::string status = to_string(s.status);
    for (char& c : status)
        if (c == ' ') c = '-';
    out << "status " << status << '\n';
    for (int row = kFirstRow; row < kPlayfieldHeight; ++row) {
        out << "row " << row;
        for (int c = 0; c < kPlayfieldWidth; ++c) out << ' ' << hex_digits(s.playfield[row_index(row, c)], 2);
        out << '\n';
    }
    out << "page_200";
    for (std::size_t i = 0; i < kExtraCount; ++i) out << ' ' << hex_digits(s.playfield[kExtraFirst + i], 2);
    out << '\n';
}

std::string state_to_text(const GameState& state) {
    std::ostringstream s;
    write_state(s, state);
    return s.str();
}

GameState read_state(std::istream& in) {
    GameState s;
    std::vector<ByteField> fields = byte_fields(s);
    std::set<std::string> seen;
    std::string text;
    int line = 0;
    bool header = false;
    while (std::getline(in, text)) {
        ++line;
        if (const auto hash = text.find('#'); hash != std::string::npos) text.erase(hash);
        std::istringstream words(text);
        std::vector<std::string> tokens;
        for (std::string w; words >> w;) tokens.push_back(w);
        if (tokens.empty()) continue;
        if (!header) {
            if (tokens.size() != 2 || tokens[0] != "nestris-state" || tokens[1] != "1")
                fail(line, "expected the header 'nestris-state 1'");
            header = true;
            continue;
        }
        std::string key = tokens[0];
        const std::vector<std::string> values(tokens.begin() + 1, tokens.end());
        if (key == "row") {
            if (values.size() != 11) fail(line, "row: expected a row number and 10 tiles");
            const long row = static_cast<long>(parse_number(values[0][0] == '-' ? values[0].substr(1) : values[0], 19, line, "row"));
            const int r = values[0][0] == '-' ? -static_cast<int>(row) : static_cast<int>(row);
            if (r < kFirstRow) fail(line, "row: " + values[0] + " is outside -2..19");
            key = "row " + std::to_string(r);
            for (int c = 0; c < kPlayfieldWidth; ++c)
                s.playfield[row_index(r, c)] = static_cast<uint8_t>(
                    parse_number("0x" + values[static_cast<std::size_t>(c) + 1], 255, line, key));
        } else if (key == "page_200") {
            if (values.size() != kExtraCount) fail(line, "page_200: expected 36 bytes");
            for (std::size_t i = 0; i < kExtraCount; ++i)
                s.playfield[kExtraFirst + i] = static_cast<uint8_t>(parse_number("0x" + values[i], 255, line, key));
        } else if (key == "rngSeed" || key == "frameCounter") {
            if (values.size() != 1) fail(line, key + ": expected one value");
            const auto v = static_cast<uint16_t>(parse_number(values[0], 0xFFFF, line, key));
            (key == "rngSeed" ? s.rngSeed : s.frameCounter) = v;
        } else if (key == "status") {
            if (values.size() != 1) fail(line, "status: expected one value");
            s.status = parse_status(values[0], line);
        } else {
            auto it = std::find_if(fields.begin(), fields.end(), [&](const ByteField& f) { return key == f.name; });
            if (it == fields.end()) fail(line, "unknown variable '" + key + "'");
            if (values.size() != it->bytes.size())
                fail(line, key + ": expected " + std::to_string(it->bytes.size()) + " value(s), got " +
                               std::to_string(values.size()));
            for (std::size_t i = 0; i < values.size(); ++i)
                it->bytes[i] = static_cast<uint8_t>(parse_number(values[i], 255, line, key));
        }
        if (!seen.insert(key).second) fail(line, key + " is given twice");
    }
    if (!header) throw std::runtime_error("state: empty input (expected 'nestris-state 1')");
    std::vector<std::string> missing;
    for (const ByteField& f : fields)
        if (!seen.count(f.name)) missing.push_back(f.name);
    for (const char* k : {"rngSeed", "frameCounter", "page_200"})
        if (!seen.count(k)) missing.push_back(k);
    for (int r = kFirstRow; r < kPlayfieldHeight; ++r)
        if (!seen.count("row " + std::to_string(r))) missing.push_back("row " + std::to_string(r));
    if (!missing.empty()) throw std::runtime_error("state: missing " + join_problems(missing));
    const std::vector<std::string> problems = validate(s);
    if (!problems.empty()) throw std::runtime_error("state is impossible in the game: " + join_problems(problems));
    return s;
}

GameState state_from_text(const std::string& text) {
    std::istringstream in(text);
    return read_state(in);
}

GameState load_state_file(const std::string& path) {
    std::istringstream in(read_text_file(path, kMaxStateFile));
    try {
        return read_state(in);
    } catch (const std::runtime_error& e) {
        throw std::runtime_error(path + ": " + e.what());
    }
}

void save_state_file(const std::string& path, const GameState& state) {
    std::ostringstream out;
    write_state(out, state);
    write_text_atomically(path, out.str());
}

}  // namespace nestris
