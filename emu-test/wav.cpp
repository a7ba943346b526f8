#include "emu-test/wav.hpp"

#include "base/file_io.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

namespace nestris::emu {

namespace {

void put16(std::vector<uint8_t>& b, uint32_t v) {
    b.push_back(static_cast<uint8_t>(v));
    b.push_back(static_cast<uint8_t>(v >> 8));
}
void put32(std::vector<uint8_t>& b, uint32_t v) {
    put16(b, v & 0xFFFF);
    put16(b, v >> 16);
}
void put_tag(std::vector<uint8_t>& b, const char* tag) {
    for (int i = 0; i < 4; ++i) b.push_back(static_cast<uint8_t>(tag[i]));
}
uint32_t get32(std::span<const uint8_t> b, size_t at) {
    return b[at] | b[at + 1] << 8 | b[at + 2] << 16 | static_cast<uint32_t>(b[at + 3]) << 24;
}
uint16_t get16(std::span<const uint8_t> b, size_t at) { return static_cast<uint16_t>(b[at] | b[at + 1] << 8); }

}  // namespace

int16_t pcm16(float sample) {
    const float v = std::round(sample * 32767.0f);
    return static_cast<int16_t>(std::clamp(v, -32768.0f, 32767.0f));
}

namespace {

// The most samples a WAV's 32-bit sizes can count.
constexpr uint64_t kMaxWavSamples = (0xFFFFFFFFu - 36) / 2;

// The 44 bytes before the samples.
std::vector<uint8_t> wav_header(uint64_t samples, int sample_rate) {
    if (samples > kMaxWavSamples) throw std::runtime_error("WAV: more than 4 GiB of sound");
    const uint32_t data = static_cast<uint32_t>(samples * 2);
    std::vector<uint8_t> b;
    put_tag(b, "RIFF");
    put32(b, 36 + data);
    put_tag(b, "WAVE");
    put_tag(b, "fmt ");
    put32(b, 16);
    put16(b, 1);  // PCM
    put16(b, 1);  // mono
    put32(b, static_cast<uint32_t>(sample_rate));
    put32(b, static_cast<uint32_t>(sample_rate) * 2);  // bytes a second
    put16(b, 2);                                        // bytes a frame
    put16(b, 16);                                       // bits a sample
    put_tag(b, "data");
    put32(b, data);
    return b;
}

}  // namespace

std::vector<uint8_t> wav_bytes(std::span<const int16_t> samples, int sample_rate) {
    std::vector<uint8_t> b = wav_header(samples.size(), sample_rate);
    b.reserve(b.size() + 2 * samples.size());
    for (const int16_t s : samples) put16(b, static_cast<uint16_t>(s));
    return b;
}

void write_wav(const std::filesystem::path& path, std::span<const int16_t> samples, int sample_rate) {
    WavWriter wav(path, sample_rate);
    wav.add(samples);
    wav.finish();
}

WavWriter::WavWriter(const std::filesystem::path& target, int sample_rate) : out_(target), rate_(sample_rate) {
    out_.write(wav_header(0, rate_));  // its sizes filled in by finish()
}

void WavWriter::add(std::span<const int16_t> samples) {
    if (samples.size() > kMaxWavSamples - samples_) throw std::runtime_error("WAV: more than 4 GiB of sound");
    bytes_.clear();
    for (const int16_t s : samples) put16(bytes_, static_cast<uint16_t>(s));
    out_.write(bytes_);
    samples_ += samples.size();
}

void WavWriter::add(std::span<const float> samples) {
    if (samples.size() > kMaxWavSamples - samples_) throw std::runtime_error("WAV: more than 4 GiB of sound");
    bytes_.clear();
    for (const float x : samples) put16(bytes_, static_cast<uint16_t>(pcm16(x)));
    out_.write(bytes_);
    samples_ += samples.size();
}

void WavWriter::finish() {
    out_.write_at(0, wav_header(samples_, rate_));
    out_.commit();
}

Wav parse_wav(std::span<const uint8_t> b) {
    auto fail = [](const std::string& why) { throw std::runtime_error("not a 16-bit PCM mono WAV: " + why); };
    if (b.size() < 12 || std::memcmp(b.data(), "RIFF", 4) || std::memcmp(b.data() + 8, "WAVE", 4)) fail("no RIFF/WAVE header");
    Wav w;
    bool fmt = false;
    for (size_t at = 12; at + 8 <= b.size();) {
        const uint32_t size = get32(b, at + 4);
        if (size > b.size() - at - 8) fail("a chunk runs past the end");
        if (!std::memcmp(b.data() + at, "fmt ", 4)) {
            if (size < 16) fail("a short fmt chunk");
            if (get16(b, at + 8) != 1) fail("not PCM");
            if (get16(b, at + 10) != 1) fail(std::to_string(get16(b, at + 10)) + " channels");
            if (get16(b, at + 22) != 16) fail(std::to_string(get16(b, at + 22)) + " bits a sample");
            w.sample_rate = static_cast<int>(get32(b, at + 12));
            fmt = true;
        } else if (!std::memcmp(b.data() + at, "data", 4)) {
            if (!fmt) fail("data before fmt");
            w.samples.resize(size / 2);
            for (size_t i = 0; i < w.samples.size(); ++i) w.samples[i] = static_cast<int16_t>(get16(b, at + 8 + 2 * i));
            return w;
        }
        at += 8 + size + (size & 1);
    }
    fail("no data chunk");
    return w;
}

}  // namespace nestris::emu
