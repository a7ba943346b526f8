#include "ai-reference/model/render.hpp"

#include "base/canvas.hpp"
#include "base/png.hpp"

#include <array>
#include <sstream>
#include <stdexcept>

namespace nestris {
namespace {

// Cells the active piece covers (only while a piece is in play).
std::array<bool, 200> active_cells(const GameState& s) {
    std::array<bool, 200> on{};
    const bool in_play = s.status == GameStatus::Playing && s.currentPiece < kOrientationCount &&
                         (s.playState == tetris::PLAY_STATE_ACTIVE || s.playState == tetris::PLAY_STATE_LOCK);
    if (!in_play) return on;
    for (const Cell c : kOrientationCells[s.currentPiece]) {
        const int x = s.tetriminoX + c.dx, y = s.tetriminoY + c.dy;
        if (x >= 0 && x < kPlayfieldWidth && y >= 0 && y < kPlayfieldHeight)
            on[static_cast<std::size_t>(y * 10 + x)] = true;
    }
    return on;
}

// label + number, appended (GCC 12 warns falsely about "literal" + std::to_string(...)).
std::string labelled(const char* label, uint64_t value) {
    std::string out(label);
    out += std::to_string(value);
    return out;
}

std::string piece_name(uint8_t orientation) {
    if (orientation >= kOrientationCount) return "-";
    return std::string(1, kPieceLetters[kTypeOfOrientation[orientation]]);
}

// The game's play state in words (its number too, for those who read the RAM).
std::string play_state_name(uint8_t play_state) {
    static const char* const kNames[] = {"unassigned",  "piece falling",   "locking",          "checking rows",
                                         "line clear",  "counting lines",  "B-Type goal check", "receiving garbage",
                                         "next piece",  "(9)",             "curtain",          "next state"};
    const std::string name = play_state < std::size(kNames) ? kNames[play_state] : "unknown";
    return name + " (" + std::to_string(play_state) + ")";
}

// The level's block colours (NES palette indices: background, colour 1, 2, 3), by level % 10.
constexpr std::array<std::array<uint8_t, 4>, 10> kLevelColours{{
    {0x0F, 0x30, 0x21, 0x12}, {0x0F, 0x30, 0x29, 0x1A}, {0x0F, 0x30, 0x24, 0x14},
    {0x0F, 0x30, 0x2A, 0x12}, {0x0F, 0x30, 0x2B, 0x15}, {0x0F, 0x30, 0x22, 0x2B},
    {0x0F, 0x30, 0x00, 0x16}, {0x0F, 0x30, 0x05, 0x13}, {0x0F, 0x30, 0x16, 0x12},
    {0x0F, 0x30, 0x27, 0x16},
}};

// A widely used NES palette (RGB per palette index).
constexpr std::array<uint32_t, 64> kNesRgb{
    0x7C7C7C, 0x0000FC, 0x0000BC, 0x4428BC, 0x940084, 0xA80020, 0xA81000, 0x881400,
    0x503000, 0x007800, 0x006800, 0x005800, 0x004058, 0x000000, 0x000000, 0x000000,
    0xBCBCBC, 0x0078F8, 0x0058F8, 0x6844FC, 0xD800CC, 0xE40058, 0xF83800, 0xE45C10,
    0xAC7C00, 0x00B800, 0x00A800, 0x00A844, 0x008888, 0x000000, 0x000000, 0x000000,
    0xF8F8F8, 0x3CBCFC, 0x6888FC, 0x9878F8, 0xF878F8, 0xF85898, 0xF87858, 0xFCA044,
    0xF8B800, 0xB8F818, 0x58D854, 0x58F898, 0x00E8D8, 0x787878, 0x000000, 0x000000,
    0xFCFCFC, 0xA4E4FC, 0xB8B8F8, 0xD8B8F8, 0xF8B8F8, 0xF8A4C0, 0xF0D0B0, 0xFCE0A8,
    0xF8D878, 0xD8F878, 0xB8F8B8, 0xB8F8D8, 0x00FCFC, 0xF8D8F8, 0x000000, 0x000000};

const char* ansi_for_tile(uint8_t tile) {
    switch (tile) {
    case kTileBlockA: return "\x1b[97m";
    case kTileBlockB: return "\x1b[96m";
    case kTileBlockC: return "\x1b[94m";
    case kTileCurtain: return "\x1b[90m";
    default: return "\x1b[33m";
    }
}

// An 8x8 block in the style of the game's three block tiles.
void draw_block(Canvas& c, int x, int y, uint8_t tile, const std::array<uint8_t, 4>& colours) {
    const uint32_t white = kNesRgb[colours[1]], c2 = kNesRgb[colours[2]], c3 = kNesRgb[colours[3]];
    switch (tile) {
    case kTileBlockA:  // white face, coloured frame
        c.rect(x, y, 7, 7, c3);
        c.rect(x + 1, y + 1, 5, 5, white);
        break;
    case kTileBlockB:
        c.rect(x, y, 7, 7, c2);
        c.pixel(x, y, white);
        c.rect(x + 1, y + 1, 2, 2, white);
        break;
    case kTileBlockC:
        c.rect(x, y, 7, 7, c3);
        c.pixel(x, y, white);
        c.rect(x + 1, y + 1, 2, 2, white);
        break;
    case kTileCurtain:
        c.rect(x, y, 7, 7, kNesRgb[0x00]);
        c.rect(x, y + 3, 7, 1, kNesRgb[0x10]);
        break;
    default: break;
    }
}

}  // namespace

std::string render_text(const GameState& s, const TextOptions& o) {
    const std::array<bool, 200> active = active_cells(s);
    const uint8_t active_tile = s.currentPiece < kOrientationCount ? kTileOfType[kTypeOfOrientation[s.currentPiece]] : 0;
    std::ostringstream piece_text, state;
    // No piece in play (between a lock and the next spawn): its last position would mislead.
    if (s.currentPiece < kOrientationCount)
        piece_text << "piece " << piece_name(s.currentPiece) << " at (" << int(s.tetriminoX) << ", "
                   << int(s.tetriminoY) << ")";
    else
        piece_text << "piece none";
    state << "state " << play_state_name(s.playState) << (is_paused(s) ? ", paused" : "");
    if (s.status != GameStatus::Playing) state << ' ' << to_string(s.status);
    std::string next("next  ");
    next += s.displayNextPiece == 0 ? piece_name(s.nextPiece) : std::string("(off)");
    const std::vector<std::string> side{
        labelled("level ", s.levelNumber), labelled("lines ", lines_count(s)),
        labelled("score ", score_value(s)), next, piece_text.str(), state.str(),
        labelled("frame ", s.frameCounter),
    };
    std::ostringstream out;
    const int first = o.hidden_rows ? -2 : 0;
    out << "+----------+\n";
    for (int r = first; r < kPlayfieldHeight; ++r) {
        out << (r < 0 ? ':' : '|');
        for (int c = 0; c < kPlayfieldWidth; ++c) {
            const uint8_t tile = tile_at(s, c, r);
            const bool piece = r >= 0 && active[static_cast<std::size_t>(r * 10 + c)];
            char ch = '.';
            if (piece) {
                ch = '@';
            } else if (tile == kTileCurtain) {
                ch = '=';
            } else if (is_filled_tile(tile)) {
                ch = '#';
            }
            if (o.color && ch != '.') {
                out << ansi_for_tile(piece ? active_tile : tile) << ch << "\x1b[0m";
            } else {
                out << ch;
            }
        }
        out << (r < 0 ? ':' : '|');
        const int line = r - first;
        if (line < static_cast<int>(side.size())) out << "  " << side[static_cast<std::size_t>(line)];
        out << '\n';
    }
    out << "+----------+\n";
    return out.str();
}

RgbImage render_image(const GameState& s, int scale) {
    if (scale < 1 || scale > 16) throw std::invalid_argument("image scale must be 1-16");
    // Layout in 8-pixel cells: a frame around the 10x20 playfield, a side panel 7 cells wide.
    constexpr int kCell = 8, kBoardX = 8, kBoardY = 8, kPanelX = kBoardX + 10 * kCell + 8;
    const int width = kPanelX + 7 * kCell, height = kBoardY + 20 * kCell + 8;
    Canvas c(width, height, scale);
    const auto& colours = kLevelColours[s.levelNumber % 10];
    const uint32_t frame = kNesRgb[0x00], text = kNesRgb[0x30];
    c.rect(0, 0, width, height, kNesRgb[0x0F]);
    c.rect(kBoardX - 2, kBoardY - 2, 10 * kCell + 4, 20 * kCell + 4, frame);
    c.rect(kBoardX, kBoardY, 10 * kCell, 20 * kCell, kNesRgb[0x0F]);
    const std::array<bool, 200> active = active_cells(s);
    const uint8_t active_tile = s.currentPiece < kOrientationCount ? kTileOfType[kTypeOfOrientation[s.currentPiece]] : 0;
    for (int r = 0; r < kPlayfieldHeight; ++r)
        for (int col = 0; col < kPlayfieldWidth; ++col) {
            const bool piece = active[static_cast<std::size_t>(r * 10 + col)];
            const uint8_t tile = piece ? active_tile : tile_at(s, col, r);
            draw_block(c, kBoardX + col * kCell, kBoardY + r * kCell, tile, colours);
        }
    // Counters in words (the panel holds 13 glyphs: "SCORE 999999"), then the next piece.
    c.text(kPanelX, kBoardY, labelled("LINES ", lines_count(s)), text);
    c.text(kPanelX, kBoardY + 8, labelled("SCORE ", score_value(s)), text);
    c.text(kPanelX, kBoardY + 16, labelled("LEVEL ", s.levelNumber), text);
    if (s.displayNextPiece == 0 && s.nextPiece < kOrientationCount) {
        c.text(kPanelX, kBoardY + 28, "NEXT", text);
        const uint8_t tile = kTileOfType[kTypeOfOrientation[s.nextPiece]];
        for (const Cell cell : kOrientationCells[s.nextPiece])
            draw_block(c, kPanelX + 16 + cell.dx * kCell, kBoardY + 44 + cell.dy * kCell, tile, colours);
    }
    const int w = c.width(), h = c.height();
    return RgbImage{w, h, c.take_rgb()};
}

void write_png(const std::string& path, const RgbImage& image) {
    write_png_file(path, image.width, image.height, image.rgb);
}

}  // namespace nestris
