#include "tools/cli/results_chart.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace nestris {

Histogram make_histogram(std::span<const uint32_t> values, uint32_t max_bins) {
    if (max_bins == 0) throw std::invalid_argument("a histogram needs at least one bin");
    Histogram h;
    const uint32_t largest = values.empty() ? 0 : *std::max_element(values.begin(), values.end());
    // The smallest width with largest / width < max_bins (64-bit: largest may be near 2^32).
    h.bin_width = static_cast<uint32_t>(std::max<uint64_t>(1, (uint64_t{largest} + max_bins) / max_bins));
    h.counts.assign(largest / h.bin_width + 1, 0);
    for (const uint32_t v : values) ++h.counts[v / h.bin_width];
    return h;
}

namespace {

constexpr uint32_t kBackground = 0x101010, kText = 0xF0F0F0, kDim = 0x909090, kAxis = 0x606060;
constexpr int kPanelWidth = 324, kPanelHeight = 112, kBarsX = 12, kBarsTop = 24, kBarsHeight = 70;
constexpr uint32_t kMaxBins = 60;  // 5 logical pixels a bar across the panel's 300

std::string mean_text(std::span<const uint32_t> values) {
    double sum = 0;
    for (const uint32_t v : values) sum += v;
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", values.empty() ? 0.0 : sum / static_cast<double>(values.size()));
    return text;
}

void draw_panel(Canvas& c, int top, const char* what, std::span<const uint32_t> values, uint32_t colour) {
    const Histogram h = make_histogram(values, kMaxBins);
    c.text(kBarsX, top + 4, std::string(what) + ": " + std::to_string(values.size()) + " GAMES, MEAN " + mean_text(values),
           kText);
    const uint32_t most = *std::max_element(h.counts.begin(), h.counts.end());
    c.text(kBarsX, top + 14, "MOST " + std::to_string(most) + " A BAR", kDim);
    const int bars = static_cast<int>(h.counts.size());
    const int bar_width = std::max(1, 300 / bars);
    const int base = top + kBarsTop + kBarsHeight;
    for (int i = 0; i < bars; ++i) {
        const uint32_t n = h.counts[static_cast<std::size_t>(i)];
        // A bin with games is never drawn empty: at least a pixel high.
        const int height = n == 0 ? 0 : std::max(1, static_cast<int>((uint64_t{n} * kBarsHeight + most - 1) / most));
        c.rect(kBarsX + i * bar_width, base - height, std::max(1, bar_width - 1), height, colour);
    }
    c.rect(kBarsX, base, bars * bar_width, 1, kAxis);
    c.text(kBarsX, base + 4, "0", kDim);
    const std::string last = std::to_string(uint64_t{h.bin_width} * static_cast<uint64_t>(bars) - 1);
    c.text(kBarsX + bars * bar_width - Canvas::text_width(last), base + 4, last, kDim);
}

}  // namespace

Canvas results_chart(const std::vector<GameResult>& results) {
    if (results.empty()) throw std::invalid_argument("no games to chart");
    std::vector<uint32_t> lines, scores, levels;
    for (const GameResult& r : results) {
        lines.push_back(r.lines);
        scores.push_back(r.score);
        levels.push_back(r.level);
    }
    Canvas c(kPanelWidth, 3 * kPanelHeight, 2);
    c.rect(0, 0, kPanelWidth, 3 * kPanelHeight, kBackground);
    draw_panel(c, 0, "LINES", lines, 0x58D854);
    draw_panel(c, kPanelHeight, "SCORE", scores, 0x3CBCFC);
    draw_panel(c, 2 * kPanelHeight, "LEVEL", levels, 0xF87858);
    return c;
}

}  // namespace nestris
