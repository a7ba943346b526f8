// nestris-tune's state files: refused with TuneStateError or read, never a crash or an
// allocation the bytes do not justify; a state read writes back to text that reads as the same
// swarm.
#include "tools/tune/tune_state.hpp"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace nestris::tools;
    TuneSwarm swarm;
    try {
        swarm = tune_state_from_text(std::string_view(reinterpret_cast<const char*>(data), size));
    } catch (const TuneStateError&) {
        return 0;
    }
    if (swarm.best_x.empty() || swarm.particles.empty()) std::abort();
    for (const TuneParticle& p : swarm.particles)
        if (p.x.size() != swarm.best_x.size() || p.v.size() != swarm.best_x.size() ||
            p.best_x.size() != swarm.best_x.size())
            std::abort();
    if (!(tune_state_from_text(tune_state_to_text(swarm)) == swarm)) std::abort();
    return 0;
}
