#include "ram_map.hpp"

#include "cart_image.hpp"
#include "state_io.hpp"

#include <stdexcept>
#include <string>

namespace nestris {
namespace {

RamMap resolve() {
    const CartImage& cart = shipped_cart();
    auto at = [&](const char* name) { return cart.require(name); };
    RamMap m{};
    m.tetriminoX = at("tetriminoX");
    m.tetriminoY = at("tetriminoY");
    m.currentPiece = at("currentPiece");
    m.levelNumber = at("levelNumber");
    m.fallTimer = at("fallTimer");
    m.autorepeatX = at("autorepeatX");
    m.startLevel = at("startLevel");
    m.playState = at("playState");
    m.vramRow = at("vramRow");
    m.completedRow = at("completedRow");
    m.autorepeatY = at("autorepeatY");
    m.holdDownPoints = at("holdDownPoints");
    m.lines = at("lines");
    m.rowY = at("rowY");
    m.score = at("score");
    m.completedLines = at("completedLines");
    m.lineIndex = at("lineIndex");
    m.curtainRow = at("curtainRow");
    m.startHeight = at("startHeight");
    m.garbageHole = at("garbageHole");
    m.player1_offset = static_cast<uint16_t>(at("player1_state") - m.tetriminoX);
    m.rngSeed = at("rngSeed");
    m.spawnID = at("spawnID");
    m.spawnCount = at("spawnCount");
    m.frameCounter = at("frameCounter");
    m.nextPiece = at("nextPiece");
    m.gameMode = at("gameMode");
    m.gameType = at("gameType");
    m.gameModeState = at("gameModeState");
    m.renderMode = at("renderMode");
    m.numberOfPlayers = at("numberOfPlayers");
    m.displayNextPiece = at("displayNextPiece");
    m.newlyPressedButtons = at("newlyPressedButtons");
    m.heldButtons = at("heldButtons");
    m.newlyPressedButtons_player1 = at("newlyPressedButtons_player1");
    m.heldButtons_player1 = at("heldButtons_player1");
    m.statsByType = at("statsByType");
    m.lineClearStatsByType = at("lineClearStatsByType");
    m.playfield = at("playfield");
    return m;
}

constexpr uint8_t kGameModePlay = 4;

}  // namespace

const RamMap& ram_map() {
    static const RamMap map = resolve();
    return map;
}

GameState from_ram(std::span<const uint8_t, kCpuRamSize> ram) {
    const RamMap& m = ram_map();
    auto byte = [&](uint16_t address) -> uint8_t {
        if (address >= kCpuRamSize)
            throw std::runtime_error("game address " + std::to_string(address) + " is not RAM");
        return ram[address];
    };
    auto p1 = [&](uint16_t active_address) {
        return byte(static_cast<uint16_t>(active_address + m.player1_offset));
    };

    if (byte(m.gameMode) != kGameModePlay)
        throw std::runtime_error("RAM is not in a game (gameMode " + std::to_string(byte(m.gameMode)) +
                                 ", expected 4)");
    if (byte(m.numberOfPlayers) != 1)
        throw std::runtime_error("RAM holds a " + std::to_string(byte(m.numberOfPlayers)) +
                                 "-player game; the model covers 1-player games");

    GameState s;
    s.tetriminoX = p1(m.tetriminoX);
    s.tetriminoY = p1(m.tetriminoY);
    s.currentPiece = p1(m.currentPiece);
    s.levelNumber = p1(m.levelNumber);
    s.fallTimer = p1(m.fallTimer);
    s.autorepeatX = p1(m.autorepeatX);
    s.startLevel = p1(m.startLevel);
    s.playState = p1(m.playState);
    s.vramRow = p1(m.vramRow);
    for (uint16_t i = 0; i < 4; ++i) s.completedRow[i] = p1(static_cast<uint16_t>(m.completedRow + i));
    s.autorepeatY = p1(m.autorepeatY);
    s.holdDownPoints = p1(m.holdDownPoints);
    for (uint16_t i = 0; i < 2; ++i) s.lines[i] = p1(static_cast<uint16_t>(m.lines + i));
    s.rowY = p1(m.rowY);
    for (uint16_t i = 0; i < 3; ++i) s.score[i] = p1(static_cast<uint16_t>(m.score + i));
    s.completedLines = p1(m.completedLines);
    s.lineIndex = p1(m.lineIndex);
    s.curtainRow = p1(m.curtainRow);
    s.startHeight = p1(m.startHeight);
    s.garbageHole = p1(m.garbageHole);

    s.rngSeed = static_cast<uint16_t>(byte(m.rngSeed) << 8 | byte(static_cast<uint16_t>(m.rngSeed + 1)));
    s.spawnID = byte(m.spawnID);
    s.spawnCount = byte(m.spawnCount);
    s.frameCounter = static_cast<uint16_t>(byte(static_cast<uint16_t>(m.frameCounter + 1)) << 8 |
                                           byte(m.frameCounter));
    s.nextPiece = byte(m.nextPiece);
    s.gameType = byte(m.gameType);
    s.gameModeState = byte(m.gameModeState);
    s.renderMode = byte(m.renderMode);
    s.displayNextPiece = byte(m.displayNextPiece);
    s.newlyPressedButtons = byte(m.newlyPressedButtons_player1);
    s.heldButtons = byte(m.heldButtons_player1);
    for (uint16_t i = 0; i < s.statsByType.size(); ++i)
        s.statsByType[i] = byte(static_cast<uint16_t>(m.statsByType + i));
    for (uint16_t i = 0; i < s.lineClearStatsByType.size(); ++i)
        s.lineClearStatsByType[i] = byte(static_cast<uint16_t>(m.lineClearStatsByType + i));
    for (uint16_t i = 0; i < kPlayfieldPageSize; ++i)
        s.playfield[i] = byte(static_cast<uint16_t>(m.playfield + i));
    s.status = GameStatus::Playing;

    const std::vector<std::string> problems = validate(s);
    if (!problems.empty())
        throw std::runtime_error("RAM does not hold a state the game can be in: " +
                                 join_problems(problems));
    return s;
}

void to_ram(const GameState& s, std::span<uint8_t, kCpuRamSize> ram) {
    const RamMap& m = ram_map();
    auto put = [&](uint16_t address, uint8_t value) {
        if (address >= kCpuRamSize)
            throw std::runtime_error("game address " + std::to_string(address) + " is not RAM");
        ram[address] = value;
    };
    // Both copies of the player block: the NMI reads player 1's, the play code the active one
    // (the game refreshes the active copy from player 1's before reading it).
    auto player = [&](uint16_t active_address, uint8_t value) {
        put(active_address, value);
        put(static_cast<uint16_t>(active_address + m.player1_offset), value);
    };
    player(m.tetriminoX, s.tetriminoX);
    player(m.tetriminoY, s.tetriminoY);
    player(m.currentPiece, s.currentPiece);
    player(m.levelNumber, s.levelNumber);
    player(m.fallTimer, s.fallTimer);
    player(m.autorepeatX, s.autorepeatX);
    player(m.startLevel, s.startLevel);
    player(m.playState, s.playState);
    player(m.vramRow, s.vramRow);
    for (uint16_t i = 0; i < 4; ++i) player(static_cast<uint16_t>(m.completedRow + i), s.completedRow[i]);
    player(m.autorepeatY, s.autorepeatY);
    player(m.holdDownPoints, s.holdDownPoints);
    for (uint16_t i = 0; i < 2; ++i) player(static_cast<uint16_t>(m.lines + i), s.lines[i]);
    player(m.rowY, s.rowY);
    for (uint16_t i = 0; i < 3; ++i) player(static_cast<uint16_t>(m.score + i), s.score[i]);
    player(m.completedLines, s.completedLines);
    player(m.lineIndex, s.lineIndex);
    player(m.curtainRow, s.curtainRow);
    player(m.startHeight, s.startHeight);
    player(m.garbageHole, s.garbageHole);

    put(m.rngSeed, static_cast<uint8_t>(s.rngSeed >> 8));
    put(static_cast<uint16_t>(m.rngSeed + 1), static_cast<uint8_t>(s.rngSeed & 0xFF));
    put(m.spawnID, s.spawnID);
    put(m.spawnCount, s.spawnCount);
    put(m.frameCounter, static_cast<uint8_t>(s.frameCounter & 0xFF));
    put(static_cast<uint16_t>(m.frameCounter + 1), static_cast<uint8_t>(s.frameCounter >> 8));
    put(m.nextPiece, s.nextPiece);
    put(m.gameMode, kGameModePlay);
    put(m.numberOfPlayers, 1);
    put(m.gameType, s.gameType);
    put(m.gameModeState, s.gameModeState);
    put(m.renderMode, s.renderMode);
    put(m.displayNextPiece, s.displayNextPiece);
    put(m.newlyPressedButtons_player1, s.newlyPressedButtons);
    put(m.heldButtons_player1, s.heldButtons);
    put(m.newlyPressedButtons, s.newlyPressedButtons);
    put(m.heldButtons, s.heldButtons);
    for (uint16_t i = 0; i < s.statsByType.size(); ++i)
        put(static_cast<uint16_t>(m.statsByType + i), s.statsByType[i]);
    for (uint16_t i = 0; i < s.lineClearStatsByType.size(); ++i)
        put(static_cast<uint16_t>(m.lineClearStatsByType + i), s.lineClearStatsByType[i]);
    for (uint16_t i = 0; i < kPlayfieldPageSize; ++i)
        put(static_cast<uint16_t>(m.playfield + i), s.playfield[i]);
}

}  // namespace nestris
