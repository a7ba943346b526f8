// The tetrimino tables of NES Tetris, in the game's own numbering: orientation ids 0-18
// (0x13 = "no piece"), piece types in the order T J Z O S L I. This header is the single source
// of these tables for the C++ side; the cartridge side gets an asm include generated from it.
//
// Geometry: every orientation is four cells (dx, dy) around the pivot (tetriminoX, tetriminoY);
// x grows to the right, y grows downwards, row 0 is the top visible row of the playfield and
// rows -1/-2 are the two hidden rows above it.
#pragma once

#include "game/tetris_map.hpp"

#include <array>
#include <cstdint>
#include <string_view>

namespace nestris {

inline constexpr int kPieceTypeCount = 7;
inline constexpr int kOrientationCount = 19;
// The game's "no piece" orientation: the active piece during line clears and the curtain.
inline constexpr uint8_t kOrientationHidden = tetris::PIECE_NONE;

enum class PieceType : uint8_t { T = 0, J = 1, Z = 2, O = 3, S = 4, L = 5, I = 6 };

inline constexpr std::array<char, kPieceTypeCount> kPieceLetters{'T', 'J', 'Z', 'O', 'S', 'L', 'I'};

// Orientation ids, named as in the public write-ups of the game (seed 000).
namespace orient {
inline constexpr uint8_t tUp = 0x00, tRight = 0x01, tDown = 0x02, tLeft = 0x03;
inline constexpr uint8_t jLeft = 0x04, jUp = 0x05, jRight = 0x06, jDown = 0x07;
inline constexpr uint8_t zHoriz = 0x08, zVert = 0x09;
inline constexpr uint8_t oFixed = 0x0A;
inline constexpr uint8_t sHoriz = 0x0B, sVert = 0x0C;
inline constexpr uint8_t lRight = 0x0D, lDown = 0x0E, lLeft = 0x0F, lUp = 0x10;
inline constexpr uint8_t iVert = 0x11, iHoriz = 0x12;
}  // namespace orient

inline constexpr std::array<std::string_view, kOrientationCount> kOrientationNames{
    "tUp",  "tRight", "tDown", "tLeft",  "jLeft", "jUp",    "jRight", "jDown", "zHoriz", "zVert",
    "oFixed", "sHoriz", "sVert", "lRight", "lDown", "lLeft", "lUp",   "iVert", "iHoriz"};

struct Cell {
    int8_t dx;
    int8_t dy;
    friend constexpr bool operator==(Cell, Cell) = default;
};

// The four cells of each orientation, in the order the game walks them (it matters only for
// the order in which the game writes tiles, which is not observable; kept for fidelity).
inline constexpr std::array<std::array<Cell, 4>, kOrientationCount> kOrientationCells{{
    {{{-1, 0}, {0, 0}, {1, 0}, {0, -1}}},   // tUp
    {{{0, -1}, {0, 0}, {1, 0}, {0, 1}}},    // tRight
    {{{-1, 0}, {0, 0}, {1, 0}, {0, 1}}},    // tDown (spawn)
    {{{0, -1}, {-1, 0}, {0, 0}, {0, 1}}},   // tLeft
    {{{0, -1}, {0, 0}, {-1, 1}, {0, 1}}},   // jLeft
    {{{-1, -1}, {-1, 0}, {0, 0}, {1, 0}}},  // jUp
    {{{0, -1}, {1, -1}, {0, 0}, {0, 1}}},   // jRight
    {{{-1, 0}, {0, 0}, {1, 0}, {1, 1}}},    // jDown (spawn)
    {{{-1, 0}, {0, 0}, {0, 1}, {1, 1}}},    // zHoriz (spawn)
    {{{1, -1}, {0, 0}, {1, 0}, {0, 1}}},    // zVert
    {{{-1, 0}, {0, 0}, {-1, 1}, {0, 1}}},   // oFixed (spawn)
    {{{0, 0}, {1, 0}, {-1, 1}, {0, 1}}},    // sHoriz (spawn)
    {{{0, -1}, {0, 0}, {1, 0}, {1, 1}}},    // sVert
    {{{0, -1}, {0, 0}, {0, 1}, {1, 1}}},    // lRight
    {{{-1, 0}, {0, 0}, {1, 0}, {-1, 1}}},   // lDown (spawn)
    {{{-1, -1}, {0, -1}, {0, 0}, {0, 1}}},  // lLeft
    {{{1, -1}, {-1, 0}, {0, 0}, {1, 0}}},   // lUp
    {{{0, -2}, {0, -1}, {0, 0}, {0, 1}}},   // iVert
    {{{-2, 0}, {-1, 0}, {0, 0}, {1, 0}}},   // iHoriz (spawn)
}};

// Background tiles the game writes into the playfield.
inline constexpr uint8_t kTileEmpty = tetris::EMPTY_TILE;
inline constexpr uint8_t kTileBlockA = 0x7B;  // T, O, I: white block, colour 1 outline
inline constexpr uint8_t kTileBlockB = 0x7C;  // Z, L: colour 2
inline constexpr uint8_t kTileBlockC = 0x7D;  // J, S: colour 3
inline constexpr uint8_t kTileCurtain = 0x4F;  // the game-over curtain

inline constexpr std::array<uint8_t, kPieceTypeCount> kTileOfType{
    kTileBlockA, kTileBlockC, kTileBlockB, kTileBlockA, kTileBlockC, kTileBlockB, kTileBlockA};

inline constexpr std::array<uint8_t, kOrientationCount> kTypeOfOrientation{
    0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 4, 4, 5, 5, 5, 5, 6, 6};

// Button A turns clockwise, button B counter-clockwise.
inline constexpr std::array<uint8_t, kOrientationCount> kRotateClockwise{
    orient::tRight, orient::tDown,  orient::tLeft,  orient::tUp,    // T
    orient::jUp,    orient::jRight, orient::jDown,  orient::jLeft,  // J
    orient::zVert,  orient::zHoriz,                                 // Z
    orient::oFixed,                                                 // O
    orient::sVert,  orient::sHoriz,                                 // S
    orient::lDown,  orient::lLeft,  orient::lUp,    orient::lRight, // L
    orient::iHoriz, orient::iVert};                                 // I
inline constexpr std::array<uint8_t, kOrientationCount> kRotateCounterClockwise{
    orient::tLeft,  orient::tUp,    orient::tRight, orient::tDown,  // T
    orient::jDown,  orient::jLeft,  orient::jUp,    orient::jRight, // J
    orient::zVert,  orient::zHoriz,                                 // Z
    orient::oFixed,                                                 // O
    orient::sVert,  orient::sHoriz,                                 // S
    orient::lUp,    orient::lRight, orient::lDown,  orient::lLeft,  // L
    orient::iHoriz, orient::iVert};                                 // I

// The orientation a piece of each type spawns in (also the game's "spawn table" of the picker).
inline constexpr std::array<uint8_t, kPieceTypeCount> kSpawnOrientation{
    orient::tDown, orient::jDown, orient::zHoriz, orient::oFixed,
    orient::sHoriz, orient::lDown, orient::iHoriz};

inline constexpr uint8_t kSpawnX = 5;
inline constexpr uint8_t kSpawnY = 0;

inline constexpr uint8_t spawn_orientation_of(uint8_t orientation) {
    return kSpawnOrientation[kTypeOfOrientation[orientation]];
}
inline constexpr bool is_orientation(uint8_t id) { return id < kOrientationCount; }
inline constexpr bool is_spawn_orientation(uint8_t id) {
    for (uint8_t o : kSpawnOrientation)
        if (o == id) return true;
    return false;
}

// Frames per gravity drop (NTSC) for levels 0-28; from level 29 on the game uses 1 without a
// table lookup.
inline constexpr std::array<uint8_t, 29> kFramesPerDrop{
    48, 43, 38, 33, 28, 23, 18, 13, 8, 6,  // 0-9
    5,  5,  5,  4,  4,  4,  3,  3,  3,     // 10-18
    2,  2,  2,  2,  2,  2,  2,  2,  2,  2};  // 19-28
inline constexpr uint8_t frames_per_drop(uint8_t level) {
    return level < kFramesPerDrop.size() ? kFramesPerDrop[level] : 1;
}

// Controller bits as the game stores them (newly pressed / held): tetris::BUTTON_* (game/tetris.inc).
inline constexpr uint8_t kDpadButtons =
    tetris::BUTTON_RIGHT | tetris::BUTTON_LEFT | tetris::BUTTON_DOWN | tetris::BUTTON_UP;

// Tables must agree with each other; checked at compile time.
namespace detail {
constexpr bool rotations_are_inverse() {
    for (int o = 0; o < kOrientationCount; ++o) {
        if (kRotateCounterClockwise[kRotateClockwise[o]] != o) return false;
        if (kTypeOfOrientation[kRotateClockwise[o]] != kTypeOfOrientation[o]) return false;
    }
    return true;
}
constexpr bool spawn_orientations_match_types() {
    for (int t = 0; t < kPieceTypeCount; ++t)
        if (kTypeOfOrientation[kSpawnOrientation[t]] != t) return false;
    return true;
}
}  // namespace detail
static_assert(detail::rotations_are_inverse());
static_assert(detail::spawn_orientations_match_types());

}  // namespace nestris
