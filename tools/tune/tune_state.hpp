// nestris-tune's state file: the particle swarm, saved after every iteration and read back to
// resume. Text, one record a line:
//   nestris-tune-state 1
//   ITERATION BEST_F RNG_STATE
//   D x1 ... xD                      the swarm's best position (D: the weights tuned)
//   P                                the particles
//   D x1 ... xD / D v1 ... vD / D b1 ... bD / BEST_F     per particle: position, velocity, best
// The reader trusts nothing in the file: every count is checked against the bytes present
// before anything is allocated, every vector must have D values (D > 0), every number must be
// finite, and nothing may follow the last particle.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace nestris::tools {

struct TuneStateError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct TuneParticle {
    std::vector<double> x, v, best_x;
    double best_f = -1e300;  // -1e300: not evaluated yet
    bool operator==(const TuneParticle&) const = default;
};

struct TuneSwarm {
    int iteration = 0;
    std::vector<TuneParticle> particles;
    std::vector<double> best_x;
    double best_f = -1e300;
    uint64_t rng_state = 1;
    bool operator==(const TuneSwarm&) const = default;
};

// The text of a state file; reads back as the same swarm (17 significant digits).
std::string tune_state_to_text(const TuneSwarm& swarm);
// Parses a state file's text; throws TuneStateError saying what is wrong.
TuneSwarm tune_state_from_text(std::string_view text);
// Reads a state file with the shared reader (file_io.hpp: regular files only, at most
// kMaxTextInput bytes) and parses it; errors name the file.
TuneSwarm read_tune_state(const std::filesystem::path& path);

}  // namespace nestris::tools
