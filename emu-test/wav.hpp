// Sound to a file: 16-bit PCM WAV, mono (RIFF/WAVE, a "fmt " chunk of 16 bytes, a "data" chunk).
#pragma once

#include "base/file_io.hpp"

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

namespace nestris::emu {

// --wav takes at most this many frames from power-on (an hour: 345 MB at 48 kHz, 1.4 GB at
// 192 kHz, written as it is made: the memory stays small).
inline constexpr uint64_t kMaxWavFrames = 216'000;

// Samples as 16-bit: x 32767, rounded, clipped to -32768..32767.
int16_t pcm16(float sample);

// The bytes of a WAV file holding `samples` (16-bit PCM, mono) at `sample_rate` Hz.
std::vector<uint8_t> wav_bytes(std::span<const int16_t> samples, int sample_rate);

// Writes it atomically (a temporary file renamed over the target: file_io.hpp's one writer);
// throws FileError naming the file when it cannot be written.
void write_wav(const std::filesystem::path& path, std::span<const int16_t> samples, int sample_rate);

// A WAV written as the sound is made: the samples go to the output's temporary file at once (a
// run's hour of sound is never held in memory), the header's sizes are filled in by finish(),
// which publishes the file whole (OutputFile: an error or a signal before it leaves nothing).
// A target that cannot be written is refused by the constructor (FileError), before the run.
class WavWriter {
public:
    WavWriter(const std::filesystem::path& target, int sample_rate);
    void add(std::span<const float> samples);  // as pcm16()
    void add(std::span<const int16_t> samples);
    uint64_t samples() const { return samples_; }
    int sample_rate() const { return rate_; }
    void finish();

private:
    OutputFile out_;
    int rate_;
    uint64_t samples_ = 0;
    std::vector<uint8_t> bytes_;  // (reused: one conversion buffer)
};

// A WAV file read back: its rate and samples. Throws std::runtime_error unless it is a 16-bit PCM
// mono WAV (what write_wav writes; for tests and tools).
struct Wav {
    int sample_rate = 0;
    std::vector<int16_t> samples;
};
Wav parse_wav(std::span<const uint8_t> bytes);

}  // namespace nestris::emu
