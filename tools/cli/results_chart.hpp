// simulate --histogram: the games' lines as a bar chart, their final scores' and levels' below.
#pragma once

#include "ai-reference/model/simulator.hpp"
#include "base/canvas.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace nestris {

// Values counted in equal bins from 0: bin i holds [i * width, (i + 1) * width). The width is
// the smallest that puts the largest value in at most `max_bins` bins (at least 1).
struct Histogram {
    uint32_t bin_width = 1;
    std::vector<uint32_t> counts;  // one a bin, the last one holding the largest value
};
Histogram make_histogram(std::span<const uint32_t> values, uint32_t max_bins);

// The chart: three panels (lines, score, level), each its title with the games and the mean,
// its bars, the most games in a bin at the top left and the bins' range under the bars.
// Throws std::invalid_argument for no games.
Canvas results_chart(const std::vector<GameResult>& results);

}  // namespace nestris
