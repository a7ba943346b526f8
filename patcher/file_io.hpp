// Reading and writing whole files the safe way: an output appears complete and checked, or not
// at all.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace nestris {

struct FileError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Size limits per kind of input (a bigger file is the wrong file; reading it would only waste
// memory): ROMs, patches and program images; movies, labels, states and other text.
inline constexpr uint64_t kMaxBinaryInput = 16u << 20;
inline constexpr uint64_t kMaxTextInput = 64u << 20;

// Reads a regular file whole. Checks before opening that it is one (a FIFO would block, a
// device would never end), refuses directories, devices, FIFOs and files over `max_bytes`.
std::vector<uint8_t> read_file(const std::filesystem::path& path, uint64_t max_bytes = kMaxBinaryInput);
std::string read_text_file(const std::filesystem::path& path, uint64_t max_bytes = kMaxTextInput);

// Called with the bytes as re-read from disk before they are published; throws to cancel.
using OnDiskCheck = std::function<void(std::span<const uint8_t> on_disk)>;

// Writes `bytes` to a temporary file in the target's directory, flushes it to disk, reads it
// back and compares, runs `check` on what was read, then renames it over `target`. On any
// failure the temporary file is removed, `target` is untouched, and FileError (or the check's
// exception) propagates. A new file gets mode 0644; an existing one keeps its mode.
// Refused before anything is written: a target that exists and is not a regular file (a device,
// a FIFO: it would be replaced by a file), a read-only target, and a target that is one of
// `inputs` (the files the command read). A target that is a symbolic link is followed: the file
// it points to is replaced and the link stays.
void write_file_atomically(const std::filesystem::path& target, std::span<const uint8_t> bytes,
                           const OnDiskCheck& check = {},
                           std::span<const std::filesystem::path> inputs = {});
void write_text_atomically(const std::filesystem::path& target, const std::string& text,
                           std::span<const std::filesystem::path> inputs = {});

// What write_file_atomically refuses before it writes, checked on its own (FileError): for a
// command that works long before its first write (nestris-tune), so that a bad output is refused
// at once, not after the work. Returns the file that would be replaced (a link followed).
std::filesystem::path check_output(const std::filesystem::path& target,
                                   std::span<const std::filesystem::path> inputs = {});

// Whether two paths name the same file (links and relative paths resolved).
bool same_file(const std::filesystem::path& a, const std::filesystem::path& b);

}  // namespace nestris
