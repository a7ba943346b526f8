#include "tools/tune/tune_state.hpp"

#include "base/error_text.hpp"
#include "base/file_io.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <sstream>

namespace nestris::tools {
namespace {

constexpr std::string_view kMagic = "nestris-tune-state";

[[noreturn]] void fail(const std::string& what) { throw TuneStateError("tune state: " + what); }

// Whitespace-separated tokens of the text, with how many bytes are left (the bound every count
// is checked against: each number takes at least one digit and one separator).
class Tokens {
public:
    explicit Tokens(std::string_view text) : text_(text) {}

    std::string_view next(const char* what) {
        skip_space();
        if (at_ == text_.size()) fail("truncated: it ends where " + std::string(what) + " should be");
        const size_t start = at_;
        while (at_ < text_.size() && !is_space(text_[at_])) ++at_;
        return text_.substr(start, at_ - start);
    }
    uint64_t unsigned_number(const char* what, uint64_t max) {
        const std::string_view token = next(what);
        uint64_t value = 0;
        const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
        if (ec != std::errc() || end != token.data() + token.size())
            fail(std::string(what) + ": expected a whole number, got " + quoted_excerpt(token));
        if (value > max) fail(std::string(what) + ": " + std::string(token) + " is larger than " + std::to_string(max));
        return value;
    }
    double real_number(const char* what) {
        const std::string_view token = next(what);
        double value = 0;
        const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
        if (ec != std::errc() || end != token.data() + token.size())
            fail(std::string(what) + ": expected a number, got " + quoted_excerpt(token));
        if (!std::isfinite(value)) fail(std::string(what) + ": " + quoted_excerpt(token) + " is not a finite number");
        return value;
    }
    // The most numbers the rest of the text can hold.
    uint64_t numbers_left() const { return (text_.size() - at_ + 1) / 2; }
    bool at_end() {
        skip_space();
        return at_ == text_.size();
    }

private:
    static bool is_space(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }
    void skip_space() {
        while (at_ < text_.size() && is_space(text_[at_])) ++at_;
    }
    std::string_view text_;
    size_t at_ = 0;
};

// A vector: its count, then that many numbers. `expected` is the count it must have (the
// swarm's dimension), or 0 for the first vector, which sets it.
std::vector<double> read_vector(Tokens& in, const std::string& what, size_t expected) {
    const uint64_t n = in.unsigned_number((what + "'s length").c_str(), std::numeric_limits<uint64_t>::max());
    if (n == 0) fail(what + " is empty: a swarm tunes at least one weight");
    if (expected != 0 && n != expected)
        fail(what + " has " + std::to_string(n) + " values, the swarm's best " + std::to_string(expected));
    if (n > in.numbers_left())
        fail("truncated: " + what + " declares " + std::to_string(n) + " values, the rest of the file holds at most " +
             std::to_string(in.numbers_left()));
    std::vector<double> values(static_cast<size_t>(n));
    for (double& d : values) d = in.real_number(what.c_str());
    return values;
}

}  // namespace

std::string tune_state_to_text(const TuneSwarm& s) {
    std::ostringstream o;
    o.precision(17);
    o << kMagic << " 1\n" << s.iteration << " " << s.best_f << " " << s.rng_state << "\n";
    auto vec = [&](const std::vector<double>& v) {
        o << v.size();
        for (double d : v) o << " " << d;
        o << "\n";
    };
    vec(s.best_x);
    o << s.particles.size() << "\n";
    for (const TuneParticle& p : s.particles) {
        vec(p.x);
        vec(p.v);
        vec(p.best_x);
        o << p.best_f << "\n";
    }
    return o.str();
}

TuneSwarm tune_state_from_text(std::string_view text) {
    Tokens in(text);
    if (in.at_end() || in.next("the header") != kMagic)
        fail("not a tune state file (it starts with '" + std::string(kMagic) + " 1')");
    if (in.unsigned_number("the version", 1'000'000) != 1) fail("not version 1 of the tune state file");
    TuneSwarm s;
    s.iteration = static_cast<int>(in.unsigned_number("the iteration", std::numeric_limits<int>::max()));
    s.best_f = in.real_number("the best fitness");
    s.rng_state = in.unsigned_number("the random state", std::numeric_limits<uint64_t>::max());
    s.best_x = read_vector(in, "the best position", 0);
    const size_t dim = s.best_x.size();
    const uint64_t count = in.unsigned_number("the particle count", std::numeric_limits<uint64_t>::max());
    if (count == 0) fail("the swarm has no particles");
    // A particle is 3 vectors (a count and `dim` numbers each) and its best fitness.
    const uint64_t per_particle = 3 * (1 + static_cast<uint64_t>(dim)) + 1;
    if (count > in.numbers_left() / per_particle)
        fail("truncated: it declares " + std::to_string(count) + " particles of " + std::to_string(dim) +
             " weights, the rest of the file holds at most " + std::to_string(in.numbers_left() / per_particle));
    s.particles.resize(static_cast<size_t>(count));
    for (size_t i = 0; i < s.particles.size(); ++i) {
        TuneParticle& p = s.particles[i];
        const std::string name = "particle " + std::to_string(i + 1);
        p.x = read_vector(in, name + "'s position", dim);
        p.v = read_vector(in, name + "'s velocity", dim);
        p.best_x = read_vector(in, name + "'s best position", dim);
        p.best_f = in.real_number((name + "'s best fitness").c_str());
    }
    if (!in.at_end()) fail("text after the last particle");
    return s;
}

TuneSwarm read_tune_state(const std::filesystem::path& path) {
    const std::string text = read_text_file(path);
    try {
        return tune_state_from_text(text);
    } catch (const TuneStateError& e) {
        throw TuneStateError("'" + path.string() + "': " + e.what());
    }
}

}  // namespace nestris::tools
