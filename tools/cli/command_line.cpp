#include "tools/cli/command_line.hpp"

#include "base/command_runner.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <string>
#include <unistd.h>
#include <utility>

namespace nestris {

std::string thousands(uint64_t n) {
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ' ';
        out += digits[i];
    }
    return out;
}

void refuse_given(const CLI::App& app, std::initializer_list<const char*> options, const std::string& why) {
    for (const char* option : options)
        if (app.count(option)) throw UsageError(std::string(option) + " " + why);
}

std::vector<uint32_t> parse_number_list(const std::string& text) {
    std::vector<uint32_t> out;
    auto number = [&](const std::string& s) -> uint32_t {
        if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 10)
            throw UsageError("'" + s + "' is not a number (in '" + text + "')");
        const unsigned long long v = std::stoull(s);
        if (v > 0xFFFFFFFFull) throw UsageError("'" + s + "' is too large");
        return static_cast<uint32_t>(v);
    };
    // Counted before anything is added: a range of 100 million was 400 MB before a game ran.
    auto make_room = [&](uint64_t count, const std::string& item) {
        if (out.size() + count > kMaxListNumbers)
            throw UsageError("'" + item + "' makes the list longer than " + thousands(kMaxListNumbers) + " numbers");
    };
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = text.find(',', start);
        const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        const std::size_t dash = item.find('-');
        if (dash == std::string::npos) {
            const uint32_t v = number(item);
            make_room(1, item);
            out.push_back(v);
        } else {
            const uint32_t lo = number(item.substr(0, dash)), hi = number(item.substr(dash + 1));
            if (hi < lo) throw UsageError("range '" + item + "' runs backwards");
            make_room(uint64_t{hi} - lo + 1, item);
            for (uint64_t v = lo; v <= hi; ++v) out.push_back(static_cast<uint32_t>(v));
        }
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return out;
}

std::string rough_duration(double seconds) {
    char text[32];
    if (seconds < 90)
        std::snprintf(text, sizeof text, "%.0f s", seconds);
    else if (seconds < 90 * 60)
        std::snprintf(text, sizeof text, "%.0f min", seconds / 60);
    else if (seconds < 48 * 3600)
        std::snprintf(text, sizeof text, "%.1f h", seconds / 3600);
    else
        std::snprintf(text, sizeof text, "%.1f days", seconds / 86400);
    return text;
}

namespace {

// ", about 3 min left" at the pace so far; "" before any of the run is done, or once all is.
std::string time_left(std::size_t done, std::size_t total, double seconds) {
    if (done == 0 || done >= total) return {};
    return ", about " + rough_duration(seconds * static_cast<double>(total - done) / static_cast<double>(done)) + " left";
}

}  // namespace

std::string progress_bar(std::size_t done, std::size_t total, double seconds, const char* unit) {
    constexpr int kWidth = 30;
    const int filled = total ? static_cast<int>(static_cast<double>(done) * kWidth / static_cast<double>(total)) : kWidth;
    std::string bar = "\r[";
    for (int i = 0; i < kWidth; ++i) bar += i < filled ? '#' : '.';
    char tail[96];
    std::snprintf(tail, sizeof tail, "] %zu/%zu %s  %.1f s", done, total, unit, seconds);
    // (the bar is redrawn in place: a shorter line must not leave the end of a longer one)
    return bar + tail + time_left(done, total, seconds) + "\x1b[K";
}

bool stderr_is_terminal() { return isatty(fileno(stderr)) != 0; }

ProgressReport::ProgressReport(std::string name, std::size_t total, const char* unit, bool terminal, bool quiet)
    : name_(std::move(name)), total_(total), unit_(unit), terminal_(terminal), quiet_(quiet) {}

std::string ProgressReport::line(std::size_t done, double seconds, bool ended) const {
    char head[96];
    std::snprintf(head, sizeof head, ": %zu/%zu %s, %.1f s", done, total_, unit_, seconds);
    return name_ + head + (ended ? "" : time_left(done, total_, seconds)) + "\n";
}

std::string ProgressReport::update(std::size_t done, double seconds) {
    done_ = done;
    if (quiet_) return {};
    if (terminal_) {
        if (done < total_ && drawn_at_ >= 0 && seconds - drawn_at_ < 0.05) return {};
        drawn_at_ = seconds;
        return progress_bar(done, total_, seconds, unit_);
    }
    const std::size_t tenths = total_ ? done * 10 / total_ : 10;
    if (tenths <= tenths_printed_) return {};
    tenths_printed_ = tenths;
    return line(done, seconds);
}

std::string ProgressReport::finish(double seconds) {
    if (quiet_) return {};
    if (terminal_) return "\n";
    if (tenths_printed_ >= 10) return {};
    tenths_printed_ = 10;
    return line(done_, seconds, /*ended=*/true);  // a run may end short of its total (play --to-the-end)
}

std::string ProgressReport::clear() const { return terminal_ && !quiet_ ? "\r\x1b[K" : ""; }

PoolProgress::PoolProgress(std::string name, std::size_t total, const char* unit, std::mutex* lines)
    : report_(std::move(name), total, unit, stderr_is_terminal(), /*quiet=*/total == 0), lines_(lines) {}

double PoolProgress::seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

PoolOptions PoolProgress::options(const std::atomic<std::size_t>* done) {
    PoolOptions o;
    o.progress = [this, done](std::size_t indices) {
        std::unique_lock<std::mutex> lock;
        if (lines_) lock = std::unique_lock<std::mutex>(*lines_);
        std::cerr << report_.update(done ? done->load() : indices, seconds()) << std::flush;
    };
    return o;
}

void PoolProgress::finish() { std::cerr << report_.finish(seconds()) << std::flush; }

}  // namespace nestris
