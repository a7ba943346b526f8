// The one worker pool (base/worker_pool.hpp): every index once, the first exception back in
// the caller, and the work done even when no thread can be created.
#include "base/worker_pool.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

using namespace nestris;

namespace {

// A starter that makes `allowed` real threads, then fails as std::thread does when the process
// may not have more (EAGAIN, e.g. under `ulimit -u`).
struct LimitedStarter {
    int allowed = 0;
    std::shared_ptr<std::atomic<int>> started = std::make_shared<std::atomic<int>>(0);
    std::thread operator()(std::function<void()> body) const {
        if (started->load() >= allowed)
            throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again),
                                    "thread creation refused by the test");
        ++*started;
        return std::thread(std::move(body));
    }
};

// Runs every index of `count` and returns how often each ran.
std::vector<int> run_counts(std::size_t count, unsigned threads, const PoolOptions& options = {}) {
    std::vector<std::atomic<int>> runs(count);
    parallel_for(count, threads, [&](std::size_t i) { ++runs[i]; }, options);
    std::vector<int> out;
    for (const auto& r : runs) out.push_back(r.load());
    return out;
}

}  // namespace

TEST_CASE("worker pool: every index runs exactly once, for any thread count") {
    for (unsigned threads : {0u, 1u, 2u, 3u, 8u, 64u}) {
        for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{1000}}) {
            INFO(threads << " threads, " << count << " indices");
            CHECK(run_counts(count, threads) == std::vector<int>(count, 1));
        }
    }
}

TEST_CASE("worker pool: results written by index are the same whatever the thread count") {
    auto squares = [](unsigned threads) {
        std::vector<uint64_t> out(500);
        parallel_for(out.size(), threads, [&](std::size_t i) { out[i] = uint64_t{i} * i + 7; });
        return out;
    };
    const std::vector<uint64_t> one = squares(1);
    CHECK(squares(2) == one);
    CHECK(squares(7) == one);
    CHECK(one[20] == 407);
}

TEST_CASE("worker pool: worker indices stay below worker_count and name one thread each") {
    const std::size_t count = 300;
    const unsigned threads = 4;
    CHECK(worker_threads() >= 1);
    CHECK(worker_threads(5) == 5);
    REQUIRE(worker_count(count, threads) == 4);
    CHECK(worker_count(2, threads) == 2);
    CHECK(worker_count(0, threads) == 0);
    CHECK(worker_count(10, 0) == std::min<unsigned>(10, worker_threads()));
    std::mutex mutex;
    std::vector<std::set<std::thread::id>> ids(worker_count(count, threads));
    std::vector<std::atomic<int>> runs(count);
    parallel_for(count, threads, [&](std::size_t i, unsigned worker) {
        REQUIRE(worker < ids.size());
        ++runs[i];
        std::lock_guard lock(mutex);
        ids[worker].insert(std::this_thread::get_id());
    });
    for (const auto& r : runs) CHECK(r.load() == 1);
    for (const auto& s : ids) CHECK(s.size() <= 1);  // a worker index is one thread's alone
}

TEST_CASE("worker pool: the first exception of a worker comes back to the caller") {
    std::atomic<int> ran{0};
    CHECK_THROWS_WITH(parallel_for(1000, 4,
                                   [&](std::size_t i) {
                                       ++ran;
                                       if (i == 17) throw std::runtime_error("index 17 failed");
                                       // The indices after it take a while: had the pool gone on
                                       // after the failure, they would all run.
                                       if (i > 17) std::this_thread::sleep_for(std::chrono::milliseconds(5));
                                   }),
                      "index 17 failed");
    CHECK(ran.load() >= 18);
    CHECK(ran.load() < 1000);  // no new index after the failure
    ran = 0;
    CHECK_THROWS_WITH(parallel_for(1000, 1,
                                   [&](std::size_t i) {
                                       ++ran;
                                       if (i == 17) throw std::runtime_error("index 17 failed");
                                   }),
                      "index 17 failed");
    CHECK(ran.load() == 18);  // one worker: exactly up to the failure
    // Every index failing: one of them is rethrown, nothing terminates.
    CHECK_THROWS_AS(parallel_for(100, 3, [](std::size_t) { throw std::logic_error("each"); }), std::logic_error);
    // On the calling thread alone too.
    CHECK_THROWS_WITH(parallel_for(5, 1, [](std::size_t i) { if (i == 3) throw std::runtime_error("three"); }),
                      "three");
}

TEST_CASE("worker pool: with no thread to be had, the calling thread does all the work") {
    PoolOptions options;
    LimitedStarter none{0};
    options.start_thread = none;
    const std::thread::id caller = std::this_thread::get_id();
    std::vector<std::atomic<int>> runs(200);
    std::atomic<bool> elsewhere{false};
    parallel_for(
        runs.size(), 8,
        [&](std::size_t i, unsigned worker) {
            ++runs[i];
            if (std::this_thread::get_id() != caller || worker != 0) elsewhere = true;
        },
        options);
    for (const auto& r : runs) CHECK(r.load() == 1);
    CHECK_FALSE(elsewhere.load());
    CHECK(none.started->load() == 0);
}

TEST_CASE("worker pool: when thread creation fails part way, the threads made and the caller finish") {
    PoolOptions options;
    LimitedStarter two{2};
    options.start_thread = two;
    std::mutex mutex;
    std::set<unsigned> workers;
    std::vector<std::atomic<int>> runs(500);
    parallel_for(
        runs.size(), 8,
        [&](std::size_t i, unsigned worker) {
            ++runs[i];
            std::lock_guard lock(mutex);
            workers.insert(worker);
        },
        options);
    for (const auto& r : runs) CHECK(r.load() == 1);
    CHECK(two.started->load() == 2);
    for (unsigned w : workers) CHECK(w <= 2);  // two threads (0, 1) and the caller (2)
}

TEST_CASE("worker pool: progress is reported by the caller, also when no thread can be made") {
    for (int allowed : {100, 0}) {
        INFO("threads allowed: " << allowed);
        PoolOptions options;
        options.interval = std::chrono::milliseconds(1);
        options.start_thread = LimitedStarter{allowed};
        const std::thread::id caller = std::this_thread::get_id();
        std::vector<std::size_t> reports;
        bool off_caller = false;
        options.progress = [&](std::size_t done) {
            off_caller = off_caller || std::this_thread::get_id() != caller;
            reports.push_back(done);
        };
        const std::vector<int> runs = run_counts(50, 4, options);
        CHECK(runs == std::vector<int>(50, 1));
        CHECK_FALSE(off_caller);
        REQUIRE_FALSE(reports.empty());
        CHECK(reports.back() == 50);  // the last report: all done
        CHECK(std::is_sorted(reports.begin(), reports.end()));
    }
    // A progress callback that throws: rethrown after the workers stop, no terminate.
    PoolOptions failing;
    failing.progress = [](std::size_t) { throw std::runtime_error("progress failed"); };
    CHECK_THROWS_WITH(run_counts(20, 2, failing), "progress failed");
}
