#include "ai-reference/ai/ai_geometry.hpp"

#include "ai-reference/model/pieces.hpp"

#include <algorithm>

namespace nestris::ai {
namespace {

struct Tables {
    std::array<Shape, kOrientations> shapes{};
    std::array<TypeRotations, kPieceTypes> rotations{};
};

Shape make_shape(uint8_t orientation) {
    Shape s;
    const auto& cells = kOrientationCells[orientation];
    s.min_dx = 127;
    s.max_dx = -128;
    for (int i = 0; i < 4; ++i) {
        s.cell_dx[i] = cells[i].dx;
        s.cell_dy[i] = cells[i].dy;
        s.min_dx = std::min(s.min_dx, cells[i].dx);
        s.max_dx = std::max(s.max_dx, cells[i].dx);
    }
    s.bottom_dy.fill(-128);
    s.top_dy.fill(127);
    for (int i = 0; i < 4; ++i) {
        const int j = cells[i].dx - s.min_dx;
        s.bottom_dy[j] = std::max(s.bottom_dy[j], cells[i].dy);
        s.top_dy[j] = std::min(s.top_dy[j], cells[i].dy);
    }
    return s;
}

Tables make_tables() {
    Tables t;
    for (uint8_t o = 0; o < kOrientations; ++o) t.shapes[o] = make_shape(o);
    for (uint8_t type = 0; type < kPieceTypes; ++type) {
        TypeRotations& r = t.rotations[type];
        const uint8_t spawn = kSpawnOrientation[type];
        auto add = [&](uint8_t orientation, uint8_t presses, bool ccw) {
            for (uint8_t i = 0; i < r.count; ++i)
                if (r.choice[i].orientation == orientation) return;
            r.choice[r.count++] = {orientation, presses, ccw};
        };
        const uint8_t a = kRotateClockwise[spawn];
        const uint8_t aa = kRotateClockwise[a];
        const uint8_t b = kRotateCounterClockwise[spawn];
        add(spawn, 0, false);
        add(a, 1, false);
        add(aa, 2, false);
        add(b, 1, true);
    }
    return t;
}

const Tables& tables() {
    static const Tables t = make_tables();
    return t;
}

}  // namespace

const Shape& shape(uint8_t orientation) { return tables().shapes[orientation]; }
const TypeRotations& rotations(uint8_t piece_type) { return tables().rotations[piece_type]; }
uint8_t spawn_orientation(uint8_t piece_type) { return kSpawnOrientation[piece_type]; }
uint8_t type_of_orientation(uint8_t orientation) { return kTypeOfOrientation[orientation]; }
uint8_t rotate(uint8_t orientation, bool ccw) {
    return ccw ? kRotateCounterClockwise[orientation] : kRotateClockwise[orientation];
}

}  // namespace nestris::ai
