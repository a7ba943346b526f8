// Piece geometry in the form the search uses: per orientation, the horizontal extent and for each
// column the lowest and highest cell; per piece type, the orientations reachable by rotation
// presses in the search order of AI_DESIGN.md (none, A, A+A, B).
#pragma once

#include "ai-reference/model/pieces.hpp"

#include <array>
#include <cstdint>

namespace nestris::ai {

struct Shape {
    std::array<int8_t, 4> cell_dx{}, cell_dy{};
    int8_t min_dx = 0, max_dx = 0;
    std::array<int8_t, 4> bottom_dy{};  // per column offset j = dx - min_dx: lowest cell
    std::array<int8_t, 4> top_dy{};     // per column offset: highest cell
    uint8_t width() const { return static_cast<uint8_t>(max_dx - min_dx + 1); }
};

struct RotationChoice {
    uint8_t orientation = 0;
    uint8_t presses = 0;  // 0, 1 or 2
    bool ccw = false;     // B (counter-clockwise) instead of A
};

struct TypeRotations {
    uint8_t count = 0;
    std::array<RotationChoice, 4> choice{};
};

inline constexpr int kPieceTypes = kPieceTypeCount;  // the model's (pieces.hpp)
inline constexpr int kOrientations = kOrientationCount;

const Shape& shape(uint8_t orientation);
const TypeRotations& rotations(uint8_t piece_type);
uint8_t spawn_orientation(uint8_t piece_type);
uint8_t type_of_orientation(uint8_t orientation);
// The orientation after one press of A (clockwise) or B (counter-clockwise).
uint8_t rotate(uint8_t orientation, bool ccw);

}  // namespace nestris::ai
