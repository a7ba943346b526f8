// What a player sees, and players: anything that turns that into the buttons held each frame.
#pragma once

#include "ai-reference/model/game_model.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace nestris {

// Everything a person watching the screen (and remembering their own presses) knows. Never the
// RNG: the next pieces must come as a surprise.
struct PlayerView {
    // Occupancy as the game's collision test sees it: bit c of rows[r] = column c of row r is
    // blocked. hidden_rows[0] is row -2, hidden_rows[1] row -1 (they fill only when a piece locks
    // partly above the playfield, and then keep blocking).
    std::array<uint16_t, kPlayfieldHeight> rows{};
    std::array<uint16_t, 2> hidden_rows{};
    uint8_t currentPiece = kOrientationHidden;  // orientation id; 19 = none
    uint8_t tetriminoX = 0;
    uint8_t tetriminoY = 0;
    uint8_t nextPiece = kOrientationHidden;     // spawn orientation; 19 when the preview is off
    uint8_t levelNumber = 0;
    std::array<uint8_t, 2> lines_bcd{};         // the counter as the game keeps it
    uint32_t lines = 0;
    uint32_t score = 0;
    uint8_t playState = 0;
    uint8_t frame_phase = 0;      // frameCounter % 4 (it paces the line clear and the curtain)
    uint8_t fallTimer = 0;        // frames since the piece last fell (visible as its rhythm)
    uint8_t autorepeatX = 0;      // the player's own DAS charge
    uint8_t autorepeatY = 0;      // the player's own soft-drop counter
    uint8_t heldButtons = 0;      // what the player held last frame
    bool active = false;          // a piece is under control this frame
    bool paused = false;
    GameStatus status = GameStatus::Playing;
};
PlayerView view_of(const GameState& state);

// A player chooses the buttons to hold in the coming frame from the view at the frame boundary.
class Player {
public:
    virtual ~Player() = default;
    virtual uint8_t buttons(const PlayerView& view) = 0;
    virtual std::string name() const = 0;
};

// ---- input movies --------------------------------------------------------------------------
// A movie is the held buttons of consecutive frames, starting with the first frame stepped from
// the start state. Text form: the line "nestris-movie 1", then one line per frame with the eight
// buttons in the order R L D U T(start) S(select) B A, each its letter when held or '.' when not,
// optionally followed by "*N" to repeat it N times (1-10 000 000). '#' starts a comment.
struct Movie {
    std::vector<uint8_t> frames;
};
// Throws std::runtime_error naming the line and the problem.
Movie parse_movie(const std::string& text);
Movie load_movie_file(const std::string& path);
std::string movie_to_text(const Movie& movie);  // runs of equal frames use "*N"
std::string buttons_to_string(uint8_t buttons);  // "R.D....A"

// Plays a movie; past its end it holds nothing.
class MoviePlayer final : public Player {
public:
    explicit MoviePlayer(Movie movie) : movie_(std::move(movie)) {}
    uint8_t buttons(const PlayerView& view) override;
    std::string name() const override { return "movie"; }

private:
    Movie movie_;
    std::size_t next_ = 0;
};

// The scripted player: no moves, every piece soft-dropped from its spawn point. Down has to be a
// new press for each piece (the game ignores a Down held through a spawn), so it lets go of Down
// for one frame whenever a new piece appears while Down is held.
class DropAtSpawnPlayer final : public Player {
public:
    uint8_t buttons(const PlayerView& view) override;
    std::string name() const override { return "drop"; }
};

}  // namespace nestris
