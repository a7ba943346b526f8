// The game's pseudo-random number generator and its piece picker.
//
// rngSeed is the 16-bit value (byte rngSeed << 8) | byte rngSeed+1, i.e. the two RAM bytes read
// big endian. One step is a Fibonacci LFSR shifting right: the new top bit is bit 9 XOR bit 1
// (bit 1 of each byte). It has period 32767 over the non-zero values. The game steps it once in
// every NMI (every frame, menus included) and extra times when it picks pieces, garbage holes and
// B-Type garbage.
#pragma once

#include "ai-reference/model/pieces.hpp"

#include <cstdint>

namespace nestris {

inline constexpr uint16_t kPowerOnRngSeed = 0x8988;  // written by the game's RAM init

inline constexpr uint16_t rng_step(uint16_t seed) {
    const unsigned feedback = ((seed >> 9) ^ (seed >> 1)) & 1u;
    return static_cast<uint16_t>((feedback << 15) | (seed >> 1));
}

inline constexpr uint8_t rng_high_byte(uint16_t seed) { return static_cast<uint8_t>(seed >> 8); }

// The 1-player piece pick (called at each spawn, twice at the start of a game). Returns the spawn
// orientation of the chosen piece and updates the picker's memory exactly as the game does:
// spawnCount counts calls (wrapping), spawnID remembers the last result. A first draw uses the
// RNG as it is plus spawnCount; if that draw is the unused index 7 or repeats the last piece, the
// RNG is stepped once and a second draw (RNG + last piece id, mod 7) is taken without check.
inline constexpr uint8_t pick_next_piece(uint16_t& rngSeed, uint8_t& spawnID, uint8_t& spawnCount) {
    spawnCount = static_cast<uint8_t>(spawnCount + 1);
    const unsigned first = (rng_high_byte(rngSeed) + spawnCount) & 7u;
    if (first != 7 && kSpawnOrientation[first] != spawnID) {
        spawnID = kSpawnOrientation[first];
        return spawnID;
    }
    rngSeed = rng_step(rngSeed);
    // An 8-bit sum (only matters for a spawnID that is not an orientation id), then the game
    // subtracts 7 until the value is below 7.
    const unsigned second = ((rng_high_byte(rngSeed) & 7u) + spawnID) % 256u % 7u;
    spawnID = kSpawnOrientation[second];
    return spawnID;
}

}  // namespace nestris
