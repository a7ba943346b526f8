#include "ai-reference/model/player.hpp"

#include "base/file_io.hpp"

#include <charconv>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace nestris {

PlayerView view_of(const GameState& s) {
    PlayerView v;
    // Rows 0-19 start at 10 * row; the hidden rows -2 and -1 at 236 and 246 (see tile_at).
    auto row_bits = [&](std::size_t first) {
        unsigned bits = 0;
        for (unsigned c = 0; c < kPlayfieldWidth; ++c) bits |= static_cast<unsigned>(is_filled_tile(s.playfield[first + c])) << c;
        return static_cast<uint16_t>(bits);
    };
    for (std::size_t r = 0; r < kPlayfieldHeight; ++r) v.rows[r] = row_bits(10 * r);
    v.hidden_rows[0] = row_bits(236);
    v.hidden_rows[1] = row_bits(246);
    v.currentPiece = s.currentPiece;
    v.tetriminoX = s.tetriminoX;
    v.tetriminoY = s.tetriminoY;
    v.nextPiece = s.displayNextPiece == 0 ? s.nextPiece : kOrientationHidden;
    v.levelNumber = s.levelNumber;
    v.lines_bcd = s.lines;
    v.lines = lines_count(s);
    v.score = score_value(s);
    v.playState = s.playState;
    v.frame_phase = static_cast<uint8_t>(s.frameCounter & 3);
    v.fallTimer = s.fallTimer;
    v.autorepeatX = s.autorepeatX;
    v.autorepeatY = s.autorepeatY;
    v.heldButtons = s.heldButtons;
    v.active = has_active_piece(s);
    v.paused = is_paused(s);
    v.status = s.status;
    return v;
}

// ---- movies -------------------------------------------------------------------------------
namespace {

constexpr char kButtonLetters[8] = {'R', 'L', 'D', 'U', 'T', 'S', 'B', 'A'};
constexpr uint8_t kButtonBits[8] = {tetris::BUTTON_RIGHT, tetris::BUTTON_LEFT, tetris::BUTTON_DOWN,   tetris::BUTTON_UP,
                                    tetris::BUTTON_START, tetris::BUTTON_SELECT, tetris::BUTTON_B,    tetris::BUTTON_A};
constexpr unsigned long kMaxRepeat = 10'000'000;
constexpr std::size_t kMaxMovieFrames = 100'000'000;

[[noreturn]] void fail(int line, const std::string& what) {
    throw std::runtime_error("movie line " + std::to_string(line) + ": " + what);
}

}  // namespace

std::string buttons_to_string(uint8_t b) {
    std::string s(8, '.');
    for (int i = 0; i < 8; ++i)
        if (b & kButtonBits[i]) s[static_cast<std::size_t>(i)] = kButtonLetters[i];
    return s;
}

Movie parse_movie(const std::string& text) {
    Movie movie;
    std::istringstream in(text);
    std::string raw;
    int line = 0;
    bool header = false;
    while (std::getline(in, raw)) {
        ++line;
        if (const auto hash = raw.find('#'); hash != std::string::npos) raw.erase(hash);
        std::istringstream words(raw);
        std::vector<std::string> tokens;
        for (std::string w; words >> w;) tokens.push_back(w);
        if (tokens.empty()) continue;
        if (!header) {
            if (tokens.size() != 2 || tokens[0] != "nestris-movie" || tokens[1] != "1")
                fail(line, "expected the header 'nestris-movie 1'");
            header = true;
            continue;
        }
        if (tokens.size() > 2) fail(line, "expected buttons and an optional *N");
        const std::string& pattern = tokens[0];
        if (pattern.size() != 8)
            fail(line, "'" + pattern + "' is not 8 button places (RLDUTSBA, '.' = released)");
        uint8_t b = 0;
        for (std::size_t i = 0; i < 8; ++i) {
            if (pattern[i] == '.') continue;
            if (pattern[i] != kButtonLetters[i])
                fail(line, std::string("place ") + std::to_string(i + 1) + " must be '" +
                               kButtonLetters[i] + "' or '.', not '" + pattern[i] + "'");
            b = static_cast<uint8_t>(b | kButtonBits[i]);
        }
        unsigned long repeat = 1;
        if (tokens.size() == 2) {
            const std::string& r = tokens[1];
            if (r.size() < 2 || r[0] != '*') fail(line, "expected *N after the buttons, got '" + r + "'");
            const auto [ptr, ec] = std::from_chars(r.data() + 1, r.data() + r.size(), repeat);
            if (ec != std::errc() || ptr != r.data() + r.size() || repeat == 0 || repeat > kMaxRepeat)
                fail(line, "repeat count '" + r.substr(1) + "' must be 1-" + std::to_string(kMaxRepeat));
        }
        if (movie.frames.size() + repeat > kMaxMovieFrames)
            fail(line, "movie longer than " + std::to_string(kMaxMovieFrames) + " frames");
        movie.frames.insert(movie.frames.end(), repeat, b);
    }
    if (!header) throw std::runtime_error("movie: empty input (expected 'nestris-movie 1')");
    return movie;
}

Movie load_movie_file(const std::string& path) {
    const std::string text = read_text_file(path);
    try {
        return parse_movie(text);
    } catch (const std::runtime_error& e) {
        throw std::runtime_error(path + ": " + e.what());
    }
}

std::string movie_to_text(const Movie& movie) {
    std::string out = "nestris-movie 1\n";
    for (std::size_t i = 0; i < movie.frames.size();) {
        std::size_t j = i;
        while (j < movie.frames.size() && movie.frames[j] == movie.frames[i]) ++j;
        out += buttons_to_string(movie.frames[i]);
        if (j - i > 1) out += " *" + std::to_string(j - i);
        out += '\n';
        i = j;
    }
    return out;
}

uint8_t MoviePlayer::buttons(const PlayerView&) {
    return next_ < movie_.frames.size() ? movie_.frames[next_++] : 0;
}

uint8_t DropAtSpawnPlayer::buttons(const PlayerView& v) {
    // A fresh piece (soft-drop counter reset to 0) while Down is still held: let go for a frame
    // so that the next frame's Down is a new press.
    if (v.active && v.autorepeatY == 0 && (v.heldButtons & tetris::BUTTON_DOWN)) return 0;
    return tetris::BUTTON_DOWN;
}

}  // namespace nestris
