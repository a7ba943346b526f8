#include "ai-reference/model/ram_map.hpp"

#include "ai-reference/model/state_io.hpp"
#include "game/tetris_map.hpp"

#include <stdexcept>
#include <string>

namespace nestris {
namespace {

namespace t = tetris;

}  // namespace

GameState from_ram(std::span<const uint8_t, kCpuRamSize> ram) {
    auto byte = [&](uint16_t address) -> uint8_t {
        if (address >= kCpuRamSize)
            throw std::runtime_error("game address " + std::to_string(address) + " is not RAM");
        return ram[address];
    };
    auto p1 = [&](uint16_t active_address) {
        return byte(static_cast<uint16_t>(active_address + kPlayer1Offset));
    };

    if (byte(t::gameMode) != t::GAME_MODE_PLAY)
        throw std::runtime_error("RAM is not in a game (gameMode " + std::to_string(byte(t::gameMode)) +
                                 ", expected 4)");
    if (byte(t::numberOfPlayers) != 1)
        throw std::runtime_error("RAM holds a " + std::to_string(byte(t::numberOfPlayers)) +
                                 "-player game; the model covers 1-player games");

    GameState s;
    s.tetriminoX = p1(t::tetriminoX);
    s.tetriminoY = p1(t::tetriminoY);
    s.currentPiece = p1(t::currentPiece);
    s.levelNumber = p1(t::levelNumber);
    s.fallTimer = p1(t::fallTimer);
    s.autorepeatX = p1(t::autorepeatX);
    s.startLevel = p1(t::startLevel);
    s.playState = p1(t::playState);
    s.vramRow = p1(t::vramRow);
    for (uint16_t i = 0; i < 4; ++i) s.completedRow[i] = p1(static_cast<uint16_t>(t::completedRow + i));
    s.autorepeatY = p1(t::autorepeatY);
    s.holdDownPoints = p1(t::holdDownPoints);
    for (uint16_t i = 0; i < 2; ++i) s.lines[i] = p1(static_cast<uint16_t>(t::lines + i));
    s.rowY = p1(t::rowY);
    for (uint16_t i = 0; i < 3; ++i) s.score[i] = p1(static_cast<uint16_t>(t::score + i));
    s.completedLines = p1(t::completedLines);
    s.lineIndex = p1(t::lineIndex);
    s.curtainRow = p1(t::curtainRow);
    s.startHeight = p1(t::startHeight);
    s.garbageHole = p1(t::garbageHole);

    s.rngSeed = static_cast<uint16_t>(byte(t::rngSeed) << 8 | byte(static_cast<uint16_t>(t::rngSeed + 1)));
    s.spawnID = byte(t::spawnID);
    s.spawnCount = byte(t::spawnCount);
    s.frameCounter = static_cast<uint16_t>(byte(static_cast<uint16_t>(t::frameCounter + 1)) << 8 |
                                           byte(t::frameCounter));
    s.nextPiece = byte(t::nextPiece);
    s.gameType = byte(t::gameType);
    s.gameModeState = byte(t::gameModeState);
    s.renderMode = byte(t::renderMode);
    s.displayNextPiece = byte(t::displayNextPiece);
    s.newlyPressedButtons = byte(t::newlyPressedButtons_player1);
    s.heldButtons = byte(t::heldButtons_player1);
    for (uint16_t i = 0; i < s.statsByType.size(); ++i)
        s.statsByType[i] = byte(static_cast<uint16_t>(t::statsByType + i));
    for (uint16_t i = 0; i < s.lineClearStatsByType.size(); ++i)
        s.lineClearStatsByType[i] = byte(static_cast<uint16_t>(t::lineClearStatsByType + i));
    for (uint16_t i = 0; i < kPlayfieldPageSize; ++i)
        s.playfield[i] = byte(static_cast<uint16_t>(t::playfield + i));
    s.status = GameStatus::Playing;

    const std::vector<std::string> problems = validate(s);
    if (!problems.empty())
        throw std::runtime_error("RAM does not hold a state the game can be in: " +
                                 join_problems(problems));
    return s;
}

void to_ram(const GameState& s, std::span<uint8_t, kCpuRamSize> ram) {
    auto put = [&](uint16_t address, uint8_t value) {
        if (address >= kCpuRamSize)
            throw std::runtime_error("game address " + std::to_string(address) + " is not RAM");
        ram[address] = value;
    };
    // Both copies of the player block: the NMI reads player 1's, the play code the active one
    // (the game refreshes the active copy from player 1's before reading it).
    auto player = [&](uint16_t active_address, uint8_t value) {
        put(active_address, value);
        put(static_cast<uint16_t>(active_address + kPlayer1Offset), value);
    };
    player(t::tetriminoX, s.tetriminoX);
    player(t::tetriminoY, s.tetriminoY);
    player(t::currentPiece, s.currentPiece);
    player(t::levelNumber, s.levelNumber);
    player(t::fallTimer, s.fallTimer);
    player(t::autorepeatX, s.autorepeatX);
    player(t::startLevel, s.startLevel);
    player(t::playState, s.playState);
    player(t::vramRow, s.vramRow);
    for (uint16_t i = 0; i < 4; ++i) player(static_cast<uint16_t>(t::completedRow + i), s.completedRow[i]);
    player(t::autorepeatY, s.autorepeatY);
    player(t::holdDownPoints, s.holdDownPoints);
    for (uint16_t i = 0; i < 2; ++i) player(static_cast<uint16_t>(t::lines + i), s.lines[i]);
    player(t::rowY, s.rowY);
    for (uint16_t i = 0; i < 3; ++i) player(static_cast<uint16_t>(t::score + i), s.score[i]);
    player(t::completedLines, s.completedLines);
    player(t::lineIndex, s.lineIndex);
    player(t::curtainRow, s.curtainRow);
    player(t::startHeight, s.startHeight);
    player(t::garbageHole, s.garbageHole);

    put(t::rngSeed, static_cast<uint8_t>(s.rngSeed >> 8));
    put(static_cast<uint16_t>(t::rngSeed + 1), static_cast<uint8_t>(s.rngSeed & 0xFF));
    put(t::spawnID, s.spawnID);
    put(t::spawnCount, s.spawnCount);
    put(t::frameCounter, static_cast<uint8_t>(s.frameCounter & 0xFF));
    put(static_cast<uint16_t>(t::frameCounter + 1), static_cast<uint8_t>(s.frameCounter >> 8));
    put(t::nextPiece, s.nextPiece);
    put(t::gameMode, t::GAME_MODE_PLAY);
    put(t::numberOfPlayers, 1);
    put(t::gameType, s.gameType);
    put(t::gameModeState, s.gameModeState);
    put(t::renderMode, s.renderMode);
    put(t::displayNextPiece, s.displayNextPiece);
    put(t::newlyPressedButtons_player1, s.newlyPressedButtons);
    put(t::heldButtons_player1, s.heldButtons);
    put(t::newlyPressedButtons, s.newlyPressedButtons);
    put(t::heldButtons, s.heldButtons);
    for (uint16_t i = 0; i < s.statsByType.size(); ++i)
        put(static_cast<uint16_t>(t::statsByType + i), s.statsByType[i]);
    for (uint16_t i = 0; i < s.lineClearStatsByType.size(); ++i)
        put(static_cast<uint16_t>(t::lineClearStatsByType + i), s.lineClearStatsByType[i]);
    for (uint16_t i = 0; i < kPlayfieldPageSize; ++i)
        put(static_cast<uint16_t>(t::playfield + i), s.playfield[i]);
}

}  // namespace nestris
