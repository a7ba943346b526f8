// Sound to a file: 16-bit PCM WAV, mono (RIFF/WAVE, a "fmt " chunk of 16 bytes, a "data" chunk).
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

namespace nestris::emu {

// A run's sound is held in memory until it is written: --wav takes at most this many frames
// (an hour: 345 MB at 48 kHz).
inline constexpr uint64_t kMaxWavFrames = 216'000;

// Samples as 16-bit: x 32767, rounded, clipped to -32768..32767.
int16_t pcm16(float sample);

// The bytes of a WAV file holding `samples` (16-bit PCM, mono) at `sample_rate` Hz.
std::vector<uint8_t> wav_bytes(std::span<const int16_t> samples, int sample_rate);

// Writes it atomically (a temporary file renamed over the target: file_io.hpp's one writer);
// throws FileError naming the file when it cannot be written.
void write_wav(const std::filesystem::path& path, std::span<const int16_t> samples, int sample_rate);

// A WAV file read back: its rate and samples. Throws std::runtime_error unless it is a 16-bit PCM
// mono WAV (what write_wav writes; for tests and tools).
struct Wav {
    int sample_rate = 0;
    std::vector<int16_t> samples;
};
Wav parse_wav(std::span<const uint8_t> bytes);

}  // namespace nestris::emu
