// The stats tally (base/tally.hpp).
#include "base/tally.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <stdexcept>

using nestris::Tally;

TEST_CASE("tally: count, sum, mean, min, max") {
    Tally<uint64_t> t;
    CHECK(t.empty());
    CHECK(t.count() == 0);
    CHECK(t.mean() == 0.0);
    CHECK(t.min() == 0);
    CHECK(t.max() == 0);
    for (uint64_t x : {5u, 1u, 9u, 3u}) t.add(x);
    CHECK(t.count() == 4);
    CHECK(t.sum() == 18);
    CHECK(t.mean() == 4.5);
    CHECK(t.min() == 1);
    CHECK(t.max() == 9);
    CHECK_THROWS_AS(t.median(), std::logic_error);  // no samples kept

    Tally<double> negative;
    negative.add(-2.5);
    negative.add(-7.0);
    CHECK(negative.max() == -2.5);
    CHECK(negative.min() == -7.0);
}

TEST_CASE("tally: percentiles, interpolated and by rank") {
    Tally<double> t(true);
    CHECK(t.median() == 0.0);  // empty
    for (double x : {10.0, 2.0, 8.0, 4.0, 6.0}) t.add(x);  // sorted: 2 4 6 8 10
    CHECK(t.median() == 6.0);
    CHECK(t.percentile(0.0) == 2.0);
    CHECK(t.percentile(1.0) == 10.0);
    CHECK(t.percentile(0.1) == Approx(2.8));    // pos 0.4: 2 + 0.4 * 2
    CHECK(t.percentile(0.9) == Approx(9.2));    // pos 3.6: 8 + 0.6 * 2
    CHECK(t.rank_percentile(0.9) == 8.0);       // rank floor(3.6) = 3
    CHECK(t.rank_percentile(0.5) == 6.0);
    t.add(12.0);                                 // 2 4 6 8 10 12: even count
    CHECK(t.median() == 7.0);
    CHECK(t.rank_percentile(0.5) == 6.0);       // rank floor(2.5) = 2

    Tally<uint64_t> cycles(true);
    for (uint64_t c = 1; c <= 100; ++c) cycles.add(c);
    CHECK(cycles.rank_percentile(0.99) == 99);  // rank floor(0.99 * 99) = 98
    CHECK(cycles.rank_percentile(0.5) == 50);   // rank 49
    CHECK(cycles.percentile(0.5) == 50.5);
}

TEST_CASE("tally: merging tallies is adding their samples") {
    Tally<uint64_t> a(true), b(true), all(true);
    for (uint64_t x = 0; x < 10; ++x) {
        (x % 3 ? a : b).add(x * x);
        all.add(x * x);
    }
    a.merge(b);
    CHECK(a.count() == all.count());
    CHECK(a.sum() == all.sum());
    CHECK(a.min() == all.min());
    CHECK(a.max() == all.max());
    CHECK(a.median() == all.median());
    CHECK(a.percentile(0.9) == all.percentile(0.9));
    Tally<uint64_t> empty;
    a.merge(empty);  // an empty tally adds nothing, but it kept no samples: neither does the result
    CHECK(a.count() == all.count());
    CHECK(a.min() == 0);
    CHECK_THROWS_AS(a.median(), std::logic_error);
}
