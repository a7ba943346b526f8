// One stats tally: the figures of a quantity over many samples (search cycles, frames
// to a first input, idle cycles of a frame, lines of a game): count, sum, mean, min, max and,
// when the samples are kept, median and percentiles.
//
// Percentiles, two definitions (the tools print both kinds, each keeps its own):
//   percentile(p):      linear interpolation between the closest ranks, at p (n - 1):
//                       v[i] + (v[i + 1] - v[i]) f with i + f = p (n - 1);
//   rank_percentile(p): the sample at rank floor(p (n - 1)) of the sorted samples, no
//                       interpolation (always one of the samples).
// Both: p in [0, 1], 0 on an empty tally; they need the samples (keep_samples).
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <limits>
#include <stdexcept>
#include <vector>

namespace nestris {

template <class T = double>
class Tally {
public:
    // keep_samples: keep every sample, for the median and percentiles (without, the default:
    // only the count, sum, min and max, in constant memory).
    Tally() = default;
    explicit Tally(bool keep_samples) : keep_(keep_samples) {}

    void add(T x) {
        ++count_;
        sum_ += x;
        min_ = std::min(min_, x);
        max_ = std::max(max_, x);
        if (keep_) {
            samples_.push_back(x);
            sorted_ = false;
        }
    }
    // Adds the other tally's samples (the result keeps samples only if both did).
    void merge(const Tally& other) {
        count_ += other.count_;
        sum_ += other.sum_;
        min_ = std::min(min_, other.min_);
        max_ = std::max(max_, other.max_);
        if (keep_ && other.keep_) {
            samples_.insert(samples_.end(), other.samples_.begin(), other.samples_.end());
            sorted_ = false;
        } else {
            keep_ = false;
            samples_.clear();
        }
    }

    std::size_t count() const { return count_; }
    bool empty() const { return count_ == 0; }
    T sum() const { return sum_; }
    double mean() const { return count_ ? static_cast<double>(sum_) / static_cast<double>(count_) : 0.0; }
    T min() const { return count_ ? min_ : T{}; }  // 0 when empty
    T max() const { return count_ ? max_ : T{}; }  // 0 when empty

    double median() const { return percentile(0.5); }
    double percentile(double p) const {
        if (!count_) return 0.0;
        const std::vector<T>& v = sorted();
        const double pos = p * static_cast<double>(v.size() - 1);
        const auto i = static_cast<std::size_t>(pos);
        const double f = pos - static_cast<double>(i);
        const double a = static_cast<double>(v[i]);
        return i + 1 < v.size() ? a + (static_cast<double>(v[i + 1]) - a) * f : a;
    }
    T rank_percentile(double p) const {
        if (!count_) return T{};
        const std::vector<T>& v = sorted();
        return v[static_cast<std::size_t>(p * static_cast<double>(v.size() - 1))];
    }

private:
    const std::vector<T>& sorted() const {
        if (!keep_) throw std::logic_error("tally: percentiles of a tally that keeps no samples");
        if (!sorted_) {
            std::sort(samples_.begin(), samples_.end());
            sorted_ = true;
        }
        return samples_;
    }

    bool keep_ = false;
    std::size_t count_ = 0;
    T sum_{};
    T min_ = std::numeric_limits<T>::max();
    T max_ = std::numeric_limits<T>::lowest();
    mutable std::vector<T> samples_;  // sorted on the first percentile asked for
    mutable bool sorted_ = true;
};

// The total of one figure over many results: sum_of(games, &Game::lines), or with a function.
template <class Range, class Figure>
uint64_t sum_of(const Range& results, Figure figure) {
    uint64_t total = 0;
    for (const auto& r : results) total += static_cast<uint64_t>(std::invoke(figure, r));
    return total;
}

}  // namespace nestris
