// The project's one worker pool: work(i) for every i in [0, count) on up to `threads` threads.
//
// Indices are handed out one at a time from a shared counter, so long and short items balance
// out; each index is run exactly once, and a caller that writes result i from call i gets the
// same results whatever the thread count. The calling thread works too (as one of the
// workers), unless it was asked to report progress.
//
// Failures:
//   - The first exception thrown by work (or by progress) is rethrown in the caller once every
//     thread has been joined; no new index is started after it.
//   - A thread that cannot be created (std::system_error, e.g. under `ulimit -u`) is not an
//     error: the pool goes on with the threads it has, the calling thread working with them,
//     so with no extra thread at all the work is still done, on the calling thread.
//
// Header only and standard C++ only: the ground layer (patcher/) that every folder may use.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace nestris {

// The thread count for a request: `requested`, or one per core when 0 (at least 1).
inline unsigned worker_threads(unsigned requested = 0) {
    if (requested) return requested;
    return std::max(1u, std::thread::hardware_concurrency());
}

// How many workers parallel_for(count, threads, ...) uses at most: worker_threads(threads), no
// more than count. The worker index passed to work(i, worker) is below this number, so a
// vector of this size holds per-worker state.
inline unsigned worker_count(std::size_t count, unsigned threads) {
    return static_cast<unsigned>(std::min<std::size_t>(worker_threads(threads), count));
}

// Starts a thread running `body`; throws (std::system_error) when it cannot. The default is
// std::thread's constructor; tests put in one that fails to check the fallback.
using ThreadStarter = std::function<std::thread(std::function<void()> body)>;

struct PoolOptions {
    // If set: called from the calling thread with the number of finished indices, every
    // `interval` while the work runs and once at the end (not after a failure). The calling
    // thread then watches instead of working, unless threads could not be created.
    std::function<void(std::size_t done)> progress;
    std::chrono::milliseconds interval{100};
    ThreadStarter start_thread;  // empty: std::thread
};

namespace detail {

inline void run_pool(std::size_t count, unsigned threads, const std::function<void(std::size_t, unsigned)>& work,
                     const PoolOptions& options) {
    const unsigned workers = worker_count(count, threads);
    const bool watching = static_cast<bool>(options.progress);
    std::atomic<std::size_t> next{0}, done{0};
    std::atomic<bool> failed{false};
    std::exception_ptr failure;  // written by the first to fail only, read after the joins
    std::mutex mutex;
    std::condition_variable finished;  // all done or failed: wakes the watching caller
    auto fail = [&] {
        if (!failed.exchange(true)) failure = std::current_exception();
        std::lock_guard lock(mutex);
        finished.notify_all();
    };
    // One worker: takes indices until there are none left or something failed. `report`: the
    // calling thread working while progress is wanted reports between its items.
    auto run_worker = [&](unsigned worker, bool report) {
        try {
            auto last = std::chrono::steady_clock::now();
            for (std::size_t i; !failed.load() && (i = next++) < count;) {
                work(i, worker);
                if (const std::size_t d = ++done; d == count) {
                    std::lock_guard lock(mutex);
                    finished.notify_all();
                }
                if (report && std::chrono::steady_clock::now() - last >= options.interval) {
                    options.progress(done.load());
                    last = std::chrono::steady_clock::now();
                }
            }
        } catch (...) {
            fail();
        }
    };

    // Worker threads 0, 1, ...; the calling thread, when it works, is the worker after them.
    const unsigned wanted = workers == 0 ? 0 : watching ? workers : workers - 1;
    std::vector<std::thread> pool;
    pool.reserve(wanted);
    for (unsigned w = 0; w < wanted; ++w) {
        try {
            std::function<void()> body = [&run_worker, w] { run_worker(w, false); };
            std::thread t = options.start_thread ? options.start_thread(std::move(body)) : std::thread(std::move(body));
            if (!t.joinable()) break;  // a starter that made nothing: as if it had thrown
            pool.push_back(std::move(t));
        } catch (...) {
            break;  // no more threads: go on with those made so far
        }
    }
    const auto made = static_cast<unsigned>(pool.size());
    if (watching && made == workers && workers > 0) {
        try {
            std::unique_lock lock(mutex);
            while (done.load() < count && !failed.load()) {
                lock.unlock();
                options.progress(done.load());
                lock.lock();
                finished.wait_for(lock, options.interval, [&] { return done.load() >= count || failed.load(); });
            }
        } catch (...) {
            fail();
        }
    } else if (workers > 0) {
        run_worker(made, watching);
    }
    for (std::thread& t : pool)
        if (t.joinable()) t.join();
    if (failure) std::rethrow_exception(failure);
    if (watching) options.progress(done.load());
}

}  // namespace detail

// Calls work(i) -- or work(i, worker), worker in [0, worker_count(count, threads)) the index of
// the thread running it -- for every i in [0, count), on up to `threads` threads (0: one per
// core). Returns when all are done; rethrows the first exception of a worker.
template <class F>
void parallel_for(std::size_t count, unsigned threads, F&& work, const PoolOptions& options = {}) {
    if constexpr (std::is_invocable_v<F&, std::size_t, unsigned>) {
        detail::run_pool(count, threads, [&work](std::size_t i, unsigned worker) { work(i, worker); }, options);
    } else {
        static_assert(std::is_invocable_v<F&, std::size_t>, "work must take (std::size_t) or (std::size_t, unsigned)");
        detail::run_pool(count, threads, [&work](std::size_t i, unsigned) { work(i); }, options);
    }
}

}  // namespace nestris
